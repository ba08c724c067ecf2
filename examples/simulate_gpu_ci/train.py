"""`torchplace run train.py --steps 3` trains for a few steps with simulated GPUs."""
import argparse

import torch

from classifier import make_model, pick_device, train_step

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=3)
args = parser.parse_args()

device = pick_device()
model = make_model(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(args.steps):
    inputs = torch.randn(16, 4)
    labels = torch.randint(0, 3, (16,))
    loss = train_step(model, optimizer, inputs, labels, device)
    print(f"step {step}: loss {loss:.3f} on {device}")
