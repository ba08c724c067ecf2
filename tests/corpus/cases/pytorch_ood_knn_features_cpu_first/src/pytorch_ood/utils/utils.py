from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
from torch import Tensor
from torch.utils.data import DataLoader


def is_known(labels: Tensor) -> Tensor:
    """In-distribution samples have labels >= 0."""
    return labels >= 0


class TensorBuffer(object):
    """Used to buffer tensors."""

    def __init__(self, device="cpu"):
        self._buffer: Dict[Any, List[Tensor]] = defaultdict(list)
        self.device = device

    def is_empty(self) -> bool:
        return len(self._buffer) == 0

    def append(self, key, value: Tensor) -> "TensorBuffer":
        if not isinstance(value, Tensor):
            raise ValueError(f"Can not handle value type {type(value)}")
        value = value.detach().to(self.device)
        self._buffer[key].append(value)
        return self

    def get(self, key) -> Tensor:
        return torch.cat(self._buffer[key])


def extract_features(
    data_loader: DataLoader, model: Callable[[Tensor], Tensor], device: Optional[str]
) -> Tuple[Tensor, Tensor]:
    """Extracts the model's outputs for the IN samples of a loader (kept in a CPU buffer)."""
    buffer = TensorBuffer()

    with torch.no_grad():
        for batch in data_loader:
            x, y = batch
            x = x.to(device)
            y = y.to(device)
            known = is_known(y)
            if known.any():
                z = model(x[known])
                z = z.view(known.sum(), -1)  # flatten
                buffer.append("embedding", z)
                buffer.append("label", y[known])

        if buffer.is_empty():
            raise ValueError("No IN instances in loader")

    z = buffer.get("embedding")
    y = buffer.get("label")
    return z, y
