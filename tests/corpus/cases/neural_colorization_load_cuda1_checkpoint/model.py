import torch.nn as nn


class shave_block(nn.Module):
    def __init__(self, s):
        super(shave_block, self).__init__()
        self.s = s

    def forward(self, x):
        return x[:, :, self.s:-self.s, self.s:-self.s]


class ResidualBlock(nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, (3, 3)), nn.BatchNorm2d(channels), nn.ReLU(),
            nn.Conv2d(channels, channels, (3, 3)), nn.BatchNorm2d(channels),
        )
        self.shave = shave_block(2)

    def forward(self, x):
        return self.body(x) + self.shave(x)


def generator():
    return nn.Sequential(
        nn.ReflectionPad2d((8, 8, 8, 8)),
        nn.Conv2d(1, 16, (9, 9), (1, 1), (4, 4)), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, (3, 3), (2, 2), (1, 1)), nn.BatchNorm2d(32), nn.ReLU(),
        ResidualBlock(32),
        ResidualBlock(32),
        nn.ConvTranspose2d(32, 16, (3, 3), (2, 2), (1, 1), (1, 1)), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 2, (9, 9), (1, 1), (4, 4)),
        nn.Tanh(),
    )
