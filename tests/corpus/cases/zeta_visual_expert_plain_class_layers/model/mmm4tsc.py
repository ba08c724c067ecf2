import torch
from torch import nn

from zeta.nn.modules.visual_expert import VisualExpert


class MMM4TSC(nn.Module):
    """The reporter's multimodal time-series classifier: a series encoder and an image-feature encoder,
    fused by zeta's VisualExpert, then a classification head."""

    def __init__(self, series_dim, image_dim, dim=64, num_classes=3):
        super().__init__()
        self.series_proj = nn.Linear(series_dim, dim)
        self.image_proj = nn.Linear(image_dim, dim)
        self.visual_expert = VisualExpert(dim, 2 * dim, 0.1, 4)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, series, image_feats):
        concat = torch.cat((self.series_proj(series), self.image_proj(image_feats)), dim=1)
        fused = self.visual_expert(concat)
        return self.head(fused.mean(dim=1))
