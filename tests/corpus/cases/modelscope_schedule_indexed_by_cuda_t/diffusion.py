import math

import torch


def _i(tensor, t, x):
    """Index a per-timestep schedule with t and shape it to broadcast against x."""
    shape = (x.size(0),) + (1,) * (x.ndim - 1)
    return tensor[t].view(shape).to(x)


def beta_schedule(num_timesteps, init_beta=1e-4, last_beta=2e-2):
    return torch.linspace(init_beta, last_beta, num_timesteps, dtype=torch.float64)


class GaussianDiffusion:
    def __init__(self, betas):
        self.betas = betas
        self.num_timesteps = len(betas)
        alphas = 1 - betas
        self.alphas_cumprod = torch.cumprod(alphas, dim=0)
        self.sqrt_alphas_cumprod = torch.sqrt(self.alphas_cumprod)
        self.sqrt_one_minus_alphas_cumprod = torch.sqrt(1.0 - self.alphas_cumprod)

    def q_sample(self, x0, t, noise):
        return _i(self.sqrt_alphas_cumprod, t, x0) * x0 + _i(self.sqrt_one_minus_alphas_cumprod, t, x0) * noise

    def p_mean(self, model, xt, t):
        eps = model(xt, t)
        return (xt - _i(self.sqrt_one_minus_alphas_cumprod, t, xt) * eps) / _i(self.sqrt_alphas_cumprod, t, xt)
