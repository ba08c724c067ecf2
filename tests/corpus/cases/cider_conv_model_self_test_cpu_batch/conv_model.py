"""cider's conv_model.py (COVID-19 cough classifier, at 3a3b007): a stack of residual conv blocks whose model
moves itself to `device` (default "cuda") while it is built, and the module's own self-test under __main__.
Re-expressed with four residual stages instead of nine."""
import numpy as np
import torch
import torch.nn as nn


class Resid_block(nn.Module):
    """Two 3x3 convolutions with batch norm and a (possibly downsampled) skip connection."""

    def __init__(self, inchannels, outchannels, padding=1, stride=1, downsample=None):
        super(Resid_block, self).__init__()
        self.conv1 = nn.Conv2d(inchannels, outchannels, kernel_size=3, padding=padding, stride=stride)
        self.conv2 = nn.Conv2d(outchannels, outchannels, kernel_size=3, padding=1, stride=1)
        self.bn1 = nn.BatchNorm2d(outchannels)
        self.bn2 = nn.BatchNorm2d(outchannels)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        skip = self.downsample(x) if self.downsample is not None else x
        return self.relu(out + skip)


def _stage(c_in, c_out, stride):
    return Resid_block(c_in, c_out, padding=(1, 1), stride=stride,
                       downsample=nn.Conv2d(c_in, c_out, kernel_size=1, stride=stride))


class ConvCore(nn.Module):
    """The convolutional trunk (spectrogram in, feature map out)."""

    def __init__(self, dropout=None, depth_scale=1, breathcough=False):
        super().__init__()
        self.d = depth_scale
        self.dropout = nn.Dropout(p=0.5) if dropout else None
        width = int(32 * self.d)
        self.conv1 = nn.Conv2d(2 if breathcough else 1, width, kernel_size=(7, 3), padding=1)
        self.resid1 = _stage(width, 2 * width, (2, 1))
        self.resid2 = _stage(2 * width, 4 * width, (2, 1))
        self.resid3 = _stage(4 * width, width, 2)
        self.resid4 = _stage(width, width // 4, 2)

    def forward(self, x):
        out = self.conv1(x.float())
        if self.dropout is not None:
            out = self.dropout(out)
        for block in (self.resid1, self.resid2, self.resid3, self.resid4):
            out = block(out)
        return out


class Conv_Model(ConvCore):
    """Trunk plus a two-layer head; the head's width is found by running a dummy input through the trunk."""

    def __init__(self, dropout=None, depth_scale=1, device="cuda", input_shape=(1025, 94), breathcough=False):
        super().__init__(dropout, depth_scale, breathcough=breathcough)
        self.to(device)
        probe = torch.randn(1, 2 if breathcough else 1, *input_shape).to(device)
        out_tmp = super().forward(probe)
        self.FC1 = nn.Linear(np.prod(out_tmp[-2:].shape), 50)
        self.FC2 = nn.Linear(50, 1)
        self.relu = nn.ReLU()
        self.to(device)
        self.breathcough = breathcough

    def forward(self, x):
        out = super().forward(x)
        out = self.relu(self.FC1(out.view(x.size()[0], -1)))
        return self.FC2(out)


if __name__ == '__main__':
    for i in range(1, 6):
        x = torch.randn(8, 1, 1025, 94 * i)
        model = Conv_Model(depth_scale=1.0, input_shape=x.shape[-2:])
        out = model(x)
    print('Done')
