import torch

import scripts.extra_schedulers  # noqa: F401  (registers the extra schedulers and samplers)
from modules import devices
from modules.sd_samplers_kdiffusion import CFGDenoiser, KDiffusionSampler


def txt2img(steps=20, batch_size=1, width=64, height=64):
    model_wrap_cfg = CFGDenoiser(channels=4).to(devices.device)
    sampler = KDiffusionSampler("Refined Exponential Solver", model_wrap_cfg)
    noise = torch.randn(batch_size, 4, height // 8, width // 8, device=devices.device)
    return sampler.sample(noise, steps, "cosine")


if __name__ == "__main__":
    print(txt2img().shape)
