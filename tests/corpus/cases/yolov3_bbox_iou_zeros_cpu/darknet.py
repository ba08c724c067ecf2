import torch
import torch.nn as nn


class Darknet(nn.Module):
    """A tiny stand-in for the YOLOv3 network: one detection layer over a conv trunk."""

    def __init__(self, num_classes=80, num_anchors=3):
        super(Darknet, self).__init__()
        self.num_classes = num_classes
        self.num_anchors = num_anchors
        self.trunk = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.LeakyReLU(0.1),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.LeakyReLU(0.1),
        )
        self.head = nn.Conv2d(32, num_anchors * (5 + num_classes), 1)

    def forward(self, x, CUDA=True):
        out = self.head(self.trunk(x))
        batch_size, _, grid_h, grid_w = out.shape
        # (B, A*(5+C), H, W) -> (B, H*W*A, 5+C): x, y, w, h, objectness, class scores
        out = out.view(batch_size, self.num_anchors, 5 + self.num_classes, grid_h * grid_w)
        out = out.permute(0, 3, 1, 2).reshape(batch_size, -1, 5 + self.num_classes)
        return torch.sigmoid(out) * 416
