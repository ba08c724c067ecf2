import torch


def create_input(Y: torch.Tensor, past_horizon: int, batchsize: int) -> torch.Tensor:
    """Sliding windows of length past_horizon, grouped in batches:
    shape = (n_batches, past_horizon, batchsize, n_features_Y)."""
    windows = torch.stack([Y[i:i + past_horizon] for i in range(len(Y) - past_horizon + 1)], dim=1)
    n_batches = windows.shape[1] // batchsize
    windows = windows[:, :n_batches * batchsize]
    return torch.stack(torch.split(windows, batchsize, dim=1), dim=0)
