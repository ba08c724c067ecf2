import torch
from torch.utils.data import DataLoader, TensorDataset

from remote_downsamplers.remote_rho_loss_downsampling import RemoteRHOLossDownsampling


class PytorchTrainer:
    def __init__(self, training_info: dict) -> None:
        self._device = training_info["device"]
        self._model = torch.nn.Sequential(
            torch.nn.Linear(training_info["in_features"], 32),
            torch.nn.ReLU(),
            torch.nn.Linear(32, training_info["num_classes"]),
        )
        self._model.to(self._device)
        self._optimizer = torch.optim.SGD(self._model.parameters(), lr=0.1)
        self._criterion = torch.nn.CrossEntropyLoss()
        per_sample_loss = torch.nn.CrossEntropyLoss(reduction="none")
        self._downsampler = RemoteRHOLossDownsampling(
            training_info["pipeline_id"],
            training_info["trigger_id"],
            training_info["batch_size"],
            {"downsampling_ratio": training_info["downsampling_ratio"]},
            {"in_features": training_info["in_features"], "num_classes": training_info["num_classes"]},
            per_sample_loss,
            self._device,
        )
        data = torch.randn(64, training_info["in_features"])
        labels = torch.randint(0, training_info["num_classes"], (64,))
        ids = torch.arange(64)
        self._train_dataloader = DataLoader(TensorDataset(ids, data, labels), batch_size=training_info["batch_size"])

    def _downsample_batch(self, sample_ids: list[int], data: torch.Tensor, target: torch.Tensor) -> list[int]:
        self._downsampler.init_downsampler()
        self._model.eval()
        with torch.no_grad():
            big_batch_output = self._model(data)
            self._downsampler.inform_samples(sample_ids, data, big_batch_output, target)
        self._model.train()
        selected_ids, _weights = self._downsampler.select_points()
        return selected_ids

    def train(self) -> None:
        for ids, data, target in self._train_dataloader:
            sample_ids = ids.tolist()
            data, target = data.to(self._device), target.to(self._device)
            selected = self._downsample_batch(sample_ids, data, target)
            keep = [sample_ids.index(i) for i in selected]
            data, target = data[keep], target[keep]
            self._optimizer.zero_grad()
            output = self._model(data)
            loss = self._criterion(output, target)
            loss.backward()
            self._optimizer.step()
