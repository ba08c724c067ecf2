import torch
import torch.nn as nn

from ..common._base_windows import BaseWindows
from ..losses.pytorch import MAE


class MLP(BaseWindows):
    def __init__(self, h, input_size, num_layers=2, hidden_size=64, loss=MAE(), max_steps=1000, **trainer_kwargs):
        super(MLP, self).__init__(h=h, input_size=input_size, loss=loss, max_steps=max_steps, **trainer_kwargs)
        layers = [nn.Linear(in_features=input_size, out_features=hidden_size)]
        for i in range(num_layers - 1):
            layers += [nn.Linear(in_features=hidden_size, out_features=hidden_size)]
        self.mlp = nn.ModuleList(layers)
        self.out = nn.Linear(in_features=hidden_size, out_features=h * self.loss.outputsize_multiplier)

    def forward(self, windows_batch):
        insample_y = windows_batch["insample_y"]
        batch_size = len(insample_y)

        y_pred = insample_y.clone()
        for layer in self.mlp:
            y_pred = torch.relu(layer(y_pred))
        y_pred = self.out(y_pred)

        y_pred = y_pred.reshape(batch_size, self.h, self.loss.outputsize_multiplier)
        y_pred = self.loss.domain_map(y_pred)
        return y_pred
