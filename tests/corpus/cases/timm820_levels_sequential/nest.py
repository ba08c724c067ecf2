import torch
from torch import nn


class NestLevel(nn.Module):
    def __init__(self, dim, depth):
        super().__init__()
        self.blocks = nn.Sequential(*[nn.TransformerEncoderLayer(dim, 4, batch_first=True) for _ in range(depth)])

    def forward(self, x):
        return self.blocks(x)


class Nest(nn.Module):
    def __init__(self, dims=(128, 256, 512), depths=(2, 2, 8), num_classes=1000):
        super().__init__()
        levels = []
        prev_dim = dims[0]
        for dim, depth in zip(dims, depths):
            levels.append(nn.Sequential(nn.Linear(prev_dim, dim), NestLevel(dim, depth)))
            prev_dim = dim
        self.levels = nn.Sequential(*levels)
        self.head = nn.Linear(dims[-1], num_classes)

    def forward(self, tokens):
        x = self.levels(tokens)
        return self.head(x.mean(1))


if __name__ == "__main__":
    model = Nest().cuda()
    print(model(torch.randn(2, 16, 128, device="cuda")).shape)
