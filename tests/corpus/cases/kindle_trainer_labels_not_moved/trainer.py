"""A small trainer that owns the model, the loss and the optimizer."""
from typing import Union

import torch
from torch import nn, optim
from torch.utils.data import DataLoader


class TorchTrainer:
    def __init__(self, model: nn.Module, criterion: nn.Module, optimizer: optim.Optimizer,
                 device: Union[str, torch.device] = "cpu") -> None:
        if isinstance(device, str):
            device = torch.device(device)
        self.model = model
        self.criterion = criterion
        self.optimizer = optimizer
        self.device = device

    def train(self, train_dataloader: DataLoader, n_epoch: int) -> float:
        correct, total = 0, 0
        for _ in range(n_epoch):
            for data, labels in train_dataloader:
                self.optimizer.zero_grad()
                model_out = self.model(data.to(self.device))
                loss = self.criterion(model_out, labels)
                loss.backward()
                self.optimizer.step()
                _, predicted = torch.max(model_out, 1)
                total += labels.size(0)
                correct += (predicted == labels).sum().item()
        return correct / total
