from torch import nn


def SimpleFeedForward(dim: int, hidden_dim: int, dropout=0.1):
    """
    Feedforward neural network with LayerNorms and GELU activations
    """
    return nn.Sequential(
        nn.Linear(dim, hidden_dim),
        nn.GELU(),
        nn.LayerNorm(hidden_dim),
        nn.Linear(hidden_dim, dim),
        nn.Dropout(dropout),
    )
