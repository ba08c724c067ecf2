import os

import torch
import torch.nn.functional as F
from torch import nn


def posemb_sincos_2d(h, w, dim, temperature: int = 10000, dtype=torch.float32):
    y, x = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    omega = torch.arange(dim // 4) / (dim // 4 - 1)
    omega = 1.0 / (temperature**omega)
    y = y.flatten()[:, None] * omega[None, :]
    x = x.flatten()[:, None] * omega[None, :]
    pe = torch.cat((x.sin(), x.cos(), y.sin(), y.cos()), dim=1)
    return pe.type(dtype)


def posemb_sincos_1d(length, dim, temperature: int = 10000, dtype=torch.float32):
    position = torch.arange(length)
    omega = torch.arange(dim // 2) / (dim // 2 - 1)
    omega = 1.0 / (temperature**omega)
    scaled_pos = position[:, None] * omega[None, :]
    pe = torch.cat((scaled_pos.sin(), scaled_pos.cos()), dim=1)
    return pe.type(dtype)


class Encoder(nn.Module):
    def __init__(self, image_size, patch_size, dim, band_groups, device):
        super().__init__()
        self.device = device
        self.patch_size = patch_size
        self.num_group_patches = len(band_groups)
        self.patch_embedding = nn.Linear(patch_size * patch_size, dim)

        # Split the embedding dimensions between spatial & band patches equally
        pos_dim = band_dim = dim // 2

        # Fix the position & band embedding to sine & cosine functions
        self.pos_encoding = posemb_sincos_2d(
            h=image_size // patch_size, w=image_size // patch_size, dim=pos_dim
        )  # [L D/2]
        self.band_encoding = posemb_sincos_1d(
            length=self.num_group_patches, dim=band_dim
        )  # [G D/2]

        # Freeze the weights of position & band encoding
        self.pos_encoding = self.pos_encoding.to(self.device).requires_grad_(False)
        self.band_encoding = self.band_encoding.to(self.device).requires_grad_(False)

    def add_encodings(self, patches):
        B, G, L, D = patches.shape
        pos_encoding = self.pos_encoding[None, None].expand(1, G, L, D // 2)  # [1 G L D/2]
        band_encoding = self.band_encoding[None, :, None].expand(1, G, L, D // 2)  # [1 G L D/2]
        pos_band_encoding = torch.cat((pos_encoding, band_encoding), dim=-1)  # [1 G L D]
        return patches + pos_band_encoding  # [B G L D] + [1 G L D] - broadcasting

    def forward(self, cube):
        patches = self.patch_embedding(cube)  # [B G L D]
        return self.add_encodings(patches)


class CLAY(nn.Module):
    def __init__(self, image_size=32, patch_size=4, dim=64, band_groups=("rgb", "nir", "sar")):
        super().__init__()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        print("Device", device)
        self.encoder = Encoder(image_size, patch_size, dim, band_groups, device=device)
        self.to_pixels = nn.Linear(dim, patch_size * patch_size)

    def forward(self, cube):
        return self.to_pixels(self.encoder(cube))


if __name__ == "__main__":
    # One process per GPU (torchrun, or Lightning's DDP strategy with devices > 1):
    # each replica is moved to the GPU of its local rank.
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    device = torch.device(f"cuda:{local_rank}")
    model = CLAY()
    model.to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(10):
        cube = torch.randn(8, 3, 64, 16, device=device)  # [B G L patch*patch]
        loss = F.mse_loss(model(cube), cube)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
