import torch


def sample_data(n_data, n_features_Y=1, n_features_U=1, seed=0):
    """Stand-in: a noisy autoregressive series Y driven by a random input U."""
    g = torch.Generator().manual_seed(seed)
    U = torch.randn(n_data, n_features_U, generator=g)
    Y = torch.zeros(n_data, n_features_Y)
    for t in range(1, n_data):
        Y[t] = 0.8 * Y[t - 1] + 0.5 * U[t - 1].sum() + 0.1 * torch.randn(n_features_Y, generator=g)
    return Y, U
