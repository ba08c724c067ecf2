from torch import nn


class PIXOR(nn.Module):
    def __init__(self):
        super().__init__()
        self.basis_block = nn.Sequential(nn.Conv2d(36, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.header = nn.Conv2d(32, 7, 3, padding=1)

    def forward(self, x):
        return self.header(self.basis_block(x))
