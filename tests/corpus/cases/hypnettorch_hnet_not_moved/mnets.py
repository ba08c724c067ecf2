import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    """Main network whose weights may come from outside (`no_weights=True`)."""

    def __init__(self, n_in, n_out, hidden_layers=(100,), no_weights=False):
        super().__init__()
        dims = [n_in, *hidden_layers, n_out]
        self.param_shapes = [s for a, b in zip(dims[:-1], dims[1:]) for s in ([b, a], [b])]
        self.layers = None if no_weights else nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x, weights=None):
        if weights is None:
            weights = [p for layer in self.layers for p in (layer.weight, layer.bias)]
        for i in range(0, len(weights), 2):
            x = F.linear(x, weights[i], weights[i + 1])
            if i + 2 < len(weights):
                x = F.relu(x)
        return x
