"""Batching, padding, and related utilities.

Anything which has a tensor member should inherit from nn.Module, run the
superclass constructor, and register the tensor as a buffer. This enables the
Trainer to move them to the appropriate device."""

from typing import List, Optional

import torch
from torch import nn


class PaddedTensor(nn.Module):
    """A tensor and its mask."""

    padded: torch.Tensor
    mask: torch.Tensor

    def __init__(self, tensorlist: List[torch.Tensor], pad_idx: int, pad_len: Optional[int] = None):
        super().__init__()
        if pad_len is None:
            pad_len = max(len(tensor) for tensor in tensorlist)
        self.register_buffer(
            "padded",
            torch.stack(
                [
                    self.pad_tensor(tensor, pad_idx, pad_len)
                    for tensor in tensorlist
                ],
            ),
        )
        self.register_buffer("mask", self.padded == pad_idx)

    @staticmethod
    def pad_tensor(tensor: torch.Tensor, pad_idx: int, pad_max: int) -> torch.Tensor:
        padding = pad_max - len(tensor)
        return nn.functional.pad(tensor, (0, padding), "constant", pad_idx)

    def __len__(self) -> int:
        return len(self.padded)


class PaddedBatch(nn.Module):
    """Padded source tensor, with an optional padded target tensor.

    This represents a padded batch. It is produced by the collator and fed to
    the trainer."""

    source: PaddedTensor
    target: Optional[PaddedTensor]

    def __init__(self, source, target=None):
        super().__init__()
        self.register_module("source", source)
        self.register_module("target", target)

    def __len__(self) -> int:
        return len(self.source)
