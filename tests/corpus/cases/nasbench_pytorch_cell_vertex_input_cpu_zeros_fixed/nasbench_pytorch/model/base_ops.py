import torch.nn as nn


class ConvBnRelu(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size=1, stride=1, padding=0):
        super(ConvBnRelu, self).__init__()
        self.conv_bn_relu = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size, stride, padding, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(),
        )

    def forward(self, x):
        return self.conv_bn_relu(x)


def conv3x3_bn_relu(in_channels, out_channels):
    return ConvBnRelu(in_channels, out_channels, 3, 1, 1)


def conv1x1_bn_relu(in_channels, out_channels):
    return ConvBnRelu(in_channels, out_channels, 1, 1, 0)


def maxpool3x3(in_channels, out_channels):
    return nn.MaxPool2d(3, 1, 1)


OP_MAP = {
    'conv3x3-bn-relu': conv3x3_bn_relu,
    'conv1x1-bn-relu': conv1x1_bn_relu,
    'maxpool3x3': maxpool3x3,
}
