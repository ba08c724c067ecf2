import torch.nn as nn

from ..builder import BACKBONES


@BACKBONES.register_module()
class ResNet(nn.Module):
    """A small stand-in for the ResNet backbone: a conv stem and one stage."""

    def __init__(self, depth=50, in_channels=3, base_channels=16, out_channels=64):
        super().__init__()
        self.depth = depth
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, base_channels, 7, stride=2, padding=3),
            nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1))
        self.layer1 = nn.Sequential(
            nn.Conv2d(base_channels, out_channels, 3, stride=2, padding=1),
            nn.ReLU(inplace=True))

    def forward(self, x):
        return self.layer1(self.stem(x))
