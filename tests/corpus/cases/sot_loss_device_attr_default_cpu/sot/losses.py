import torch
import torch.nn as nn

from sot.features import STFT


def quantile_function(qs, cws, xs):
    n = xs.shape[-1]
    idx = torch.searchsorted(cws, qs)
    return torch.take_along_dim(xs, torch.clamp(idx, 0, n - 1), dim=-1)


def wasserstein_1d(u_values, v_values, u_weights, v_weights, p=1):
    """1D Wasserstein distance between two batches of weighted positions, by quantiles."""
    u_values, u_sorter = torch.sort(u_values, 1)
    v_values, v_sorter = torch.sort(v_values, 1)
    u_weights = torch.gather(u_weights, 1, u_sorter)
    v_weights = torch.gather(v_weights, 1, v_sorter)
    u_cumweights = torch.cumsum(u_weights, 1)
    v_cumweights = torch.cumsum(v_weights, 1)
    qs = torch.sort(torch.cat((u_cumweights, v_cumweights), 1), 1)[0]
    u_quantiles = quantile_function(qs, u_cumweights, u_values)
    v_quantiles = quantile_function(qs, v_cumweights, v_values)
    qs = torch.nn.functional.pad(qs, pad=(1, 0))
    delta = qs[..., 1:] - qs[..., :-1]
    return torch.sum(delta * torch.abs(u_quantiles - v_quantiles) ** p, dim=-1)


class _BaseSOTLoss(nn.Module):
    def __init__(self, transform="stft", fft_size=1024, hop_length=256, dim=-1, eps=1e-8, device="cpu"):
        super().__init__()
        if transform == "stft":
            self.transform_module = STFT(fft_size=fft_size, hop_length=hop_length, device=device)
        else:
            raise ValueError(f"Unknown transform {transform}")
        self.device = device
        self.dim = dim
        # Register buffer ensures the tensor is moved to the correct device with the model
        self.register_buffer("bin_positions", self.transform_module.get_bin_positions())
        self.eps = eps
        self.to(device)

    def forward(self, x, y):
        x = x.to(self.device)
        y = y.to(self.device)
        x_spec = self.transform_module(x).permute(0, 2, 1)
        y_spec = self.transform_module(y).permute(0, 2, 1)
        loss = self.loss(x_spec, y_spec, self.bin_positions, self.bin_positions)
        return torch.mean(loss)


class Wasserstein1DLoss(_BaseSOTLoss):
    def __init__(self, transform="stft", p=2, device="cpu", **kwargs):
        super().__init__(transform=transform, device=device, **kwargs)
        self.p = p

    def loss(self, x_spec, y_spec, x_positions, y_positions):
        x_spec = x_spec / (torch.sum(x_spec, dim=-1, keepdim=True) + self.eps)
        y_spec = y_spec / (torch.sum(y_spec, dim=-1, keepdim=True) + self.eps)
        x_spec = x_spec.reshape(-1, x_spec.shape[-1])
        y_spec = y_spec.reshape(-1, y_spec.shape[-1])
        x_positions = x_positions.expand_as(x_spec)
        y_positions = y_positions.expand_as(y_spec)
        return wasserstein_1d(x_positions, y_positions, x_spec, y_spec, p=self.p)
