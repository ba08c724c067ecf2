"""The simulated GPU's state: its model, which device each tensor is on, and where it got there.

Why: every tensor of a simulation is a real CPU tensor (values compute on the CPU);
the device it would have on a GPU machine is a small `SimInfo` kept on the tensor
object (`tensor._tp_sim`).  PyTorch keeps a tensor's Python object, with its
attributes, for as long as the tensor lives (PyObject preservation), so the marker
follows the tensor through modules, optimizers and autograd.

A `SimInfo` also records the *origin* of the tensor's device: the user's line that
created the tensor or last moved it.  Ops that keep a device share their input's
`SimInfo`, so when a device error names an operand, the origin points at the line
to fix ("root cause"), not at the line that crashed.
"""
from __future__ import annotations

import collections
import os
import threading
from dataclasses import dataclass
from typing import Optional

import torch

MARK = "_tp_sim"
CPU = torch.device("cpu")
REAL_DEVICE = torch._C.TensorBase.device.__get__  # the device the tensor really has (cpu)
BAD_ORDINAL = (
    "CUDA error: invalid device ordinal\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
    "incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
    "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n"
)


@dataclass
class GpuModel:
    """What the simulated GPUs answer to `torch.cuda` queries (an A100-class card by default)."""

    name: str = "Simulated GPU (torchplace; values computed on the CPU)"
    count: int = 2  # at least two, so that `cuda:1` bugs show
    capability: tuple = (8, 0)
    total_memory: int = 80 * 1024 ** 3
    multi_processor_count: int = 108
    bf16: bool = True

    @classmethod
    def from_environment(cls) -> "GpuModel":
        """`TORCHPLACE_SIM_GPUS` (device count) and `TORCHPLACE_SIM_CAPABILITY` ("8.0") override the defaults."""
        model = cls()
        count = os.environ.get("TORCHPLACE_SIM_GPUS", "")
        if count.isdigit() and int(count) >= 1:
            model.count = int(count)
        cap = os.environ.get("TORCHPLACE_SIM_CAPABILITY", "")
        if cap.count(".") == 1 and all(p.isdigit() for p in cap.split(".")):
            major, minor = cap.split(".")
            model.capability = (int(major), int(minor))
            model.bf16 = int(major) >= 8
        return model


class SimInfo:
    """The simulated device of a tensor (None: its real device) and where that device came from."""

    __slots__ = ("device", "origin", "neutral", "used", "__weakref__")

    def __init__(self, device: Optional[torch.device], origin: Optional[tuple] = None, neutral: bool = False) -> None:
        self.device = device
        self.origin = origin  # (filename, line, "created" | "moved") or None
        self.neutral = neutral  # made inside an ATen composite from another tensor's options
        self.used = False  # an op has read a tensor with this info (see `dropped_moves`)

    def __deepcopy__(self, memo) -> "SimInfo":
        return self  # a copy of a tensor (deepcopy of a model) is on the same device

    def __copy__(self) -> "SimInfo":
        return self

    def __reduce__(self):
        # Pickled only when a tensor is pickled outside a simulation: leave nothing of ours
        # in the file (an empty OrderedDict loads anywhere, `weights_only` included).
        return (collections.OrderedDict, ())


class _State(threading.local):
    explicit = 0  # > 0 while a user-level call names its target device (`.to("cpu")`)


STATE = _State()
MODEL = GpuModel()
CURRENT = {"device": 0}


def info_of(t: torch.Tensor) -> Optional[SimInfo]:
    return getattr(t, MARK, None)


def device_of(t: torch.Tensor) -> torch.device:
    """The device `t` has in the simulation (its real device when it was never simulated)."""
    info = getattr(t, MARK, None)
    if info is not None and info.device is not None:
        return info.device
    return REAL_DEVICE(t)


def is_neutral(t: torch.Tensor) -> bool:
    info = getattr(t, MARK, None)
    return info is not None and info.neutral


def is_simulated(t: torch.Tensor) -> bool:
    info = getattr(t, MARK, None)
    return info is not None and info.device is not None


def mark(t: torch.Tensor, info: SimInfo) -> torch.Tensor:
    try:
        object.__setattr__(t, MARK, info)
    except (AttributeError, TypeError):  # a tensor type without a __dict__: it stays on its real device
        pass
    return t


def cuda_device(index: Optional[int]) -> torch.device:
    """`cuda:index` (None: the current device), or PyTorch's error for a device that does not exist."""
    if index is None:
        index = CURRENT["device"]
    if not 0 <= index < MODEL.count:
        raise RuntimeError(BAD_ORDINAL)
    return torch.device("cuda", index)


def simulated_device(value) -> Optional[torch.device]:
    """A device argument as the simulation sees it (`"cuda"` is the current device); None for non-devices."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return cuda_device(value)
    if isinstance(value, str):
        value = torch.device(value)
    if not isinstance(value, torch.device):
        return None
    if value.type == "cuda":
        return cuda_device(value.index)
    return value
