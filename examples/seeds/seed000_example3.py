# From ../shared/seeds/000_7731a4c56fd313f4.txt, example 3 (code as published; the post's comments may be wrong).
import torch
import numpy as np

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Data loaded from a file, typically as a NumPy array.
data = np.random.rand(100, 32, 32)

# Incorrect: Tensor created from CPU data remains on the CPU.
tensor = torch.from_numpy(data)

# Correct: Explicitly move the tensor to the GPU.
tensor = torch.from_numpy(data).to(device)
print(tensor.device) # Prints 'cuda:0' or 'cpu' as appropriate.

#Further Processing:
processed_tensor = tensor.view(100, -1).to(device) #Ensures correct device placement during further operations
