"""A tiny training library with the most common device bug: the labels never reach the GPU.

On a CPU-only CI runner `device` is "cpu" and everything passes; on a GPU machine
`train_step` raises.  `pytest --simulate-gpu` and `torchplace run train.py` show
it without a GPU (see README.md).
"""
import torch
import torch.nn as nn


def pick_device() -> torch.device:
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def make_model(device: torch.device) -> nn.Module:
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3)).to(device)


def train_step(model: nn.Module, optimizer, inputs: torch.Tensor, labels: torch.Tensor, device) -> float:
    inputs = inputs.to(device)
    logits = model(inputs)
    loss = nn.functional.cross_entropy(logits, labels)  # the bug: `labels` stayed on the CPU
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
