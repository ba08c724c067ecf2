from torch import nn


class SimpleMLP(nn.Module):
    def __init__(self, in_dim, out_dim, hidden_units=256):
        super().__init__()
        self.network = nn.Sequential(nn.Linear(in_dim, hidden_units), nn.ReLU(), nn.Linear(hidden_units, out_dim))

    def forward(self, x):
        return self.network(x)


_QNETS = {"SimpleMLP": SimpleMLP}


def get_qnet(qnet):
    """Builds a q-network from a config dict {"name": ..., "kwargs": {...}} or returns a given module."""
    if isinstance(qnet, dict):
        return _QNETS[qnet["name"]](**qnet["kwargs"])
    return qnet
