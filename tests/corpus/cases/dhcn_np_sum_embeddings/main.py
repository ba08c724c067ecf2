import torch

from model import DHCN


def main(adjacency, n_node, train_batches):
    model = DHCN(adjacency.cuda(), n_node).cuda()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for items, targets in train_batches:
        scores = model(items.cuda())
        loss = torch.nn.functional.cross_entropy(scores, targets.cuda())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
