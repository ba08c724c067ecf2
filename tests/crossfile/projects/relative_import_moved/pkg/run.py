import torch

from .net import Net

model = Net().cuda()
x = torch.randn(8, 4, device="cuda")
print(model(x))
