import torch

from diffusion import GaussianDiffusion, beta_schedule


@torch.no_grad()
def sample(model, shape, steps=1000):
    device = torch.device("cuda")
    model = model.to(device).eval()
    diffusion = GaussianDiffusion(beta_schedule(steps, device=device))
    xt = torch.randn(shape, device=device)
    for step in reversed(range(steps)):
        t = torch.full((shape[0],), step, dtype=torch.long, device=device)
        xt = diffusion.p_mean(model, xt, t)
    return xt
