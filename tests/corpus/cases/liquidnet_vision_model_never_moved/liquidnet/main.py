from enum import Enum

import numpy as np
import torch
import torch.nn as nn


class MappingType(Enum):
    Identity = 0
    Linear = 1
    Affine = 2


class ODESolver(Enum):
    SemiImplicit = 0
    Explicit = 1
    RungeKutta = 2


class LiquidNet(nn.Module):
    """Liquid time-constant cell; its parameters are created at the first forward."""

    def __init__(self, num_units):
        super(LiquidNet, self).__init__()
        self._input_size = -1
        self._num_units = num_units
        self._is_built = False
        self._ode_solver_unfolds = 6
        self._solver = ODESolver.SemiImplicit
        self._input_mapping = MappingType.Affine
        self._w_init_max = 1.0
        self._w_init_min = 0.01

    @property
    def state_size(self):
        return self._num_units

    def _map_inputs(self, inputs):
        if self._input_mapping == MappingType.Affine or self._input_mapping == MappingType.Linear:
            w = nn.Parameter(torch.ones(self._input_size))
            inputs = inputs * w
        if self._input_mapping == MappingType.Affine:
            b = nn.Parameter(torch.zeros(self._input_size))
            inputs = inputs + b
        return inputs

    def forward(self, inputs, state):
        if not self._is_built:
            self._is_built = True
            self._input_size = int(inputs.shape[-1])
            self._get_variables()
        inputs = self._map_inputs(inputs)
        next_state = self._ode_step(inputs, state)
        return next_state, next_state

    def _get_variables(self):
        self.sensory_mu = nn.Parameter(torch.rand(self._input_size, self._num_units) * 0.5 + 0.3)
        self.sensory_sigma = nn.Parameter(torch.rand(self._input_size, self._num_units) * 5.0 + 3.0)
        self.sensory_W = nn.Parameter(
            torch.Tensor(np.random.uniform(low=self._w_init_min, high=self._w_init_max, size=[self._input_size, self._num_units]))
        )
        self.mu = nn.Parameter(torch.rand(self._num_units, self._num_units) * 0.5 + 0.3)
        self.sigma = nn.Parameter(torch.rand(self._num_units, self._num_units) * 5.0 + 3.0)
        self.W = nn.Parameter(
            torch.Tensor(np.random.uniform(low=self._w_init_min, high=self._w_init_max, size=[self._num_units, self._num_units]))
        )
        self.vleak = nn.Parameter(torch.rand(self._num_units) * 0.4 - 0.2)
        self.gleak = nn.Parameter(torch.ones(self._num_units))
        self.cm_t = nn.Parameter(torch.full((self._num_units,), 0.5))

    def _ode_step(self, inputs, state):
        v_pre = state
        sensory_w_activation = self.sensory_W * self._sigmoid(inputs, self.sensory_mu, self.sensory_sigma)
        w_denominator_sensory = torch.sum(sensory_w_activation, dim=1)
        for t in range(self._ode_solver_unfolds):
            w_activation = self.W * self._sigmoid(v_pre, self.mu, self.sigma)
            w_denominator = torch.sum(w_activation, dim=1) + w_denominator_sensory
            numerator = self.cm_t * v_pre + self.gleak * self.vleak
            denominator = self.cm_t + self.gleak + w_denominator
            v_pre = numerator / denominator
        return v_pre

    def _sigmoid(self, v_pre, mu, sigma):
        v_pre = v_pre.view(-1, v_pre.shape[-1], 1)
        mues = v_pre - mu
        x = sigma * mues
        return torch.sigmoid(x)
