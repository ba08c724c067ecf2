# %%
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
weights = torch.randn(16, 4, device=device)

# %%
batch = torch.randn(8, 16)
batch.to(device)
logits = batch @ weights
print(logits.shape)
