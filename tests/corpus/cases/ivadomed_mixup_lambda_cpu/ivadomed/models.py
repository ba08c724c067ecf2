import torch
from torch import nn


class Unet(nn.Module):
    """A small stand-in for ivadomed's 2D U-Net: same call (`model(x)`), sigmoid output."""

    def __init__(self, in_channel=1, out_channel=1, n_filters=8, **kwargs):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(in_channel, n_filters, 3, padding=1), nn.ReLU(),
                                     nn.Conv2d(n_filters, n_filters, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(n_filters, out_channel, 1)

    def forward(self, x):
        return torch.sigmoid(self.head(self.encoder(x)))


class DiceLoss(nn.Module):
    """Soft Dice loss, as in ivadomed.losses."""

    def __init__(self, smooth=1.0):
        super().__init__()
        self.smooth = smooth

    def forward(self, prediction, target):
        iflat = prediction.reshape(-1)
        tflat = target.reshape(-1)
        intersection = (iflat * tflat).sum()
        return - (2.0 * intersection + self.smooth) / (iflat.sum() + tflat.sum() + self.smooth)
