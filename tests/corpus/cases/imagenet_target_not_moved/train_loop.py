import time

import torch


def train(train_loader, model, criterion, optimizer, epoch, device):
    model.train()
    end = time.time()
    for i, (images, target) in enumerate(train_loader):
        data_time = time.time() - end
        images = images.to(device, non_blocking=True)
        output = model(images)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if i % 10 == 0:
            print(f"epoch {epoch} step {i} loss {loss.item():.3f} data {data_time:.3f}s")
        end = time.time()
