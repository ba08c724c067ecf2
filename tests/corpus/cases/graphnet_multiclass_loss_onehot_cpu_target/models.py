from typing import List

import torch
from torch import Tensor
from torch.nn import Linear, Module, ModuleList, ReLU, Sequential

from loss_functions import LossFunction


class MulticlassClassificationTask(Module):
    """General task for classifying any number of classes."""

    def __init__(self, hidden_size: int, target_labels: str, loss_function: LossFunction, nb_outputs: int = 3):
        super().__init__()
        self._target_labels = target_labels
        self._loss_function = loss_function
        self._affine = Linear(hidden_size, nb_outputs)

    def forward(self, x: Tensor) -> Tensor:
        return torch.softmax(self._affine(x), dim=-1)

    def compute_loss(self, pred: Tensor, data: dict) -> Tensor:
        target = data[self._target_labels]
        return self._loss_function(pred, target)


class StandardModel(Module):
    """Main class for standard models in graphnet: a backbone (DynEdge, here an MLP) and tasks."""

    def __init__(self, nb_inputs: int, hidden_size: int, tasks: List[MulticlassClassificationTask]):
        super().__init__()
        self._gnn = Sequential(Linear(nb_inputs, hidden_size), ReLU(), Linear(hidden_size, hidden_size))
        self._tasks = ModuleList(tasks)

    def forward(self, data: dict) -> List[Tensor]:
        x = self._gnn(data["x"])
        return [task(x) for task in self._tasks]

    def compute_loss(self, preds: List[Tensor], data: dict) -> Tensor:
        losses = [task.compute_loss(pred, data) for task, pred in zip(self._tasks, preds)]
        return torch.sum(torch.stack(losses))
