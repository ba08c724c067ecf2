import torch

from ._utils import *
from ._trainers import SpectralTrainer


class SpectralNet:
    def __init__(
        self,
        n_clusters: int,
        is_sparse_graph: bool = False,
        spectral_hiddens: list = [1024, 1024, 512, 10],
        spectral_epochs: int = 30,
        spectral_lr: float = 1e-3,
        spectral_scale: float = 1.0,
        spectral_batch_size: int = 1024,
    ):
        self.n_clusters = n_clusters
        self.is_sparse_graph = is_sparse_graph
        self.spectral_hiddens = spectral_hiddens
        self.spectral_epochs = spectral_epochs
        self.spectral_lr = spectral_lr
        self.spectral_scale = spectral_scale
        self.spectral_batch_size = spectral_batch_size
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def fit(self, X: torch.Tensor, y: torch.Tensor = None):
        """Builds the nearest-neighbors index when the graph is sparse, then trains."""
        spectral_config = {
            "hiddens": self.spectral_hiddens,
            "epochs": self.spectral_epochs,
            "lr": self.spectral_lr,
            "scale": self.spectral_scale,
            "batch_size": self.spectral_batch_size,
        }

        is_sparse = self.is_sparse_graph
        if is_sparse:
            build_ann(X)

        self.spectral_trainer = SpectralTrainer(
            config=spectral_config, device=self.device, is_sparse=is_sparse
        )
        self.spec_net = self.spectral_trainer.train(X, y)
