"""torch.save / torch.load under the simulated GPU: ordinary files, exactly as a GPU run writes them.

Why: a probed training cell that saves a checkpoint must leave a file every torch
can load.  A tensor on a simulated GPU is pickled as the plain tensor it is (the
simulation's marker is left out) and its storage's location tag says `cuda:N`, as a
real GPU run's would; plain torch loads it with `map_location="cpu"`, and without it
fails the way a GPU checkpoint fails on a CPU machine.  Inside the simulation such a
file (or a real GPU checkpoint) loads back onto the simulated device, and
`map_location="cuda"` puts CPU checkpoints there.
"""
from __future__ import annotations

from typing import Any

import torch
import torch.serialization as ser

from .sim_state import MARK, MODEL, cuda_device

_PRIVATE = (MARK, "_tp_pinned")
STORAGE_MARK = "_tp_device"  # on an UntypedStorage: the simulated device its tensors are on


def mark_storage(storage: Any, device: torch.device) -> None:
    try:
        object.__setattr__(storage, STORAGE_MARK, device)
    except (AttributeError, TypeError):
        pass


def _reduce_ex(original):
    """Pickle the tensor without our attributes; its storage remembers the simulated device."""
    def __reduce_ex__(self, proto):
        state = self.__dict__
        stashed = {k: state.pop(k) for k in _PRIVATE if k in state}
        info = stashed.get(MARK)
        storage = None
        if info is not None and info.device is not None:
            try:
                storage = self.untyped_storage()  # kept alive until the pickler has seen it
                mark_storage(storage, info.device)
            except (RuntimeError, TypeError):
                storage = None
        try:
            return original(self, proto)
        finally:
            state.update(stashed)
            del storage
    return __reduce_ex__


def _location_tag(original):
    def location_tag(storage: Any) -> str:
        device = getattr(storage, STORAGE_MARK, None)
        return str(device) if device is not None else original(storage)
    return location_tag


def _restore_location(original):
    """`cuda:N` locations (and map_location="cuda") restore onto the simulated device."""
    def default_restore_location(storage, location):
        if isinstance(location, str) and location.startswith("cuda"):
            dev = torch.device(location)
            index = dev.index if dev.index is not None else 0
            if index >= MODEL.count:
                raise RuntimeError(
                    f"Attempting to deserialize object on CUDA device {index} but torch.cuda.device_count() is "
                    f"{MODEL.count}. Please use torch.load with map_location to map your storages to an existing "
                    "device.")
            mark_storage(storage, cuda_device(dev.index))
            return storage
        return original(storage, location)
    return default_restore_location


def _storage_cuda(original):
    """`storage.cuda()` in a user's map_location function."""
    def cuda(self, device=None, non_blocking=False):
        index = device if isinstance(device, int) or device is None else torch.device(device).index
        mark_storage(self, cuda_device(index))
        return self
    return cuda


def serialization_api() -> dict:
    return {
        (torch.Tensor, "__reduce_ex__"): _reduce_ex(torch.Tensor.__reduce_ex__),
        (torch.nn.Parameter, "__reduce_ex__"): _reduce_ex(torch.nn.Parameter.__reduce_ex__),
        (ser, "location_tag"): _location_tag(ser.location_tag),
        (ser, "default_restore_location"): _restore_location(ser.default_restore_location),
        (torch.UntypedStorage, "cuda"): _storage_cuda(torch.UntypedStorage.cuda),
    }
