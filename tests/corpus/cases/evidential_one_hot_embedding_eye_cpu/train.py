import copy

import torch
import torch.nn.functional as F

from helpers import get_device, one_hot_embedding


def relu_evidence(y):
    return F.relu(y)


def edl_mse_loss(output, target, epoch_num, num_classes, annealing_step, device=None):
    evidence = relu_evidence(output)
    alpha = evidence + 1
    S = torch.sum(alpha, dim=1, keepdim=True)
    loglikelihood = torch.sum((target - alpha / S) ** 2, dim=1, keepdim=True)
    return torch.mean(loglikelihood)


def train_model(model, dataloaders, num_classes, criterion, optimizer, num_epochs=25, device=None, uncertainty=False):
    if not device:
        device = get_device()
    best_model_wts = copy.deepcopy(model.state_dict())
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train() if phase == "train" else model.eval()
            for i, (inputs, labels) in enumerate(dataloaders[phase]):
                inputs = inputs.to(device)
                labels = labels.to(device)
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    if uncertainty:
                        y = one_hot_embedding(labels, num_classes)
                        y = y.to(device)
                        outputs = model(inputs)
                        loss = criterion(outputs, y.float(), epoch, num_classes, 10, device)
                    else:
                        outputs = model(inputs)
                        loss = criterion(outputs, labels)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
    return model, best_model_wts


def main(dataloaders):
    device = get_device()
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 500), torch.nn.ReLU(), torch.nn.Linear(500, 10))
    model = model.to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=0.005)
    return train_model(model, dataloaders, 10, edl_mse_loss, optimizer, num_epochs=60, device=device, uncertainty=True)
