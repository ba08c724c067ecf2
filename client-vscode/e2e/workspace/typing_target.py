import torch

device = torch.device("cuda")
a = torch.ones(2, device=device)
b = torch.ones(2)
c = a + b
x = torch.zeros(3)
x.to(device)
