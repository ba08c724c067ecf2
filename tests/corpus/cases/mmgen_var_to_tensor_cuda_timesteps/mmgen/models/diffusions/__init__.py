from .base_diffusion import BasicGaussianDiffusion

__all__ = ['BasicGaussianDiffusion']
