# From ../shared/seeds/001_0e30b3312128651c.txt, example 1 (code as published; the post's comments may be wrong).
import torch
import numpy as np

# Data loaded into CPU memory using NumPy
data = np.random.rand(1000, 1000)
mat1 = torch.from_numpy(data)  # mat1 is now on the CPU

if torch.cuda.is_available():
    # Attempting to move mat1 to GPU *after* creation
    mat1 = mat1.cuda()
    # ...further operations...
else:
    print("GPU not available")
