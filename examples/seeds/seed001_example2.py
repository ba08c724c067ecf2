# From ../shared/seeds/001_0e30b3312128651c.txt, example 2 (code as published; the post's comments may be wrong).
import torch

if torch.cuda.is_available():
    device = torch.device('cuda')
else:
    device = torch.device('cpu')

mat1 = torch.randn(1000, 1000, device=device)  # mat1 is created on the GPU

# ...further operations using mat1 on the GPU...

# Example operation:
mat2 = torch.randn(1000, 1000, device=device)
result = torch.matmul(mat1, mat2) # Operation takes place on GPU
