import torch
import torch.nn as nn

from positional_encodings import PositionalEncoding3D, Summer


class PatchEmbed3D(nn.Module):
    """Volume to (B, D, H, W, C) patch tokens."""

    def __init__(self, in_chans=1, embed_dim=24, patch_size=4):
        super().__init__()
        self.proj = nn.Conv3d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)

    def forward(self, x):
        return self.proj(x).permute(0, 2, 3, 4, 1)


class VolumeTransformer(nn.Module):
    def __init__(self, in_chans=1, embed_dim=24, num_classes=3):
        super().__init__()
        self.patch_embed = PatchEmbed3D(in_chans, embed_dim)
        self.pos_enc = Summer(PositionalEncoding3D(embed_dim))
        self.block = nn.Sequential(nn.LayerNorm(embed_dim), nn.Linear(embed_dim, embed_dim), nn.GELU())
        self.head = nn.Linear(embed_dim, num_classes)

    def forward(self, x):
        tokens = self.pos_enc(self.patch_embed(x))
        tokens = tokens + self.block(tokens)
        return self.head(tokens.mean(dim=(1, 2, 3)))
