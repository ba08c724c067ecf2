# From ../shared/seeds/004_7824067b18f9ca0f.txt, example 2 (code as published; the post's comments may be wrong).
import torch
import torch.nn as nn

class CustomLinear(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features))
        self.bias = nn.Parameter(torch.randn(out_features))

    def forward(self, x):
        return torch.matmul(x, self.weight.T) + self.bias

# Initialize the module
model = CustomLinear(10, 5)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# Move to the device, which is critical but potentially insufficient
model.to(device)

# Dummy Input
input_tensor = torch.randn(1, 10)

# Now explicitly move input
input_tensor = input_tensor.to(device)

output = model(input_tensor)

print(f"Output Device: {output.device}") # Now correctly on CUDA
print(f"Weight Device: {model.weight.device}") # Correctly on CUDA
