import argparse

import torch
import torch.nn.functional as F
from torch_geometric.datasets import TUDataset
from torch_geometric.loader import DataLoader

from networks import Net

parser = argparse.ArgumentParser()
parser.add_argument("--nhid", type=int, default=128)
parser.add_argument("--lr", type=float, default=5e-4)
args = parser.parse_args()
args.device = "cuda:0" if torch.cuda.is_available() else "cpu"

dataset = TUDataset("data/DD", name="DD")
args.num_classes = dataset.num_classes
args.num_features = dataset.num_features
train_loader = DataLoader(dataset, batch_size=128, shuffle=True)

model = Net(args).to(args.device)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

for epoch in range(100):
    model.train()
    for data in train_loader:
        data = data.to(args.device)
        out = model(data)
        loss = F.nll_loss(out, data.y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
