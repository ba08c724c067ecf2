import torch.nn as nn
import torch.nn.functional as F


class ERM(nn.Module):
    """Empirical risk minimisation: backbone features, a linear classification head."""

    def __init__(self, backbone, num_classes=2, in_channels=32):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Linear(in_channels, num_classes)

    def forward_train(self, input, gt_label):
        feats = self.backbone(input)
        logits = self.head(feats)
        return dict(loss=F.cross_entropy(logits, gt_label))

    def forward(self, input, gt_label=None, return_loss=True):
        if return_loss:
            return self.forward_train(input, gt_label)
        return self.head(self.backbone(input))

    def train_step(self, data_batch, optimizer):
        losses = self(**data_batch)
        return dict(loss=losses['loss'], num_samples=len(data_batch['gt_label']))
