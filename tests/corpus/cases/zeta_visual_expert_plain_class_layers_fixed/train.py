import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model.mmm4tsc import MMM4TSC


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    series = torch.randn(64, 24, 8)
    images = torch.randn(64, 4, 32)
    labels = torch.randint(0, 3, (64,))
    loader = DataLoader(TensorDataset(series, images, labels), batch_size=16, shuffle=True)

    model = MMM4TSC(series_dim=8, image_dim=32).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for s, im, y in loader:
            s, im, y = s.to(device), im.to(device), y.to(device)
            loss = F.cross_entropy(model(s, im)[: y.shape[0]], y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == "__main__":
    main()
