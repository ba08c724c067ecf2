import numpy as np
import torch
import torch.nn as nn

from .utils import get_module_device, var_to_tensor


class UniformTimeStepSampler:
    """Timestep sampler for DDPM-based models. This sampler sample all
    timesteps with the same probabilistic."""

    def __init__(self, num_timesteps):
        self.num_timesteps = num_timesteps
        self.prob = [1 / self.num_timesteps for _ in range(self.num_timesteps)]

    def sample(self, batch_size):
        return torch.from_numpy(
            np.random.choice(self.num_timesteps, size=(batch_size, ), p=self.prob))

    def __call__(self, batch_size):
        return self.sample(batch_size)


class BasicGaussianDiffusion(nn.Module):
    """Basic module for gaussian Diffusion Denoising Probabilistic Models
    (train path only: beta schedule, q_sample, reconstruction_step)."""

    def __init__(self, denoising, num_timesteps=1000, betas_cfg=dict(type='linear')):
        super().__init__()
        self.denoising = denoising
        self.num_timesteps = num_timesteps
        self.betas_cfg = betas_cfg
        self.sampler = UniformTimeStepSampler(num_timesteps)
        self.real_img_key = 'real_img'
        self.prepare_diffusion_vars()

    def get_betas(self):
        scale = 1000 / self.num_timesteps
        return np.linspace(scale * 0.0001, scale * 0.02, self.num_timesteps, dtype=np.float64)

    def prepare_diffusion_vars(self):
        self.betas = self.get_betas()
        self.alphas = 1.0 - self.betas
        self.alphas_bar = np.cumprod(self.alphas, axis=0)
        self.sqrt_alphas_bar = np.sqrt(self.alphas_bar)
        self.sqrt_one_minus_alphas_bar = np.sqrt(1.0 - self.alphas_bar)

    def get_noise(self, noise, num_batches, image_shape):
        if noise is None:
            noise = torch.randn((num_batches, ) + tuple(image_shape))
        return noise

    def q_sample(self, x_0, t, noise=None):
        r"""Get diffusion result at timestep `t` by `q(x_t | x_0)`."""
        device = get_module_device(self)
        num_batches = x_0.shape[0]
        tar_shape = x_0.shape
        noise = self.get_noise(noise, num_batches, x_0.shape[1:]).to(device)
        mean = var_to_tensor(self.sqrt_alphas_bar, t, tar_shape, device)
        std = var_to_tensor(self.sqrt_one_minus_alphas_bar, t, tar_shape,
                            device)

        return x_0 * mean + noise * std, noise

    def reconstruction_step(self, data_batch, noise=None, timesteps=None):
        device = get_module_device(self)
        real_imgs = data_batch[self.real_img_key]
        num_batches = real_imgs.shape[0]

        if isinstance(timesteps, (int, list)):
            timesteps = torch.LongTensor(timesteps)
        elif not isinstance(timesteps, torch.Tensor):
            raise TypeError('we only support int list tensor as timesteps')
        timesteps = timesteps.to(device)

        diffusion_batches, noise = self.q_sample(real_imgs, timesteps, noise)
        denoising_output = self.denoising(diffusion_batches)
        return ((denoising_output - noise) ** 2).mean()

    def train_step(self, data_batch):
        real_imgs = data_batch[self.real_img_key]
        num_batches = real_imgs.shape[0]
        timesteps = self.sampler(num_batches)
        loss = self.reconstruction_step(data_batch, timesteps=timesteps)
        return dict(loss=loss)
