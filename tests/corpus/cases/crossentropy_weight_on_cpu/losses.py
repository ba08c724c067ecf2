import torch
from torch import nn


def build_loss(class_counts):
    """Inverse-frequency class weights for an imbalanced label set."""
    counts = torch.tensor(class_counts, dtype=torch.float32)
    weights = counts.sum() / (len(class_counts) * counts)
    return nn.CrossEntropyLoss(weight=weights)
