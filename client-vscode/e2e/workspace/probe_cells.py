"""Cells to probe: the probe runs them in a kernel and shows where tensors live."""
# %%
import torch

device = torch.device("cuda")
weights = torch.randn(16, 4, device=device)

# %%
batch = torch.randn(8, 16)
batch = batch.to(device)
scores = batch @ weights
labels = torch.zeros(8, dtype=torch.long)
loss = torch.nn.functional.cross_entropy(scores, labels)
