import torch
from torch import nn, optim
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

from trainer import TorchTrainer


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 5)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv(x))).flatten(1))


def main():
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = SmallNet()
    model.to(device)
    preprocess = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,) * 3, (0.5,) * 3)])
    train_dataset = datasets.CIFAR10("./data/cifar10", train=True, download=True, transform=preprocess)
    train_loader = DataLoader(train_dataset, batch_size=16, shuffle=True)
    trainer = TorchTrainer(model, nn.CrossEntropyLoss(), optim.Adam(model.parameters()), device=device)
    print(trainer.train(train_loader, n_epoch=1))


if __name__ == "__main__":
    main()
