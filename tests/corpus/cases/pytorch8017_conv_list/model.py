from torch import nn


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, layer_size):
        super().__init__()
        self.conv = []
        for _ in range(layer_size):
            self.conv.append(nn.Conv2d(in_channels, out_channels, kernel_size=3))
            in_channels = out_channels
            out_channels *= 2

    def forward(self, x):
        for conv in self.conv:
            x = conv(x)
        return x
