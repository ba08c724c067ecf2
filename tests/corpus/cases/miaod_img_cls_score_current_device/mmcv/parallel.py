"""Stand-in for mmcv.parallel: DataContainer and MMDataParallel.

MMDataParallel.train_step scatters the batch to device_ids[0] (tensors are
copied there, DataContainer metadata is passed through unchanged) and calls
the module's train_step; like mmcv with one GPU, it does not make that GPU the
current CUDA device."""
import torch
import torch.nn as nn


class DataContainer(object):
    def __init__(self, data, cpu_only=False):
        self.data = data
        self.cpu_only = cpu_only


def scatter(inputs, device_id):
    if isinstance(inputs, torch.Tensor):
        return inputs.cuda(device_id)
    if isinstance(inputs, DataContainer):
        return inputs.data
    if isinstance(inputs, (list, tuple)):
        return type(inputs)(scatter(x, device_id) for x in inputs)
    if isinstance(inputs, dict):
        return {k: scatter(v, device_id) for k, v in inputs.items()}
    return inputs


class MMDataParallel(nn.Module):
    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device_ids = list(device_ids)

    def train_step(self, data, optimizer, **kwargs):
        assert len(self.device_ids) == 1, 'MMDataParallel only supports single GPU training'
        data = scatter(data, self.device_ids[0])
        return self.module.train_step(data, optimizer, **kwargs)
