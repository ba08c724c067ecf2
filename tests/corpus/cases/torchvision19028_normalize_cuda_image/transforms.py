import torch


def normalize(tensor, mean, std):
    """Normalise a (C, H, W) image in place with per-channel statistics."""
    mean = torch.tensor(mean, dtype=torch.float32)
    std = torch.tensor(std, dtype=torch.float32)
    tensor.sub_(mean[:, None, None]).div_(std[:, None, None])
    return tensor


class Denormalize:
    def __init__(self, mean, std):
        self.mean = [-m / s for m, s in zip(mean, std)]
        self.std = [1 / s for s in std]

    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std)
