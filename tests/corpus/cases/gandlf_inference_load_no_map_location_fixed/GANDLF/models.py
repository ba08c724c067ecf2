import torch.nn as nn


class unet(nn.Module):
    """Small stand-in for GaNDLF's 3D U-Net (same constructor signature)."""

    def __init__(self, parameters):
        super(unet, self).__init__()
        n_channels = parameters["model"]["num_channels"]
        n_classes = len(parameters["model"]["class_list"])
        base = parameters["model"]["base_filters"]
        self.enc = nn.Sequential(nn.Conv3d(n_channels, base, 3, padding=1), nn.InstanceNorm3d(base), nn.LeakyReLU())
        self.dec = nn.Conv3d(base, n_classes, 1)

    def forward(self, x):
        return self.dec(self.enc(x)).softmax(dim=1)


global_models_dict = {"unet": unet}
