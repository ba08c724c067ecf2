"""Stand-ins for transformers' SiglipModel / SiglipProcessor (same calls, tiny weights)."""
import numpy as np
import torch
import torch.nn as nn


class BatchFeature(dict):
    def __getattr__(self, name):
        return self[name]

    def to(self, device):
        return BatchFeature({k: v.to(device) for k, v in self.items()})


class SiglipProcessor:
    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def __call__(self, images, return_tensors="pt"):
        arrays = [np.asarray(img, dtype=np.float32).transpose(2, 0, 1) / 255.0 for img in images]
        return BatchFeature(pixel_values=torch.from_numpy(np.stack(arrays)))


class SiglipModel(nn.Module):
    def __init__(self, patch_size=16, hidden_size=64, projection_dim=32):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden_size, kernel_size=patch_size, stride=patch_size)
        self.post_layernorm = nn.LayerNorm(hidden_size)
        self.visual_projection = nn.Linear(hidden_size, projection_dim)

    @classmethod
    def from_pretrained(cls, name):
        return cls()

    def get_image_features(self, pixel_values):
        patches = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        pooled = self.post_layernorm(patches).mean(dim=1)
        return self.visual_projection(pooled)
