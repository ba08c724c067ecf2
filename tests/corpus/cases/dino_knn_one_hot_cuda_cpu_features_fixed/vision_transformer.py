"""Stand-in for DINO's ViT: patch embedding, then the [CLS]-like mean token
(num_classes=0: the backbone returns the features)."""
import torch
import torch.nn as nn


class VisionTransformer(nn.Module):
    def __init__(self, patch_size=16, embed_dim=384, num_classes=0):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=patch_size, stride=patch_size)
        self.norm = nn.LayerNorm(embed_dim)
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        x = self.norm(x.mean(1))
        return self.head(x)


def vit_small(patch_size=16, **kwargs):
    return VisionTransformer(patch_size=patch_size, embed_dim=384, **kwargs)
