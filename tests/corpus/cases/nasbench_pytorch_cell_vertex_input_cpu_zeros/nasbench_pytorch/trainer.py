import numpy as np
import torch
from torch import nn


def train(net, train_loader, loss=None, optimizer=None, scheduler=None, grad_clip=5, num_epochs=10,
          device=None, print_frequency=200):
    """Train a network from the NAS-bench-101 search space; returns the per-epoch metrics."""
    net = net.to(device)
    if loss is None:
        loss = nn.CrossEntropyLoss()
    if optimizer is None:
        optimizer = torch.optim.SGD(net.parameters(), lr=0.025, momentum=0.9, weight_decay=1e-4)
    if scheduler is None:
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, num_epochs)

    n_batches = len(train_loader)
    metric_dict = {'train_loss': [], 'train_accuracy': []}
    for epoch in range(num_epochs):
        net.train()

        train_loss = torch.tensor(0.0)
        correct = torch.tensor(0.0)
        total = 0

        batch_idx = 0
        for batch_idx, (inputs, targets) in enumerate(train_loader):
            inputs, targets = inputs.to(device), targets.to(device)

            outputs = net(inputs)

            optimizer.zero_grad()
            curr_loss = loss(outputs, targets)
            curr_loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), grad_clip)
            optimizer.step()

            # running metrics
            train_loss += curr_loss.detach()
            _, predict = torch.max(outputs.data, 1)
            total += targets.size(0)
            correct += predict.eq(targets.data).sum().detach()

            if (batch_idx % print_frequency) == 0:
                print(f'Epoch={epoch}/{num_epochs} Batch={batch_idx + 1}/{n_batches}')

        metric_dict['train_loss'].append((train_loss / (batch_idx + 1)).item())
        metric_dict['train_accuracy'].append((correct / total).item())
        scheduler.step()

    return metric_dict


def test(net, test_loader, loss=None, num_tests=None, device=None):
    net = net.to(device)
    net.eval()
    if loss is None:
        loss = nn.CrossEntropyLoss()

    test_loss = 0
    correct = 0
    with torch.no_grad():
        for inputs, targets in test_loader:
            inputs, targets = inputs.to(device), targets.to(device)
            outputs = net(inputs)
            test_loss += loss(outputs, targets).detach()
            _, predict = torch.max(outputs.data, 1)
            correct += predict.eq(targets.data).sum().detach()

    last_loss = test_loss / len(test_loader) if len(test_loader) > 0 else np.inf
    return {'test_loss': last_loss.item(), 'test_accuracy': (correct / num_tests).item()}
