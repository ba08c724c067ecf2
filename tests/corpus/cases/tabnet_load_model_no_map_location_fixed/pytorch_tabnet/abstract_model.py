from dataclasses import dataclass, field
from typing import List, Any, Dict
import torch
import numpy as np
from abc import abstractmethod
from pytorch_tabnet import tab_network
from torch.utils.data import DataLoader, TensorDataset
import io
import json
from pathlib import Path
import shutil
import zipfile


@dataclass
class TabModel:
    """ Class for TabNet model

    Parameters
    ----------
        device_name: str
            'cuda' if running on GPU, 'cpu' if not, 'auto' to autodetect
    """

    n_d: int = 8
    n_a: int = 8
    n_steps: int = 3
    gamma: float = 1.3
    cat_idxs: List[int] = field(default_factory=list)
    cat_dims: List[int] = field(default_factory=list)
    cat_emb_dim: int = 1
    n_independent: int = 2
    n_shared: int = 2
    epsilon: float = 1e-15
    momentum: float = 0.02
    lambda_sparse: float = 1e-3
    seed: int = 0
    verbose: int = 1
    optimizer_params: Dict = field(default_factory=lambda: dict(lr=2e-2))
    mask_type: str = "sparsemax"
    input_dim: int = None
    output_dim: int = None
    device_name: str = "auto"

    def __post_init__(self):
        self.virtual_batch_size = 1024
        torch.manual_seed(self.seed)
        # Defining device
        if self.device_name == "auto":
            if torch.cuda.is_available():
                device_name = "cuda"
            else:
                device_name = "cpu"
        else:
            device_name = self.device_name
        self.device = torch.device(device_name)
        print(f"Device used : {self.device}")

    def get_params(self):
        return {key: getattr(self, key) for key in self.__dataclass_fields__}

    def _set_network(self):
        self.network = tab_network.TabNet(
            self.input_dim,
            self.output_dim,
            n_d=self.n_d,
            n_a=self.n_a,
            n_steps=self.n_steps,
            gamma=self.gamma,
            cat_idxs=self.cat_idxs,
            cat_dims=self.cat_dims,
            cat_emb_dim=self.cat_emb_dim,
            n_independent=self.n_independent,
            n_shared=self.n_shared,
            epsilon=self.epsilon,
            virtual_batch_size=self.virtual_batch_size,
            momentum=self.momentum,
            device_name=self.device_name,
            mask_type=self.mask_type,
        ).to(self.device)

    def fit(self, X_train, y_train, max_epochs=5, batch_size=64):
        """Train a neural network stored in self.network"""
        self.input_dim = X_train.shape[1]
        self.output_dim = int(y_train.max()) + 1
        train_dataloader = DataLoader(
            TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train)), batch_size=batch_size, shuffle=True
        )
        self._set_network()
        self._optimizer = torch.optim.Adam(self.network.parameters(), **self.optimizer_params)
        for epoch_idx in range(max_epochs):
            self._train_epoch(train_dataloader)
        self.network.eval()

    def save_model(self, path):
        """
        Saving model with two distinct files.
        """
        saved_params = {}
        for key, val in self.get_params().items():
            if isinstance(val, type):
                # Don't save torch specific params
                continue
            else:
                saved_params[key] = val

        # Create folder
        Path(path).mkdir(parents=True, exist_ok=True)

        # Save models params
        with open(Path(path).joinpath("model_params.json"), "w", encoding="utf8") as f:
            json.dump(saved_params, f)

        # Save state_dict
        torch.save(self.network.state_dict(), Path(path).joinpath("network.pt"))
        shutil.make_archive(path, "zip", path)
        shutil.rmtree(path)
        print(f"Successfully saved model at {path}.zip")
        return f"{path}.zip"

    def load_model(self, filepath):

        try:
            with zipfile.ZipFile(filepath) as z:
                with z.open("model_params.json") as f:
                    loaded_params = json.load(f)
                with z.open("network.pt") as f:
                    try:
                        saved_state_dict = torch.load(f, map_location=self.device)
                    except io.UnsupportedOperation:
                        # In Python <3.7, the returned file object is not seekable (which at least
                        # some versions of PyTorch require) - so we'll try buffering it in to a
                        # BytesIO instead:
                        saved_state_dict = torch.load(io.BytesIO(f.read()), map_location=self.device)
        except KeyError:
            raise KeyError("Your zip file is missing at least one component")

        self.__init__(**loaded_params)

        self._set_network()
        self.network.load_state_dict(saved_state_dict)
        self.network.eval()
        return

    def _train_epoch(self, train_loader):
        self.network.train()
        for batch_idx, (X, y) in enumerate(train_loader):
            X = X.to(self.device).float()
            y = y.to(self.device)
            self._optimizer.zero_grad()
            output, M_loss = self.network(X)
            loss = self.compute_loss(output, y)
            # Add the overall sparsity loss
            loss -= self.lambda_sparse * M_loss
            loss.backward()
            self._optimizer.step()

    def predict(self, X):
        self.network.eval()
        results = []
        for data in DataLoader(torch.from_numpy(X), batch_size=1024, shuffle=False):
            data = data.to(self.device).float()
            output, M_loss = self.network(data)
            predictions = output.cpu().detach().numpy()
            results.append(predictions)
        return self.predict_func(np.vstack(results))

    @abstractmethod
    def compute_loss(self, y_score, y_true):
        raise NotImplementedError("users must define compute_loss to use this base class")
