import torch
from torch import nn

from data import make_loader


def train(dataset):
    device = torch.device("cuda")
    model = nn.Linear(4, 2).to(device)
    optimizer = torch.optim.Adam(model.parameters())
    for x, y in make_loader(dataset):
        loss = nn.functional.mse_loss(model(x), y.to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
