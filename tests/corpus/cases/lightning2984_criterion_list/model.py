import pytorch_lightning as pl
import torch
from torch import nn


class PlateReader(pl.LightningModule):
    """Reads a fixed-length plate: one classifier head per character position."""

    def __init__(self, alphabet_size, letter_weights_per_position):
        super().__init__()
        self.backbone = nn.Sequential(nn.Flatten(), nn.LazyLinear(512), nn.ReLU())
        self.heads = nn.ModuleList(nn.Linear(512, alphabet_size) for _ in letter_weights_per_position)
        self.criterions = []
        for weight in letter_weights_per_position:
            self.criterions.append(nn.CrossEntropyLoss(weight=torch.as_tensor(weight)))

    def forward(self, images):
        features = self.backbone(images)
        return torch.stack([head(features) for head in self.heads], dim=1)

    def validation_step(self, batch, batch_idx):
        images, targets = batch
        out = self(images)
        loss0 = self.criterions[0](out[:, 0, :], targets[:, 0])
        loss1 = self.criterions[1](out[:, 1, :], targets[:, 1])
        self.log("val_loss", loss0 + loss1)
