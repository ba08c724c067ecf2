# From ../shared/seeds/003_ebb253641e74dbeb.txt, example 1 (code as published; the post's comments may be wrong).
import torch

# Check if CUDA is available, else use CPU
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Create a tensor on CPU (by default)
input_tensor = torch.randn(100, 100)

# Model instance correctly placed on the GPU (or CPU if GPU isn't available)
model = torch.nn.Linear(100, 50).to(device)

# Attempt a forward pass
try:
    output = model(input_tensor) # Error here: model is on GPU, input on CPU
except RuntimeError as e:
    print(f"Error: {e}")


# Correct method
input_tensor = input_tensor.to(device)  # Move the tensor to the same device as the model
output = model(input_tensor) # Now this will work without errors
print("Output computed successfully (after moving tensor).")
