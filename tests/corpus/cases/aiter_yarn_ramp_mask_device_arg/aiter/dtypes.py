import torch

fp32 = torch.float32
bf16 = torch.bfloat16
