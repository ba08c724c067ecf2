import math

import torch
import torch.nn as nn


class HMLP(nn.Module):
    """Hypernetwork: maps a learned condition embedding to all weights of a main network."""

    def __init__(self, target_shapes, cond_in_size=8, layers=(100, 100), num_cond_embs=2):
        super().__init__()
        self.target_shapes = target_shapes
        self.conditional_params = nn.ParameterList(nn.Parameter(torch.randn(cond_in_size)) for _ in range(num_cond_embs))
        dims = [cond_in_size, *layers]
        self.body = nn.Sequential(*[m for a, b in zip(dims[:-1], dims[1:]) for m in (nn.Linear(a, b), nn.ReLU())])
        self.head = nn.Linear(dims[-1], sum(math.prod(s) for s in target_shapes))

    def forward(self, cond_id):
        flat = self.head(self.body(self.conditional_params[cond_id]))
        weights, offset = [], 0
        for shape in self.target_shapes:
            n = math.prod(shape)
            weights.append(flat[offset:offset + n].view(*shape))
            offset += n
        return weights
