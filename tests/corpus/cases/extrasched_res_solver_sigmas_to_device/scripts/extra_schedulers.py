import math

import torch

from modules import sd_samplers_kdiffusion, sd_schedulers
from scripts.res_solver import sample_res_solver


def cosine_scheduler(n, sigma_min, sigma_max, device):
    sigmas = torch.zeros(n, device=device)
    for x in range(n):
        p = x / (n - 1)
        sigmas[x] = sigma_min + 0.5 * (sigma_max - sigma_min) * (1 - math.cos(math.pi * (1 - p ** 0.5)))
    return torch.cat([sigmas, sigmas.new_zeros([1])])


CosineScheduler = sd_schedulers.Scheduler("cosine", "Cosine", cosine_scheduler)
sd_schedulers.schedulers.append(CosineScheduler)
sd_schedulers.schedulers_map = {x.name: x for x in sd_schedulers.schedulers}

sd_samplers_kdiffusion.samplers_k_diffusion.append(("Refined Exponential Solver", sample_res_solver, ["k_res"], {}))
