from typing import Callable, TypeVar

from torch import Tensor, tensor
from torch.utils.data import DataLoader

from ..api import Detector, ModelNotSetException, RequiresFittingException
from ..utils import extract_features, is_known

Self = TypeVar("Self")


class KNN(Detector):
    """Deep Nearest Neighbors: the distance of a sample's features to the nearest
    IN training feature is its outlier score."""

    def __init__(self, model: Callable[[Tensor], Tensor], **knn_kwargs):
        self.model = model
        self._is_fitted = False

        try:
            from sklearn.neighbors import NearestNeighbors
        except ImportError:
            raise Exception("You have to install scikit-learn to use this detector")

        self.knn: NearestNeighbors = NearestNeighbors(n_neighbors=1, n_jobs=-1, **knn_kwargs)

    def predict(self, x: Tensor) -> Tensor:
        """
        :param x: inputs, will be passed through model
        """
        if not self.model:
            raise ModelNotSetException()

        z = self.model(x)
        return self.predict_features(z)

    def predict_features(self, z: Tensor) -> Tensor:
        if not self._is_fitted:
            raise RequiresFittingException()

        dist, idx = self.knn.kneighbors(z.detach().numpy(), n_neighbors=1, return_distance=True)

        return tensor(dist)

    def fit_features(self: Self, z: Tensor, labels: Tensor) -> Self:
        known = is_known(labels)
        if not known.any():
            raise ValueError("No IN samples")

        self.knn.fit(z[known].numpy())
        self._is_fitted = True
        return self

    def fit(self: Self, loader: DataLoader, device: str = "cpu") -> Self:
        """Extracts features (on `device`) and fits the kNN model."""
        z, y = extract_features(model=self.model, data_loader=loader, device=device)
        return self.fit_features(z, y)
