"""DDPM / LatentDiffusion training loss (ldm/models/diffusion/ddpm.py), reduced to the loss path."""
from functools import partial

import numpy as np
import torch
import torch.nn as nn


def default(val, d):
    if val is not None:
        return val
    return d() if callable(d) else d


def extract_into_tensor(a, t, x_shape):
    b, *_ = t.shape
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class DDPM(nn.Module):
    # classic DDPM with Gaussian diffusion, in image space (a LightningModule upstream: `self.device` follows `.to()`)
    def __init__(self, unet, timesteps=1000, linear_start=1e-4, linear_end=2e-2, l_simple_weight=1.,
                 original_elbo_weight=0., learn_logvar=False, logvar_init=0.):
        super().__init__()
        self.model = unet
        self.l_simple_weight = l_simple_weight
        self.original_elbo_weight = original_elbo_weight
        self.register_schedule(timesteps=timesteps, linear_start=linear_start, linear_end=linear_end)

        self.learn_logvar = learn_logvar
        self.logvar = torch.full(fill_value=logvar_init, size=(self.num_timesteps,))
        if self.learn_logvar:
            self.logvar = nn.Parameter(self.logvar, requires_grad=True)

    @property
    def device(self):
        return next(self.parameters()).device

    def register_schedule(self, timesteps=1000, linear_start=1e-4, linear_end=2e-2):
        betas = np.linspace(linear_start ** 0.5, linear_end ** 0.5, timesteps, dtype=np.float64) ** 2
        alphas = 1. - betas
        alphas_cumprod = np.cumprod(alphas, axis=0)
        self.num_timesteps = int(timesteps)

        to_torch = partial(torch.tensor, dtype=torch.float32)
        self.register_buffer('sqrt_alphas_cumprod', to_torch(np.sqrt(alphas_cumprod)))
        self.register_buffer('sqrt_one_minus_alphas_cumprod', to_torch(np.sqrt(1. - alphas_cumprod)))
        lvlb_weights = 0.5 * np.ones(timesteps) / (2. * (1 - alphas_cumprod) ** 0.5)
        self.register_buffer('lvlb_weights', to_torch(lvlb_weights), persistent=False)

    def q_sample(self, x_start, t, noise=None):
        noise = default(noise, lambda: torch.randn_like(x_start))
        return (extract_into_tensor(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start +
                extract_into_tensor(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)

    def get_loss(self, pred, target, mean=True):
        loss = torch.nn.functional.mse_loss(target, pred, reduction='none')
        if mean:
            loss = loss.mean()
        return loss


class LatentDiffusion(DDPM):
    """main class"""

    def apply_model(self, x_noisy, t, cond):
        return self.model(x_noisy)

    def forward(self, x, c=None):
        t = torch.randint(0, self.num_timesteps, (x.shape[0],), device=self.device).long()
        return self.p_losses(x, c, t)

    def p_losses(self, x_start, cond, t, noise=None):
        noise = default(noise, lambda: torch.randn_like(x_start))
        x_noisy = self.q_sample(x_start=x_start, t=t, noise=noise)
        model_output = self.apply_model(x_noisy, t, cond)

        loss_dict = {}
        prefix = 'train' if self.training else 'val'
        target = noise

        loss_simple = self.get_loss(model_output, target, mean=False).mean([1, 2, 3])
        loss_dict.update({f'{prefix}/loss_simple': loss_simple.mean()})

        logvar_t = self.logvar[t].to(self.device)
        loss = loss_simple / torch.exp(logvar_t) + logvar_t
        if self.learn_logvar:
            loss_dict.update({f'{prefix}/loss_gamma': loss.mean()})

        loss = self.l_simple_weight * loss.mean()

        loss_vlb = self.get_loss(model_output, target, mean=False).mean(dim=(1, 2, 3))
        loss_vlb = (self.lvlb_weights[t] * loss_vlb).mean()
        loss_dict.update({f'{prefix}/loss_vlb': loss_vlb})
        loss += (self.original_elbo_weight * loss_vlb)
        loss_dict.update({f'{prefix}/loss': loss})
        return loss, loss_dict


if __name__ == "__main__":
    device = torch.device("cuda")
    unet = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.SiLU(), nn.Conv2d(32, 4, 3, padding=1))
    model = LatentDiffusion(unet).to(device)
    z = torch.randn(2, 4, 16, 16, device=device)
    loss, loss_dict = model(z)
    print(loss_dict)
