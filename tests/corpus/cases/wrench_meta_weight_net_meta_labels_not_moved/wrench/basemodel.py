from abc import ABC
from typing import Optional

import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader

from . import backbone
from .dataset import BaseDataset, TorchDataset


class BaseTorchClassModel(ABC):
    """The parts of WRENCH's BaseTorchClassModel that MetaWeightNet.fit uses."""

    def _init_model(self, dataset: BaseDataset, n_class: int, config: dict, is_bert: Optional[bool] = False) -> nn.Module:
        input_size = dataset.features.shape[1]
        model = getattr(backbone, config['backbone'])(
            input_size=input_size,
            n_class=n_class,
            binary_mode=config['binary_mode'],
        )
        return model

    def _init_train_dataloader(self, dataset_train: BaseDataset, n_steps: int, config: dict) -> DataLoader:
        torch_dataset = TorchDataset(dataset_train, n_data=n_steps * config['batch_size'])
        train_dataloader = DataLoader(torch_dataset, batch_size=config['real_batch_size'], shuffle=True)
        return train_dataloader

    def _init_optimizer_and_lr_scheduler(self, model: nn.Module, optimizer_config: dict):
        parameters = filter(lambda p: p.requires_grad, model.parameters())
        optimizer_ = getattr(optim, optimizer_config['name'])(parameters, **optimizer_config['paras'])
        return optimizer_, None
