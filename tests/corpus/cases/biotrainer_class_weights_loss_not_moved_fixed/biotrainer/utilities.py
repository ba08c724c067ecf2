import torch

from typing import Union

MASK_AND_LABELS_PAD_VALUE = -100


def get_device(device: Union[None, str, torch.device] = None) -> torch.device:
    """What the user asked for, else the GPU when there is one, else the CPU."""
    if isinstance(device, torch.device):
        if device.type == "cuda" and torch.cuda.is_available():
            return device
        else:
            return torch.device("cpu")
    elif device:
        return torch.device(device)
    elif torch.cuda.is_available():
        return torch.device("cuda")
    else:
        return torch.device("cpu")
