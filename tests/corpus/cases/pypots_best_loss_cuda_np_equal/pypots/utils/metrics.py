"""
Utilities for evaluation metrics
"""
import numpy as np
import torch


def cal_mae(inputs, target, mask=None):
    """ calculate Mean Absolute Error"""
    assert type(inputs) == type(target), f'types of inputs and target must match, ' \
                                         f'type(inputs)={type(inputs)}, type(target)={type(target)}'
    lib = np if isinstance(inputs, np.ndarray) else torch
    if mask is not None:
        return lib.sum(lib.abs(inputs - target) * mask) / (lib.sum(mask) + 1e-9)
    else:
        return lib.mean(lib.abs(inputs - target))
