import torch.nn as nn


def mnist_6_100():
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(784, 100), nn.ReLU(),
        nn.Linear(100, 100), nn.ReLU(),
        nn.Linear(100, 10),
    )
