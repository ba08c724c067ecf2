import torch
from torch import nn

from modules import devices, sd_schedulers

# (label, sampling function, aliases, options); extensions append to this list
samplers_k_diffusion = []


class CFGDenoiser(nn.Module):
    """Stand-in for the web UI's k-diffusion wrapped UNet: model(x, sigma) -> denoised."""

    def __init__(self, channels=4):
        super().__init__()
        self.inner_model = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x, sigma):
        c_in = 1 / (sigma ** 2 + 1) ** 0.5
        eps = self.inner_model(x * c_in.view(-1, 1, 1, 1))
        return x - eps * sigma.view(-1, 1, 1, 1)


class KDiffusionSampler:
    def __init__(self, funcname, model_wrap_cfg):
        self.func = next(func for label, func, aliases, options in samplers_k_diffusion if label == funcname)
        self.model_wrap_cfg = model_wrap_cfg

    def get_sigmas(self, steps, scheduler_name, sigma_min=0.03, sigma_max=14.6):
        scheduler = sd_schedulers.schedulers_map[scheduler_name]
        sigmas = scheduler.function(n=steps, sigma_min=sigma_min, sigma_max=sigma_max, device=devices.cpu)
        return sigmas.cpu()

    def sample(self, x, steps, scheduler_name):
        sigmas = self.get_sigmas(steps, scheduler_name)
        x = x * sigmas[0]
        return self.func(self.model_wrap_cfg, x, sigmas, extra_args={}, disable=False)
