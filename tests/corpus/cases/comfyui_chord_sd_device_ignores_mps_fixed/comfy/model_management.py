"""Stand-in for ComfyUI's comfy.model_management (device choice and model loading)."""
import torch


def get_torch_device():
    if torch.cuda.is_available():
        return torch.device("cuda", torch.cuda.current_device())
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def unet_offload_device():
    return torch.device("cpu")


def load_models_gpu(models):
    for patcher in models:
        patcher.model.to(patcher.load_device)
