import torch
from torch import nn

from task import DEVICE, load_data, to_device


def test(net, testloader):
    criterion = nn.CrossEntropyLoss()
    correct, total, loss = 0, 0, 0.0
    with torch.no_grad():
        for images, labels in testloader:
            outputs = net(to_device(images))
            loss += criterion(outputs, to_device(labels)).item()
            total += labels.size(0)
            correct += (torch.max(outputs.data, 1)[1] == labels).sum().item()
    return loss / len(testloader.dataset), correct / total


def evaluate(net):
    _, testloader = load_data()
    net.to(DEVICE)
    return test(net, testloader)
