from torch import nn


class SANet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 9, padding=4), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 7, padding=3), nn.ReLU(inplace=True),
        )
        self.density = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        return self.density(self.features(x))
