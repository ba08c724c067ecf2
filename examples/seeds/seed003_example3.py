# From ../shared/seeds/003_ebb253641e74dbeb.txt, example 3 (code as published; the post's comments may be wrong).
import torch
import torch.utils.data as data
import numpy as np

# Check if CUDA is available
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Dummy dataset
class DummyDataset(data.Dataset):
    def __init__(self, size=1000):
      self.data = np.random.rand(size, 100).astype(np.float32)
    def __len__(self):
        return len(self.data)
    def __getitem__(self, idx):
        return torch.from_numpy(self.data[idx])

dataset = DummyDataset()

# DataLoader with pin_memory set to True
data_loader = data.DataLoader(dataset, batch_size=32, shuffle=True, pin_memory=True)

# Model on GPU (or CPU)
model = torch.nn.Linear(100, 50).to(device)

# Iterate through dataloader and perform calculations
for batch in data_loader:
   try:
      # Incorrect - Missing device transfer
      output = model(batch)
   except RuntimeError as e:
      print(f"Error: {e}")
   # Correct Method - Explicit device transfer for each batch
   batch = batch.to(device)
   output = model(batch)
   print("Output computed successfully (with pinned memory data moved to device)")
