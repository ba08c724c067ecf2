"""Several discarded `.to()` calls: "Fix All Device Issues" repairs them at once."""
import torch

device = torch.device("cuda")
inputs = torch.randn(8, 16)
targets = torch.randint(0, 2, (8,))
inputs.to(device)
targets.to(device)
weights = torch.randn(16, 2, device=device)
loss = torch.nn.functional.cross_entropy(inputs @ weights, targets)
