import argparse
import os

import torch
import torch.nn as nn

from model import generator


def parse_args():
    parser = argparse.ArgumentParser(description="Train a colorization generator")
    parser.add_argument("--checkpoint_location", type=str, default="checkpoints")
    parser.add_argument("--gpu", type=int, default=0, help="which GPU to use")
    parser.add_argument("--epochs", type=int, default=1)
    return parser.parse_args()


args = parse_args()
os.makedirs(args.checkpoint_location, exist_ok=True)

G = generator().cuda(args.gpu)
optimizer = torch.optim.Adam(G.parameters(), lr=1e-4)
criterion = nn.L1Loss()

for epoch in range(args.epochs):
    for step in range(2):
        # stand-ins for the Y (input) and UV (target) planes of a YUV batch
        y = torch.rand(4, 1, 64, 64) - 0.5
        uv = torch.rand(4, 2, 64, 64) - 0.5
        yvar, uvvar = y.cuda(args.gpu), uv.cuda(args.gpu)
        loss = criterion(G(yvar), uvvar)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

torch.save(G.state_dict(), os.path.join(args.checkpoint_location, 'G_final.pth'))
