import torch

from .net import Net

model = Net()
x = torch.randn(8, 4, device="cuda")
print(model(x))
