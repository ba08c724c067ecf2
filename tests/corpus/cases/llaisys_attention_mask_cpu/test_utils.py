import torch


def torch_device(device_name: str, device_id=0):
    if device_name == "cpu":
        return torch.device("cpu")
    elif device_name == "nvidia":
        return torch.device(f"cuda:{device_id}")
    raise ValueError(f"Unsupported device name: {device_name}")


def torch_dtype(dtype_name: str):
    return {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}[dtype_name]


def random_tensor(shape, dtype_name, device_name, device_id=0):
    return torch.rand(shape, dtype=torch_dtype(dtype_name), device=torch_device(device_name, device_id))
