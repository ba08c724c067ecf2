# coding: utf-8
"""
Module to implement training loss (reduced: no label smoothing)
"""
from torch import nn, Tensor


class XentLoss(nn.Module):
    """
    Cross-Entropy Loss with optional label smoothing
    """

    def __init__(self, pad_index: int, smoothing: float = 0.0):
        super().__init__()
        self.smoothing = smoothing
        self.pad_index = pad_index
        self.criterion = nn.NLLLoss(ignore_index=self.pad_index, reduction='sum')

    def forward(self, log_probs: Tensor, targets: Tensor) -> Tensor:
        targets = targets.contiguous().view(-1)
        return self.criterion(log_probs.contiguous().view(-1, log_probs.size(-1)), targets)
