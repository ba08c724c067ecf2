import torch
from torch import nn


class ERelu(nn.Module):
    """ReLU written as a max against a stored constant."""

    def __init__(self):
        super().__init__()
        self.register_buffer("constant", torch.zeros(1))

    def forward(self, x):
        return torch.max(x, self.constant)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 20)
        self.act = ERelu()

    def forward(self, x):
        return self.act(self.fc(x))


net = Net().cuda()
print(net(torch.randn(4, 20, device="cuda")))
