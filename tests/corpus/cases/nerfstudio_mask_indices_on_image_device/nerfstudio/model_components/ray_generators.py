"""Generates rays for the sampled pixels."""
import torch
from torch import nn


class RayGenerator(nn.Module):
    def __init__(self, camera_to_worlds: torch.Tensor, height: int, width: int) -> None:
        super().__init__()
        self.register_buffer("camera_to_worlds", camera_to_worlds)
        yy, xx = torch.meshgrid(torch.arange(height), torch.arange(width), indexing="ij")
        self.image_coords = nn.Parameter(torch.stack([yy, xx], dim=-1).float() + 0.5, requires_grad=False)

    def forward(self, ray_indices: torch.Tensor):
        c = ray_indices[:, 0]  # camera indices
        y = ray_indices[:, 1]  # row indices
        x = ray_indices[:, 2]  # col indices
        coords = self.image_coords[y, x]
        origins = self.camera_to_worlds[c, :3, 3]
        return origins, coords
