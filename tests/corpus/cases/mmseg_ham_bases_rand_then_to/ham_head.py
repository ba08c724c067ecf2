import torch
import torch.nn.functional as F
from torch import nn


class NMF2D(nn.Module):
    """Matrix decomposition used by the Hamburger head; bases are re-drawn on every call."""

    def __init__(self, S=1, D=512, R=64, steps=6):
        super().__init__()
        self.S, self.D, self.R, self.steps = S, D, R, steps

    def _build_bases(self, B, S, D, R, device):
        bases = torch.rand((B * S, D, R)).to(device)
        return F.normalize(bases, dim=1)

    def forward(self, x):
        B, C, H, W = x.shape
        D = C // self.S
        x = x.view(B * self.S, D, H * W)
        bases = self._build_bases(B, self.S, D, self.R, device=x.device)
        coef = torch.softmax(torch.bmm(x.transpose(1, 2), bases), dim=-1)
        for _ in range(self.steps):
            coef = coef * torch.bmm(x.transpose(1, 2), bases) / (torch.bmm(coef, torch.bmm(bases.transpose(1, 2), bases)) + 1e-6)
        return torch.bmm(bases, coef.transpose(1, 2)).view(B, C, H, W)
