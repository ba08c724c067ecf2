import torch


def to_device(batch, device):
    batch.to(device)
    return batch
