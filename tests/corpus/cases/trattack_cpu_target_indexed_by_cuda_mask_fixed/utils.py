import torch
from torch.utils.data import TensorDataset


def getData(name='cifar10', train_bs=128, test_bs=1000):
    # stands in for torchvision's CIFAR10 with ToTensor/Normalize: CPU float images, int64 labels
    trainset = TensorDataset(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,)))
    train_loader = torch.utils.data.DataLoader(trainset, batch_size=train_bs, shuffle=True)
    testset = TensorDataset(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,)))
    test_loader = torch.utils.data.DataLoader(testset, batch_size=test_bs, shuffle=False)
    return train_loader, test_loader
