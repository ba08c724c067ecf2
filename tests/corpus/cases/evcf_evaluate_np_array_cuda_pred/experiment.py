from __future__ import print_function

import argparse

import torch
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

from models.Baseline import VAE
from utils.perform_experiment import experiment_vae

parser = argparse.ArgumentParser(description='VAE+VampPrior for collaborative filtering')
parser.add_argument('--epochs', type=int, default=2)
parser.add_argument('--no-cuda', action='store_true', default=False, help='enables CUDA training')
parser.add_argument('--input_size', type=int, default=300)
parser.add_argument('--hidden_size', type=int, default=64)
parser.add_argument('--z1_size', type=int, default=32)
parser.add_argument('--max_beta', type=float, default=0.2)
args = parser.parse_args()
args.cuda = not args.no_cuda and torch.cuda.is_available()

kwargs = {'num_workers': 0, 'pin_memory': True} if args.cuda else {}


def load_dataset(args, **kwargs):
    # stand-in for the MovieLens/Netflix click matrices: (train, held-out) rows per user
    train = (torch.rand(64, args.input_size) < 0.05).float()
    heldout = (torch.rand(64, args.input_size) < 0.02).float()
    data = TensorDataset(train, heldout)
    return DataLoader(data, batch_size=16, shuffle=True, **kwargs), DataLoader(data, batch_size=16, **kwargs)


def run(args, kwargs):
    train_loader, val_loader = load_dataset(args, **kwargs)
    model = VAE(args)
    if args.cuda:
        model.cuda()
    optimizer = optim.Adam(model.parameters(), lr=1e-3)
    experiment_vae(args, train_loader, val_loader, model, optimizer)


if __name__ == "__main__":
    run(args, kwargs)
