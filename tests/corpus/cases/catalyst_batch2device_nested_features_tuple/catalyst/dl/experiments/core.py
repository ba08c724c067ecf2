from abc import abstractmethod, ABC
from typing import Mapping, Any

import torch
from torch import nn


class Runner(ABC):

    def __init__(
        self,
        model: nn.Module = None,
        device=None,
    ):
        # main
        self.model: nn.Module = model
        self.device = device
        self.input = None
        self.output = None

    def _batch2device(self, batch: Mapping[str, Any], device):
        res = {
            key: value.to(device) if torch.is_tensor(value) else value
            for key, value in batch.items()
        }
        return res

    @abstractmethod
    def predict_batch(self, batch: Mapping[str, Any]) -> Mapping[str, Any]:
        pass

    def _run_batch(self, batch):
        batch = self._batch2device(batch, self.device)
        self.input = batch
        self.output = self.predict_batch(batch)

    def _run_loader(self, loader):
        outputs = []
        for i, batch in enumerate(loader):
            batch = self._batch2device(batch, self.device)
            self._run_batch(batch)
            outputs.append(self.output)
        return outputs
