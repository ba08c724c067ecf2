import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from losses import BinomialLoss

NUM_CLASSES = 5


def make_loaders(n=64, features=12):
    x = torch.randn(n, features)
    y = torch.randint(0, NUM_CLASSES, (n,))
    return DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)


def main():
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, NUM_CLASSES)).to(device)
    loss_fn = BinomialLoss(base_loss=nn.CrossEntropyLoss(), num_classes=NUM_CLASSES)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    train_loader = make_loaders()
    for epoch in range(3):
        model.train()
        for X, y in train_loader:
            X, y = X.to(device), y.to(device)
            pred = model(X)
            loss = loss_fn(pred, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print("epoch", epoch, "done")


if __name__ == "__main__":
    main()
