"""Fit the KNN detector on IN data and score a test set on the GPU (the README's usage)."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from pytorch_ood.detector import KNN


class Encoder(nn.Module):
    def __init__(self, in_features=32, out_features=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_features, 64), nn.ReLU(), nn.Linear(64, out_features))

    def forward(self, x):
        return self.net(x)


def main():
    train = TensorDataset(torch.randn(512, 32), torch.randint(0, 10, (512,)))
    test = TensorDataset(torch.randn(256, 32), torch.randint(-1, 10, (256,)))
    train_loader = DataLoader(train, batch_size=64)
    test_loader = DataLoader(test, batch_size=64)

    model = Encoder().eval().cuda()
    detector = KNN(model)
    detector.fit(train_loader, device="cuda")

    scores = []
    for x, y in test_loader:
        scores.append(detector(x.cuda()))
    print(torch.cat(scores).mean())


if __name__ == "__main__":
    main()
