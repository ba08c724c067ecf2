"""Binary tabular classifier trained on the GPU with fastai's auc_roc_score as a validation metric
(computed per validation batch on the model's outputs, as fastai v1 calls metric functions)."""
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from fastai.metrics import accuracy, auc_roc_score


def get_data(n=256, n_cont=6):
    x = torch.randn(n, n_cont)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    train = DataLoader(TensorDataset(x[:192], y[:192]), batch_size=32, shuffle=True)
    valid = DataLoader(TensorDataset(x[192:], y[192:]), batch_size=32)
    return train, valid


def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    train_dl, valid_dl = get_data()
    model = nn.Sequential(nn.Linear(6, 200), nn.ReLU(), nn.Linear(200, 100), nn.ReLU(), nn.Linear(100, 2)).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)

    for epoch in range(2):
        model.train()
        for xb, yb in train_dl:
            xb, yb = xb.to(device), yb.to(device)
            loss = F.cross_entropy(model(xb), yb)
            loss.backward()
            opt.step()
            opt.zero_grad()

        model.eval()
        accs, aucs = [], []
        with torch.no_grad():
            for xb, yb in valid_dl:
                xb, yb = xb.to(device), yb.to(device)
                out = model(xb)
                accs.append(accuracy(out, yb))
                aucs.append(auc_roc_score(F.softmax(out, dim=1)[:, -1], yb))
        print(epoch, torch.stack(accs).mean().item(), torch.stack(aucs).mean().item())


if __name__ == '__main__':
    main()
