import torch


def to_device(batch, device):
    return batch.to(device)
