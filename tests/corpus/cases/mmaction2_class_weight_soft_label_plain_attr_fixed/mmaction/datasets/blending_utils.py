import torch
import torch.nn.functional as F
from torch.distributions.beta import Beta

from ..registry import Registry

BLENDINGS = Registry('blending')


@BLENDINGS.register_module()
class MixupBlending:
    """mixup: blends each clip with another clip of the batch; the hard labels
    (B, 1) become soft labels (B, 1, num_classes)."""

    def __init__(self, num_classes, alpha=.2):
        self.num_classes = num_classes
        self.beta = Beta(alpha, alpha)

    def __call__(self, imgs, label):
        one_hot_label = F.one_hot(label, num_classes=self.num_classes)
        lam = self.beta.sample()
        rand_index = torch.randperm(imgs.size(0))
        mixed_imgs = lam * imgs + (1 - lam) * imgs[rand_index, :]
        mixed_label = lam * one_hot_label + (1 - lam) * one_hot_label[rand_index, :]
        return mixed_imgs, mixed_label
