# From ../shared/seeds/003_ebb253641e74dbeb.txt, example 2 (code as published; the post's comments may be wrong).
import torch
import numpy as np

# Check if CUDA is available
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Create a tensor from a numpy array (often defaults to float64)
numpy_array = np.random.rand(100, 100)
input_tensor = torch.from_numpy(numpy_array)

# Ensure the input tensor is a float32
input_tensor = input_tensor.to(torch.float32)


#Model instance on device
model = torch.nn.Linear(100, 50).to(device)

# The incorrect method (no device transfer) might throw an error or have incorrect results
try:
   output = model(input_tensor)
except RuntimeError as e:
    print(f"Error: {e}")

# Correct method
input_tensor = input_tensor.to(device) # Move to GPU (or CPU) *after* datatype is set
output = model(input_tensor)
print("Output computed successfully (after type and device are set).")
