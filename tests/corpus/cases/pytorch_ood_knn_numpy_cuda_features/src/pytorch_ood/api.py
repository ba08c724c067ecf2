from abc import ABC, abstractmethod
from typing import TypeVar

from torch import Tensor
from torch.utils.data import DataLoader

Self = TypeVar("Self")


class RequiresFittingException(Exception):
    """Raised when predict is called on a detector that was not fitted."""


class ModelNotSetException(ValueError):
    """Raised when predict is called on a detector without a model."""


class Detector(ABC):
    """Abstract base class for an Out-of-Distribution detector."""

    def __call__(self, *args, **kwargs) -> Tensor:
        """Forwards to predict."""
        return self.predict(*args, **kwargs)

    @abstractmethod
    def fit(self: Self, data_loader: DataLoader) -> Self:
        """Fits the detector to a dataset."""

    @abstractmethod
    def fit_features(self: Self, x: Tensor, y: Tensor) -> Self:
        """Fits the detector to features."""

    @abstractmethod
    def predict(self, x: Tensor) -> Tensor:
        """Outlier scores of inputs; they are passed through the model."""

    @abstractmethod
    def predict_features(self, x: Tensor) -> Tensor:
        """Outlier scores of features."""
