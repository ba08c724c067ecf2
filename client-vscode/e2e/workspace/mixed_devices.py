"""A CUDA tensor added to a CPU tensor: PyTorch raises at run time."""
import torch

device = torch.device("cuda")
a = torch.ones(2, device=device)
b = torch.ones(2)
c = a + b
print(c)
