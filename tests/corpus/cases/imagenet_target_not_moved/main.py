import torch
import torchvision.models as models
from torch import nn
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from train_loop import train


def main_worker(data_dir, epochs=3):
    device = torch.device("cuda")
    model = models.resnet50().to(device)
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    dataset = datasets.ImageFolder(data_dir, transforms.ToTensor())
    train_loader = DataLoader(dataset, batch_size=256, shuffle=True, num_workers=8, pin_memory=True)
    for epoch in range(epochs):
        train(train_loader, model, criterion, optimizer, epoch, device)
