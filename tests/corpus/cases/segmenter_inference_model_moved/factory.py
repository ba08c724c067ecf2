from pathlib import Path

import torch
import yaml
from torch import nn

import ptu


class Segmenter(nn.Module):
    def __init__(self, n_cls, d_model=192, patch_size=16):
        super().__init__()
        self.n_cls = n_cls
        self.patch_size = patch_size
        self.encoder = nn.Conv2d(3, d_model, patch_size, stride=patch_size)
        self.decoder = nn.Conv2d(d_model, n_cls, 1)

    def forward(self, im):
        masks = self.decoder(self.encoder(im))
        return nn.functional.interpolate(masks, size=im.shape[2:], mode="bilinear")


def load_model(model_path):
    with open(Path(model_path).parent / "variant.yml", "r") as f:
        variant = yaml.load(f, Loader=yaml.FullLoader)
    model = Segmenter(**variant["net_kwargs"])
    data = torch.load(model_path, map_location=ptu.device)
    model.load_state_dict(data["model"], strict=True)
    return model, variant
