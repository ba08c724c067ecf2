from .train import train_model

__all__ = ['train_model']
