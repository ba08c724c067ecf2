import math

import pytorch_lightning as pl
import torch
import torch.nn.functional as F
from torch import nn


class Conv1DClassifier(pl.LightningModule):
    def __init__(self, num_classes):
        super().__init__()
        out_channels, kernel_size, stride = 256, 64, 64
        n_layers = int(math.log2(out_channels))
        self.conv_layers = []
        for layer_idx in range(n_layers):
            self.conv_layers.append(
                nn.Conv1d(2 ** layer_idx, 2 ** (layer_idx + 1), kernel_size=kernel_size, stride=stride)
            )
        self.fc1 = nn.Linear(out_channels, 128)
        self.fc2 = nn.Linear(128, num_classes)

    def forward(self, x):
        for conv_layer in self.conv_layers:
            x = F.relu(conv_layer(x))
        x = x.flatten(1)
        return self.fc2(F.relu(self.fc1(x)))

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)
