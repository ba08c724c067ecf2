import argparse

import torch
from torch import nn

from momentumnet import MomentumNet

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=1, help="index of the GPU to train on")
parser.add_argument("--steps", type=int, default=100)
args = parser.parse_args()

device = torch.device(f"cuda:{args.gpu}")
hidden, d = 8, 50
functions = [nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, d)) for _ in range(10)]
net = MomentumNet(functions, gamma=0.9, use_backprop=False).to(device)
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)

for step in range(args.steps):
    x = torch.randn(32, d, device=device)
    target = torch.randn(32, d, device=device)
    loss = ((net(x) - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
