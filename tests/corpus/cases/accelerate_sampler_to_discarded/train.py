import torch
from accelerate import Accelerator

from schedule_sampler import UniformSampler


def train(model, diffusion, loader, steps):
    accelerator = Accelerator()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
    sampler = UniformSampler(diffusion.num_timesteps)
    for batch in loader:
        t, weights = sampler.sample(batch.shape[0])
        t.to(batch.device)
        weights.to(batch.device)
        losses = diffusion.training_losses(model, batch, t)
        loss = (losses * weights).mean()
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
