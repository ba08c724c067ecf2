import torch
import torch.nn as nn
import torch.nn.functional as F


class DeepLab(nn.Module):
    """Stand-in for DeepLabV3+ (backbone, ASPP and decoder reduced to three convolutions)."""

    def __init__(self, backbone='resnet', output_stride=16, num_classes=21,
                 sync_bn=True, freeze_bn=False, dropout_low=0.1, dropout_high=0.5):
        super(DeepLab, self).__init__()
        self.backbone = nn.Conv2d(4, 16, kernel_size=3, stride=2, padding=1)
        self.aspp = nn.Sequential(nn.Conv2d(16, 16, kernel_size=3, padding=1), nn.Dropout(dropout_high))
        self.decoder = nn.Sequential(nn.Dropout(dropout_low), nn.Conv2d(16, num_classes, kernel_size=1))

    def forward(self, input):
        x = F.relu(self.backbone(input))
        x = self.decoder(F.relu(self.aspp(x)))
        return F.interpolate(x, size=input.size()[2:], mode='bilinear', align_corners=True)

    def get_1x_lr_params(self):
        return self.backbone.parameters()

    def get_10x_lr_params(self):
        return list(self.aspp.parameters()) + list(self.decoder.parameters())
