import torch
import torch.optim as optim
from torch.utils.data import DataLoader, random_split, TensorDataset
from spectralnet._utils import *
from .._models import SpectralNetModel


class SpectralTrainer:
    def __init__(self, config: dict, device: torch.device, is_sparse: bool = False):
        """Trains the SpectralNet model on `device`; with `is_sparse` each batch is rebuilt
        from a fifth of a random batch and the nearest neighbors of its points."""
        self.device = device
        self.is_sparse = is_sparse
        self.spectral_config = config
        self.lr = self.spectral_config["lr"]
        self.epochs = self.spectral_config["epochs"]
        self.scale = self.spectral_config["scale"]
        self.architecture = self.spectral_config["hiddens"]
        self.batch_size = self.spectral_config["batch_size"]

    def train(self, X: torch.Tensor, y: torch.Tensor) -> SpectralNetModel:
        self.X = X.view(X.size(0), -1)
        self.y = y
        self.spectral_net = SpectralNetModel(
            self.architecture, input_dim=self.X.shape[1]
        ).to(self.device)

        self.optimizer = optim.Adam(self.spectral_net.parameters(), lr=self.lr)

        train_loader, ortho_loader = self._get_data_loader()

        for epoch in range(self.epochs):
            train_loss = 0.0
            for (X_grad, _), (X_orth, _) in zip(train_loader, ortho_loader):
                X_grad = X_grad.to(device=self.device)
                X_grad = X_grad.view(X_grad.size(0), -1)
                X_orth = X_orth.to(device=self.device)
                X_orth = X_orth.view(X_orth.size(0), -1)

                if self.is_sparse:
                    X_grad = make_batch_for_sparse_grapsh(X_grad)
                    X_orth = make_batch_for_sparse_grapsh(X_orth)

                # Orthogonalization step
                self.spectral_net.eval()
                self.spectral_net(X_orth, should_update_orth_weights=True)

                # Gradient step
                self.spectral_net.train()
                self.optimizer.zero_grad()

                Y = self.spectral_net(X_grad, should_update_orth_weights=False)
                W = get_affinity(X_grad, self.scale)
                loss = (W * torch.cdist(Y, Y) ** 2).sum() / (2 * Y.size(0))
                loss.backward()
                self.optimizer.step()
                train_loss += loss.item()

        return self.spectral_net

    def _get_data_loader(self) -> tuple:
        if self.y is None:
            self.y = torch.zeros(len(self.X))
        dataset = TensorDataset(self.X, self.y)
        train_loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        ortho_loader = DataLoader(dataset, batch_size=self.batch_size, shuffle=True)
        return train_loader, ortho_loader
