from collections import OrderedDict

import numpy as np
import torch
from torch import nn


class FactorAugmentedSparseThroughputNN(nn.Module):
    """FAST-NN: fixed diversified projection, learned variable selection, ReLU regression head."""

    def __init__(self, p, r_bar, depth, width, dp_mat, sparsity=None, rs_mat=None):
        super(FactorAugmentedSparseThroughputNN, self).__init__()
        self.diversified_projection = nn.Linear(p, r_bar, bias=False)
        dp_matrix_tensor = torch.tensor(np.transpose(dp_mat), dtype=torch.float32)
        self.diversified_projection.weight = nn.Parameter(dp_matrix_tensor, requires_grad=False)
        if rs_mat is not None:
            self.reconstruct = nn.Linear(r_bar, p, bias=False)
            self.reconstruct.weight = nn.Parameter(torch.tensor(np.transpose(rs_mat), dtype=torch.float32), requires_grad=False)
        else:
            self.reconstruct = None
        if sparsity is None:
            sparsity = width
        self.variable_selection = nn.Linear(p, sparsity, bias=False)
        relu_nn = [("linear1", nn.Linear(r_bar + sparsity, width)), ("relu1", nn.ReLU())]
        for i in range(depth - 1):
            relu_nn.append(("linear{}".format(i + 2), nn.Linear(width, width)))
            relu_nn.append(("relu{}".format(i + 2), nn.ReLU()))
        relu_nn.append(("linear{}".format(depth + 1), nn.Linear(width, 1)))
        self.relu_stack = nn.Sequential(OrderedDict(relu_nn))

    def forward(self, x, is_training=False):
        x1 = self.diversified_projection(x)
        if self.reconstruct is not None:
            x2 = self.variable_selection(x - self.reconstruct(x1))
        else:
            x2 = self.variable_selection(x)
        return self.relu_stack(torch.concat((x1, x2), -1))

    def regularization_loss(self, tau, penalize_weights=False):
        clipped = torch.clamp(torch.abs(self.variable_selection.weight) / tau, max=1.0)
        return torch.sum(clipped)
