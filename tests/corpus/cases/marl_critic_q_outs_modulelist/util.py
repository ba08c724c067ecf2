import numpy as np
import torch


def to_torch(input):
    return torch.from_numpy(input) if type(input) == np.ndarray else input


def init(module, weight_init, bias_init, gain=1):
    weight_init(module.weight.data, gain=gain)
    bias_init(module.bias.data)
    return module
