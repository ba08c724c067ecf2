# From ../shared/seeds/000_7731a4c56fd313f4.txt, example 1 (code as published; the post's comments may be wrong).
import torch

# Assume a CUDA-capable GPU is available
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Incorrect: Tensor created on CPU, even if device is set correctly
my_tensor = torch.randn(10, 10)  

# The following line prints 'cpu' indicating that the tensor is still on the CPU
print(my_tensor.device)

# Correct: Tensor created directly on the specified device.
my_tensor = torch.randn(10, 10).to(device)
print(my_tensor.device)  # Now prints 'cuda:0' (or 'cpu' if no GPU)
