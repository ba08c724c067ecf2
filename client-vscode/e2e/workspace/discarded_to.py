"""`Tensor.to()` returns a new tensor; the result is thrown away."""
import torch

device = torch.device("cuda")
x = torch.randn(4, 3)
x.to(device)
y = x @ torch.randn(3, 2, device=device)
