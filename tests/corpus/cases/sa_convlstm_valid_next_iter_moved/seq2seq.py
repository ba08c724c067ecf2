import torch
from torch import nn


class Seq2Seq(nn.Module):
    """Frame predictor: a conv encoder over each frame, a conv head for the next frame."""

    def __init__(self, num_channels=1, num_kernels=16, kernel_size=3, out_channels=1):
        super().__init__()
        self.encoder = nn.Conv2d(num_channels, num_kernels, kernel_size, padding="same")
        self.head = nn.Conv2d(num_kernels, out_channels, kernel_size, padding="same")

    def forward(self, x):  # (B, C, T, H, W) -> (B, C, 1, H, W)
        frames = [torch.relu(self.encoder(x[:, :, t])) for t in range(x.size(2))]
        return torch.sigmoid(self.head(frames[-1])).unsqueeze(2)
