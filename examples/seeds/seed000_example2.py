# From ../shared/seeds/000_7731a4c56fd313f4.txt, example 2 (code as published; the post's comments may be wrong).
import torch

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

gpu_tensor = torch.randn(5, 5).to(device)
cpu_tensor = torch.randn(5, 5)

# Operation involving tensors from both CPU and GPU defaults to CPU computation.
result = gpu_tensor + cpu_tensor

print(result.device) # This will print 'cpu'
