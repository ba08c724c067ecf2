from typing import Optional, Type

import torch
import torch.nn as nn

from . import hcnn_cell

__all__ = ["HCNN"]


class HCNN(nn.Module):
    """Historical Consistent Neural Network: an HCNNCell unrolled over the past
    horizon (with teacher forcing) and the forecast horizon (without)."""

    def __init__(
        self,
        n_state_neurons: int,
        n_features_Y: int,
        past_horizon: int,
        forecast_horizon: int,
        sparsity: float = 0.0,
        activation: Type[torch.autograd.Function] = torch.tanh,
        init_state: Optional[torch.Tensor] = None,
        learn_init_state: bool = True,
        teacher_forcing: float = 1,
    ):
        super(HCNN, self).__init__()
        self.n_state_neurons = n_state_neurons
        self.n_features_Y = n_features_Y
        self.past_horizon = past_horizon
        self.forecast_horizon = forecast_horizon

        self.state = [torch.tensor for _ in range(past_horizon + forecast_horizon + 1)]
        self.init_state = nn.Parameter(torch.randn(1, n_state_neurons), requires_grad=learn_init_state)
        if init_state is not None:
            self.init_state.data = init_state

        # the cell class first, then the cell itself under the same name
        self.HCNNCell = hcnn_cell.HCNNCell
        self.HCNNCell = self.HCNNCell(n_state_neurons, n_features_Y, sparsity, activation, teacher_forcing)

    def forward(self, Y: torch.Tensor):
        device = self.init_state.device
        self.state[0] = self.init_state
        batchsize = Y.shape[1]

        # reset saved cell outputs
        past_error = torch.zeros((self.past_horizon, batchsize, self.n_features_Y), device=device)
        forecast = torch.zeros((self.forecast_horizon, batchsize, self.n_features_Y), device=device)

        # past
        for t in range(self.past_horizon):
            if t == 0:
                self.state[t + 1], past_error[t] = self.HCNNCell(self.state[t].repeat(batchsize, 1), Y[t])
            else:
                self.state[t + 1], past_error[t] = self.HCNNCell(self.state[t], Y[t])
        # future
        for t in range(self.past_horizon, self.past_horizon + self.forecast_horizon):
            self.state[t + 1], forecast[t - self.past_horizon] = self.HCNNCell(self.state[t])

        return torch.cat([past_error, forecast], dim=0)
