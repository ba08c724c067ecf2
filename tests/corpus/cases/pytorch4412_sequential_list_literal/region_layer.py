import torch
from torch import nn


class RegionLayer(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.convs = [
            nn.Sequential(
                nn.Conv2d(in_channels, in_channels, kernel_size=3, padding=1),
                nn.Conv2d(in_channels, in_channels, kernel_size=3, padding=1),
            ),
            nn.Sequential(
                nn.Conv2d(in_channels, in_channels, kernel_size=3, padding=1),
                nn.Conv2d(in_channels, in_channels, kernel_size=3, padding=1),
            ),
        ]

    def forward(self, x):
        output = self.convs[0](x)
        return self.convs[1](output)


net = RegionLayer(8)
net.cuda()
print(net(torch.randn(1, 8, 16, 16, device="cuda")).shape)
