import torch


def move_to_device(obj, device=None):
    if device is None:
        device = torch.device('cuda')
    if isinstance(obj, dict):
        return {k: move_to_device(v, device) for k, v in obj.items()}
    elif isinstance(obj, list):
        return [move_to_device(v, device) for v in obj]
    elif isinstance(obj, (float, int)):
        return obj
    else:
        return obj.to(device)
