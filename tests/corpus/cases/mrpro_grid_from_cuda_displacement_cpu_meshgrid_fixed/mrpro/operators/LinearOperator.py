"""Linear operator base class (mrpro/operators/LinearOperator.py and Operator.py, trimmed)."""

from abc import ABC, abstractmethod

import torch


class Operator(torch.nn.Module, ABC):
    """The general operator class: a module whose forward returns a tuple of tensors."""

    @abstractmethod
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        """Apply forward operator."""


class LinearOperator(Operator):
    """General linear operator."""

    @abstractmethod
    def adjoint(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        """Adjoint of the operator."""
