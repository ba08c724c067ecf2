import argparse

import torch

from model import CMT
from utils import load_checkpoint

parser = argparse.ArgumentParser()
parser.add_argument("--ckpt", default="./checkpoint/Place2.pth")
args = parser.parse_args()

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
proposed = CMT()
proposed = load_checkpoint(args.ckpt, proposed)
proposed = proposed.to(device).eval()
