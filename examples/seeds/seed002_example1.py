# From ../shared/seeds/002_f58686b13689b8b3.txt (the post lost its indentation; re-indented here).
import torch

# Tensor created on the CPU by default
cpu_tensor = torch.tensor([1.0, 2.0, 3.0])
print(f"Default tensor device: {cpu_tensor.device}")

if torch.cuda.is_available():
    device = torch.device("cuda")  # Use the first available CUDA device
    print(f"CUDA (GPU) is available. Using device: {device}")
else:
    device = torch.device("cpu")
    print(f"CUDA (GPU) not available. Using device: {device}")

try:
    device_tensor = torch.randn(3, 4, device=device)
    print(f"Tensor created on: {device_tensor.device}")
except RuntimeError as e:
    print(f"Could not create tensor directly on {device}: {e}")

cpu_tensor = torch.ones(2, 2)
moved_tensor = cpu_tensor.to(device)
if moved_tensor.is_cuda:
    back_to_cpu = moved_tensor.to("cpu")
    print(f"Tensor moved back to: {back_to_cpu.device}")

if device.type == "cuda":
    gpu_tensor_alt = cpu_tensor.cuda()
    cpu_tensor_alt = gpu_tensor_alt.cpu()

# Example of error (assuming device='cuda')
cpu_a = torch.randn(2, 2)
gpu_b = torch.randn(2, 2, device=device)
try:
    c = cpu_a + gpu_b
except RuntimeError as e:
    print(f"Error performing operation on different devices: {e}")
