import numpy as np
import torch

from config import DEVICE


def to_device(array):
    """Host array -> float32 tensor on the training device."""
    return torch.from_numpy(array.astype(np.float32)).to(DEVICE)
