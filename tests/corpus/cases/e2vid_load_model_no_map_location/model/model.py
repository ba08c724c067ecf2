import torch
import torch.nn as nn


class E2VIDRecurrent(nn.Module):
    """Reconstructs an intensity image from a voxel grid of events (a small stand-in for the U-Net)."""

    def __init__(self, config):
        super().__init__()
        self.num_bins = int(config['num_bins'])
        self.head = nn.Conv2d(self.num_bins, 32, kernel_size=5, padding=2)
        self.pred = nn.Conv2d(32, 1, kernel_size=1)

    def forward(self, event_tensor, prev_states=None):
        img = torch.sigmoid(self.pred(torch.relu(self.head(event_tensor))))
        return img, prev_states
