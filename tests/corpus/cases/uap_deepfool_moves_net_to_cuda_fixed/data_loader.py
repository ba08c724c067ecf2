import torch
from torch.utils.data import DataLoader, TensorDataset

device = torch.device('cpu')


def load_data():
    # stand-in for FashionMNIST (ToTensor + Normalize): random 1x28x28 images
    trainset = TensorDataset(torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,)))
    testset = TensorDataset(torch.rand(10, 1, 28, 28), torch.randint(0, 10, (10,)))

    trainloader = DataLoader(trainset, batch_size=32, shuffle=True)
    testloader = DataLoader(testset, batch_size=5, shuffle=False)
    return trainloader, testloader
