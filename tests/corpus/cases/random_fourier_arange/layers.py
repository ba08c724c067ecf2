import numpy as np
import torch
from torch import nn


class PositionalEncoding(nn.Module):
    """Fourier features of the input coordinates at log-spaced frequencies."""

    def __init__(self, sigma, m):
        super().__init__()
        self.sigma = sigma
        self.m = m

    def forward(self, v):
        j = torch.arange(self.m)
        coeffs = 2 * np.pi * self.sigma ** (j / self.m)
        vp = coeffs * torch.unsqueeze(v, -1)
        vp_cat = torch.cat((torch.cos(vp), torch.sin(vp)), dim=-1)
        return vp_cat.flatten(-2, -1)


if __name__ == "__main__":
    encoder = PositionalEncoding(sigma=1.0, m=10).cuda()
    coords = torch.rand(256, 2, device="cuda")
    print(encoder(coords).shape)
