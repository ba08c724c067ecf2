from typing import Optional, Type

import torch
import torch.nn as nn


class PartialTeacherForcing(nn.Dropout):
    """Dropout on the teacher-forcing correction, without rescaling the kept entries."""

    def forward(self, input):
        return super().forward(input) * (1 - self.p)


class HCNNCell(nn.Module):
    """One time step of a Historical Consistent Neural Network: the first n_features_Y
    state neurons are the expectation of the observation; with an observation the
    error corrects the state (teacher forcing) before the transition A."""

    def __init__(
        self,
        n_state_neurons: int,
        n_features_Y: int,
        sparsity: float = 0.0,
        activation: Type[torch.autograd.Function] = torch.tanh,
        teacher_forcing: float = 1,
    ):
        super(HCNNCell, self).__init__()
        self.n_state_neurons = n_state_neurons
        self.n_features_Y = n_features_Y
        self.activation = activation
        self.teacher_forcing = teacher_forcing

        self.A = nn.Linear(in_features=self.n_state_neurons, out_features=self.n_state_neurons, bias=False)
        # selects the observed part of the state
        self.eye = nn.Parameter(torch.eye(self.n_features_Y, self.n_state_neurons), requires_grad=False)
        self.ptf_dropout = PartialTeacherForcing(1 - self.teacher_forcing)

    def forward(self, state: torch.Tensor, observation: Optional[torch.Tensor] = None):
        expectation = torch.mm(state, self.eye.T)

        if observation is not None:
            output = expectation - observation
            teacher_forcing = torch.mm(self.ptf_dropout(output), self.eye)
            state = self.activation(state - teacher_forcing)
        else:
            output = expectation
            state = self.activation(state)
        state = self.A(state)
        return state, output
