import torch
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset

import numpy as np

from MPRNet import MPRNet
import losses

######### Model ###########
model_restoration = MPRNet()
model_restoration.cuda()

optimizer = optim.Adam(model_restoration.parameters(), lr=2e-4, betas=(0.9, 0.999), eps=1e-8)

######### Loss ###########
criterion_char = losses.CharbonnierLoss()
criterion_edge = losses.EdgeLoss()

######### DataLoaders ###########
train_dataset = TensorDataset(torch.rand(8, 3, 32, 32), torch.rand(8, 3, 32, 32))
train_loader = DataLoader(dataset=train_dataset, batch_size=4, shuffle=True, drop_last=False)

for epoch in range(1, 3):
    epoch_loss = 0
    model_restoration.train()
    for i, data in enumerate(train_loader, 0):

        # zero_grad
        for param in model_restoration.parameters():
            param.grad = None

        target = data[0].cuda()
        input_ = data[1].cuda()

        restored = model_restoration(input_)

        # Compute loss at each stage
        loss_char = torch.sum(torch.stack([criterion_char(restored[j], target) for j in range(len(restored))]))
        loss_edge = torch.sum(torch.stack([criterion_edge(restored[j], target) for j in range(len(restored))]))
        loss = (loss_char) + (0.05 * loss_edge)

        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()

    print("Epoch: {}\tLoss: {:.4f}".format(epoch, epoch_loss))
