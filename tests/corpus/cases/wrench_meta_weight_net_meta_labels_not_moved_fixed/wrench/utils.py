from typing import Optional

import torch
import torch.nn.functional as F


def cross_entropy_with_probs(
        input: torch.Tensor,
        target: torch.Tensor,
        weight: Optional[torch.Tensor] = None,
        reduction: str = "mean",
) -> torch.Tensor:
    """Cross-entropy that takes hard labels (1-D) or soft labels ([N, C] probabilities)."""
    if input.shape[1] == 1:  # binary mode: one logit per example
        if target.ndim == 2:
            target = target[:, 1]
        return F.binary_cross_entropy_with_logits(input.squeeze(), target, weight=weight, reduction=reduction)

    if target.ndim == 1:  # hard labels
        return F.cross_entropy(input, target.long(), weight=weight, reduction=reduction)

    # soft labels: expected cross-entropy under the label distribution
    log_probs = F.log_softmax(input, dim=1)
    if weight is not None:
        log_probs = log_probs * weight
    losses = -(target.float() * log_probs).sum(1)
    if reduction == "none":
        return losses
    if reduction == "mean":
        return losses.mean()
    if reduction == "sum":
        return losses.sum()
    raise ValueError("Keyword 'reduction' must be one of ['none', 'mean', 'sum']")
