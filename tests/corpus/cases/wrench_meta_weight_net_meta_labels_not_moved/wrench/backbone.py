from abc import abstractmethod
from typing import Dict, Optional

import torch
import torch.nn as nn


class BackBone(nn.Module):
    def __init__(self, n_class, binary_mode=False):
        if binary_mode:
            assert n_class == 2
            n_class = 1
        self.n_class = n_class
        super(BackBone, self).__init__()
        self.dummy_param = nn.Parameter(torch.empty(0))

    @property
    def device(self):
        return self.dummy_param.device

    def get_device(self):
        return self.dummy_param.device

    @abstractmethod
    def forward(self, batch: Dict, return_features: Optional[bool] = False):
        pass


class MLP(BackBone):
    def __init__(self, n_class, input_size, n_hidden_layers=1, hidden_size=100, dropout=0.0, binary_mode=False, **kwargs):
        super(MLP, self).__init__(n_class=n_class, binary_mode=binary_mode)
        layers = [nn.Linear(input_size, hidden_size), nn.ReLU(), nn.Dropout(p=dropout)]
        for i in range(n_hidden_layers - 1):
            layers.extend([nn.Linear(hidden_size, hidden_size), nn.ReLU(), nn.Dropout(p=dropout)])
        self.fcs = nn.Sequential(*layers)
        self.last_layer = nn.Linear(hidden_size, self.n_class)
        self.hidden_size = hidden_size

    def forward(self, batch, return_features=False):
        x = batch['features'].to(self.get_device())
        h = self.fcs(x)
        output = self.last_layer(h)
        if return_features:
            return output, h
        return output
