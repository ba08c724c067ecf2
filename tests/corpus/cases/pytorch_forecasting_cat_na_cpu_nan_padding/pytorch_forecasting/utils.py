from typing import Dict, List, Tuple, Union

import torch


def move_to_device(
    x: Union[Dict[str, torch.Tensor], torch.Tensor, List[torch.Tensor], Tuple[torch.Tensor]],
    device: Union[str, torch.DeviceObjType],
) -> Union[Dict[str, torch.Tensor], torch.Tensor, List[torch.Tensor], Tuple[torch.Tensor]]:
    """
    Move object to device.
    """
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(x, dict):
        for name in x.keys():
            x[name] = move_to_device(x[name], device=device)
    elif isinstance(x, torch.Tensor) and x.device != device:
        x = x.to(device)
    elif isinstance(x, (list, tuple)) and x[0].device != device:
        x = [move_to_device(xi, device=device) for xi in x]
    return x
