import logging
from typing import Any, Optional

import numpy as np
import torch
import torch.nn as nn

from .._higher import innerloop_ctx
from ..basemodel import BaseTorchClassModel
from ..dataset import sample_batch, BaseDataset
from ..utils import cross_entropy_with_probs

logger = logging.getLogger(__name__)


class VNet(nn.Module):
    def __init__(self, input_size, hidden_size, output_size=1):
        super(VNet, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.relu1 = nn.ReLU(inplace=True)
        self.linear2 = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        x = self.linear1(x)
        x = self.relu1(x)
        out = self.linear2(x)
        return torch.sigmoid(out)


class MetaWeightNet(BaseTorchClassModel):
    def __init__(self,
                 hidden_size: Optional[int] = 100,
                 batch_size: Optional[int] = 16,
                 n_steps: Optional[int] = 10000,
                 binary_mode: Optional[bool] = False,
                 backbone: Optional[str] = 'MLP',
                 optimizer: Optional[str] = 'SGD',
                 optimizer_lr: Optional[float] = 1e-1,
                 v_net_optimizer: Optional[str] = 'Adam',
                 v_net_optimizer_lr: Optional[float] = 1e-3,
                 **kwargs: Any
                 ):
        super().__init__()
        self.hyperparas = {
            'hidden_size'    : hidden_size,
            'batch_size'     : batch_size,
            'real_batch_size': batch_size,
            'n_steps'        : n_steps,
            'binary_mode'    : binary_mode,
            'backbone'       : backbone,
        }
        self.optimizer_config = {'name': optimizer, 'paras': {'lr': optimizer_lr}}
        self.v_net_optimizer_config = {'name': v_net_optimizer, 'paras': {'lr': v_net_optimizer_lr}}
        self.vnet: Optional[VNet] = None
        self.model = None

    def fit(self,
            dataset_train: BaseDataset,
            y_train: Optional[np.ndarray] = None,
            dataset_valid: BaseDataset = None,
            device: Optional[torch.device] = None,
            **kwargs: Any):

        assert dataset_valid is not None
        hyperparas = self.hyperparas
        n_steps = hyperparas['n_steps']

        if y_train is None:
            y_train = dataset_train.labels
        y_train = torch.Tensor(y_train).to(device)

        model = self._init_model(
            dataset=dataset_train,
            n_class=dataset_train.n_class,
            config=hyperparas,
        )
        self.model = model.to(device)

        train_dataloader = self._init_train_dataloader(
            dataset_train,
            n_steps=n_steps,
            config=hyperparas
        )

        optimizer, scheduler = self._init_optimizer_and_lr_scheduler(model, self.optimizer_config)

        vnet = VNet(1, hyperparas['hidden_size'], 1)
        self.vnet = vnet.to(device)

        train_meta_dataloader = self._init_train_dataloader(
            dataset_valid,
            n_steps=n_steps,
            config=hyperparas
        )
        train_meta_dataloader = sample_batch(train_meta_dataloader)

        optimizer_vnet, _ = self._init_optimizer_and_lr_scheduler(vnet, self.v_net_optimizer_config)

        history = {}
        step = 0
        model.train()
        for batch in train_dataloader:
            step += 1

            batch_idx = batch['ids'].to(device)
            target = y_train[batch_idx]

            optimizer_vnet.zero_grad()
            with innerloop_ctx(model, optimizer, device=device) as (meta_model, diffopt):

                outputs = meta_model(batch)

                cost = cross_entropy_with_probs(outputs, target, reduction='none')
                cost_v = torch.reshape(cost, (len(cost), 1))
                v_lambda = vnet(cost_v.data)
                l_f_meta = torch.sum(cost_v * v_lambda) / len(cost_v)

                diffopt.step(l_f_meta)

                meta_batch = next(train_meta_dataloader)
                outputs = meta_model(meta_batch)
                meta_target = meta_batch['labels'].to(device)
                meta_loss = cross_entropy_with_probs(outputs, meta_target)

                meta_loss.backward()

            optimizer_vnet.step()

            optimizer.zero_grad()
            outputs = model(batch)
            cost = cross_entropy_with_probs(outputs, target, reduction='none')
            cost_v = torch.reshape(cost, (len(cost), 1))

            with torch.no_grad():
                w_new = vnet(cost_v.data)

            loss = torch.sum(cost_v * w_new) / len(cost_v)
            loss.backward()
            optimizer.step()

            history[step] = {'loss': loss.item(), 'meta_loss': meta_loss.item()}
            if step >= n_steps:
                break

        return history
