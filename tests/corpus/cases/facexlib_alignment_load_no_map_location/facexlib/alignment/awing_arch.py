import cv2
import numpy as np
import torch
import torch.nn as nn


class FAN(nn.Module):
    """Adaptive-wing face alignment network (hourglass stack reduced to one conv body here)."""

    def __init__(self, num_modules=1, end_relu=False, gray_scale=False, num_landmarks=68, device="cuda"):
        super(FAN, self).__init__()
        self.device = device
        self.num_modules = num_modules
        self.num_landmarks = num_landmarks
        self.body = nn.Sequential(nn.Conv2d(3, 64, 7, stride=2, padding=3), nn.ReLU(), nn.Conv2d(64, num_landmarks, 1))

    def forward(self, x):
        return [self.body(x)]

    def get_landmarks(self, img):
        img = cv2.resize(img, (256, 256))
        inp = torch.from_numpy(img.transpose((2, 0, 1))).float().div(255.0).unsqueeze(0).to(self.device)
        heatmap = self.forward(inp)[-1][0].detach().cpu().numpy()
        flat = heatmap.reshape(self.num_landmarks, -1).argmax(-1)
        return np.stack([flat % heatmap.shape[-1], flat // heatmap.shape[-1]], -1) * 4.0
