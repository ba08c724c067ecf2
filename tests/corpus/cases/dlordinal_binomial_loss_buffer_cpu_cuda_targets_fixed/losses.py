import torch
from torch import Tensor
from torch.nn import Module
from torch.nn.functional import one_hot

from distributions import get_binomial_soft_labels


class CustomTargetsLoss(Module):
    """Base class to implement a unimodal regularised loss: the base loss gets soft targets."""

    def __init__(self, base_loss: Module, cls_probs: Tensor, eta: float = 1.0):
        super().__init__()
        self.base_loss = base_loss
        self.num_classes = cls_probs.size(0)
        self.eta = eta
        self.register_buffer("cls_probs", cls_probs.float())

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        y_prob = self.get_buffer("cls_probs")[target]
        target_oh = one_hot(target, self.num_classes)
        y_true = (1.0 - self.eta) * target_oh + self.eta * y_prob
        return self.base_loss(input, y_true)


class BinomialLoss(CustomTargetsLoss):
    """Binomial unimodal regularised loss."""

    def __init__(self, base_loss: Module, num_classes: int, eta: float = 1.0):
        # Precompute class probabilities for each label
        cls_probs = torch.tensor(get_binomial_soft_labels(num_classes)).float()
        super().__init__(base_loss=base_loss, cls_probs=cls_probs, eta=eta)
