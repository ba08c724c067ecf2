"""Loss functions for use in graphnet training (reduced)."""
from abc import abstractmethod

import numpy as np
import torch
from torch import Tensor
from torch.nn import Module
from torch.nn.functional import cross_entropy, one_hot


class LossFunction(Module):
    """Base class for loss functions in graphnet."""

    def forward(self, prediction: Tensor, target: Tensor, weights=None, return_elements: bool = False) -> Tensor:
        elements = self._forward(prediction, target)
        if weights is not None:
            elements = elements * weights
        assert elements.size(dim=0) == target.size(dim=0), "`_forward` should return elementwise loss terms."
        return elements if return_elements else torch.mean(elements)

    @abstractmethod
    def _forward(self, prediction: Tensor, target: Tensor) -> Tensor:
        """Syntax like `.forward`, for implentation in inheriting classes."""


class MultiClassificationCrossEntropyLoss(LossFunction):
    """Computes cross entropy for a matrix [num_class, N] of predictions; targets are particle ids:
    noise (1, -1), muon (13, -13) and neutrino (12, -12, 14, -14, 16, -16)."""

    def _forward(self, prediction: Tensor, target: Tensor) -> Tensor:
        pid_transform = {1: 0, 12: 2, 13: 1, 14: 2, 16: 2}
        target_new = one_hot(torch.tensor([pid_transform[np.abs(int(value))] for value in target], device=target.device), 3)
        return cross_entropy(prediction.float(), target_new.float(), reduction="none")
