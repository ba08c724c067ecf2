"""The Python half of the simulated GPU: what `torch.Tensor` and a few torch functions answer.

Why on the class: library code (nn.Module._apply, optimizers, torch.nn.functional,
Lightning) asks `t.device`, `t.is_cuda`, `t.to(...)` in its own Python; patching the
class while the simulation runs makes every caller see the simulated device.  Only
user-level entry points that *name* a target device (`.to()`, `.cuda()`, `.cpu()`,
`torch.tensor(..., device=)`) are wrapped: they set `STATE.explicit` so that the
dispatcher honours a move to the CPU (the tensor is on the CPU for real, so PyTorch
would otherwise return it unchanged).
"""
from __future__ import annotations

import contextlib
from typing import Any, Optional

import torch

from .origins import user_location
from .sim_state import STATE, SimInfo, cuda_device, device_of, info_of, is_simulated, mark, simulated_device

_Base = torch._C.TensorBase
NUMPY = "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
_TYPE_NAMES = {"Float": torch.float32, "Double": torch.float64, "Half": torch.float16, "BFloat16": torch.bfloat16,
               "Long": torch.int64, "Int": torch.int32, "Short": torch.int16, "Char": torch.int8,
               "Byte": torch.uint8, "Bool": torch.bool}


class Patches:
    """setattr that can be undone in reverse order (class attributes, module functions)."""

    def __init__(self) -> None:
        self._saved: list = []

    def set(self, owner: Any, name: str, value: Any) -> None:
        own = name in getattr(owner, "__dict__", {})
        self._saved.append((owner, name, own, owner.__dict__[name] if own else None))
        setattr(owner, name, value)

    def undo(self) -> None:
        while self._saved:
            owner, name, own, old = self._saved.pop()
            if own:
                setattr(owner, name, old)
            else:
                try:
                    delattr(owner, name)
                except AttributeError:
                    pass


@contextlib.contextmanager
def explicit_target():
    """The user named the target device: a move to the CPU is a move, not "stay where you are"."""
    STATE.explicit += 1
    try:
        yield
    finally:
        STATE.explicit -= 1


def parse_to(args: tuple, kwargs: dict) -> tuple:
    """(device, dtype, non_blocking, copy, memory_format) of a `Tensor.to(...)` call."""
    kwargs = dict(kwargs)
    copy = kwargs.pop("copy", False)
    if args and isinstance(args[0], torch.Tensor):
        other, rest = args[0], list(args[1:])
        non_blocking = rest.pop(0) if rest else kwargs.pop("non_blocking", False)
        copy = rest.pop(0) if rest else copy
        return device_of(other), other.dtype, non_blocking, copy, kwargs.get("memory_format")
    rest = list(args)
    flags = []
    while rest and isinstance(rest[-1], bool):
        flags.insert(0, rest.pop())
    if len(flags) >= 2:
        copy = flags[1]
    if flags:
        rest.append(flags[0])
    device, dtype, non_blocking, memory_format = torch._C._nn._parse_to(*rest, **kwargs)
    return device, dtype, non_blocking, copy, memory_format


def move(t: torch.Tensor, device: Optional[torch.device], dtype=None, non_blocking=False, copy=False,
         memory_format=None) -> torch.Tensor:
    """`t.to(device, dtype)` as a GPU machine does it: `t` itself when nothing changes, else a copy."""
    src = device_of(t)
    dst = simulated_device(device) if device is not None else src
    kwargs: dict = {"non_blocking": non_blocking}
    if dtype is not None:
        kwargs["dtype"] = dtype
    if memory_format is not None:
        kwargs["memory_format"] = memory_format
    if dst == src:
        return _Base.to(t, copy=copy, **kwargs)
    with explicit_target():
        return _Base.to(t, device=dst if dst.type == "cuda" else dst, copy=True, **kwargs)


def _to(self, *args, **kwargs):
    device, dtype, non_blocking, copy, memory_format = parse_to(args, kwargs)
    return move(self, device, dtype, non_blocking, copy, memory_format)


def _cuda(self, device=None, non_blocking=False, memory_format=torch.preserve_format):
    index = device if isinstance(device, int) or device is None else torch.device(device).index
    return move(self, cuda_device(index), non_blocking=non_blocking,
                memory_format=None if memory_format is torch.preserve_format else memory_format)


def _cpu(self, memory_format=torch.preserve_format):
    return move(self, torch.device("cpu"), memory_format=None if memory_format is torch.preserve_format else memory_format)


def _type(self, dtype=None, non_blocking=False, **kwargs):
    if dtype is None:
        if not is_simulated(self):
            return _Base.type(self)
        name = _Base.type(self)  # "torch.FloatTensor"
        return name if ".cuda." in name else name.replace("torch.", "torch.cuda.", 1)
    name = dtype if isinstance(dtype, str) else f"{getattr(dtype, '__module__', '')}.{getattr(dtype, '__name__', '')}"
    if isinstance(dtype, torch.dtype):
        return move(self, None, dtype, non_blocking)
    parts = name.split(".")
    if parts[:2] == ["torch", "cuda"] and parts[-1].endswith("Tensor"):
        return move(self, cuda_device(None), _TYPE_NAMES.get(parts[-1][: -len("Tensor")]), non_blocking)
    if parts[0] == "torch" and len(parts) == 2 and parts[-1].endswith("Tensor"):
        return move(self, torch.device("cpu"), _TYPE_NAMES.get(parts[-1][: -len("Tensor")]), non_blocking)
    return _Base.type(self, dtype, non_blocking, **kwargs)


def _numpy(self, *, force=False):
    if is_simulated(self) and not force:
        raise TypeError(NUMPY.format(device_of(self)))
    return _Base.numpy(_cpu(self) if is_simulated(self) else self, force=force)


def _get_device(self):
    dev = device_of(self)
    return -1 if dev.type == "cpu" else dev.index


def _pin_memory(self, device=None):
    if is_simulated(self):
        raise RuntimeError("cannot pin '{}' only dense CPU tensors can be pinned".format(_type(self)))
    object.__setattr__(self, "_tp_pinned", True)
    return self


def _is_pinned(self, device=None):
    return bool(getattr(self, "_tp_pinned", False))


def _type_as(self, other):
    return move(self, device_of(other), other.dtype)


def _new_tensor(self, data, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if isinstance(data, torch.Tensor):
        data = data.detach()
    with explicit_target():
        out = torch.tensor(data, dtype=dtype or self.dtype, device=device if device is not None else device_of(self),
                           requires_grad=requires_grad)
    return out


def _data_get(self):
    data = _Base.data.__get__(self)
    info = info_of(self)
    if info is not None:
        mark(data, info)
    return data


def _data_set(self, value):
    _Base.data.__set__(self, value)
    info = info_of(value)
    if info is not None:
        mark(self, info)
    elif info_of(self) is not None:
        mark(self, SimInfo(None, None))


def _from_data(original, device_position: Optional[int]):
    """torch.tensor / as_tensor / asarray / sparse_*_tensor build from Python data with the
    dispatcher's Python key excluded (torch/csrc/utils/tensor_new.cpp `internal_new_from_data`),
    so the simulated device is applied here: build on the CPU, then mark (no copy: the values
    are on the CPU anyway, and a `requires_grad=True` result stays a leaf)."""
    def factory(*args, **kwargs):
        args = list(args)
        if "device" in kwargs:
            device = kwargs.pop("device")
        elif device_position is not None and len(args) > device_position:
            device = args.pop(device_position)
        else:
            device = None
        data = args[0] if args else kwargs.get("data")
        source = device_of(data) if isinstance(data, torch.Tensor) else None
        target = simulated_device(device) if device is not None else source
        if target is None or (target.type != "cuda" and (source is None or source.type != "cuda")):
            return original(*args, **kwargs, **({"device": device} if device is not None else {}))
        if source is not None and source != target:  # across devices: a copy, as on a GPU
            data = move(data, target)
            if args:
                args[0] = data
            else:
                kwargs["data"] = data
        with explicit_target():
            out = original(*args, **kwargs, device="cpu")
        if target.type == "cuda":
            if source is None:
                from .sim_dispatch import _note_transfer
                _note_transfer(torch.device("cpu"), target, out)
            shared = info_of(data) if isinstance(data, torch.Tensor) else None
            mark(out, shared if shared is not None and shared.device == target else
                 SimInfo(target, user_location("created")))
        return out
    factory.__name__ = original.__name__
    factory.__doc__ = original.__doc__
    return factory


class _LegacyCudaType(type):
    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, torch.Tensor) and is_simulated(obj) and obj.dtype == cls.dtype


def _legacy_cuda_types() -> dict:
    """torch.cuda.FloatTensor & co. (their C++ constructors refuse to run without CUDA)."""
    types = {}
    for name, dtype in _TYPE_NAMES.items():
        cpu_type = getattr(torch, f"{name}Tensor", None)
        if cpu_type is None:
            continue

        def __new__(cls, *args, _cpu_type=cpu_type, **kwargs):
            out = _cpu_type(*args, **kwargs)
            return mark(out, SimInfo(cuda_device(None), user_location("created")))

        types[f"{name}Tensor"] = _LegacyCudaType(f"{name}Tensor", (), {
            "__new__": __new__, "dtype": dtype, "is_cuda": True, "__module__": "torch.cuda"})
    return types


def _parameter_new(original_new):
    """nn.Parameter(t) makes a new Python object: it keeps t's device."""
    def __new__(cls, data=None, requires_grad=True):
        param = original_new(cls, data, requires_grad)
        info = info_of(data) if isinstance(data, torch.Tensor) else None
        if info is not None:
            mark(param, info)
        return param
    return staticmethod(__new__)


def install(patches: Patches) -> None:
    """Patch the Python surface (undone by `patches.undo()`)."""
    T = torch.Tensor
    for name, value in (
        ("device", property(device_of, doc=_Base.device.__doc__)),
        ("is_cuda", property(lambda self: device_of(self).type == "cuda")),
        ("is_cpu", property(lambda self: device_of(self).type == "cpu")),
        ("data", property(_data_get, _data_set)),
        ("to", _to), ("cuda", _cuda), ("cpu", _cpu), ("type", _type), ("numpy", _numpy),
        ("get_device", _get_device), ("pin_memory", _pin_memory), ("is_pinned", _is_pinned),
        ("type_as", _type_as), ("new_tensor", _new_tensor),
        ("record_stream", lambda self, stream: None),
    ):
        patches.set(T, name, value)
    for name, position in (("tensor", None), ("as_tensor", 2), ("asarray", None), ("sparse_coo_tensor", 3),
                           ("sparse_csr_tensor", None), ("sparse_csc_tensor", None), ("sparse_bsr_tensor", None),
                           ("sparse_bsc_tensor", None), ("sparse_compressed_tensor", None)):
        if hasattr(torch, name):
            patches.set(torch, name, _from_data(getattr(torch, name), position))
    for name, legacy in _legacy_cuda_types().items():
        patches.set(torch.cuda, name, legacy)
    patches.set(torch.nn.Parameter, "__new__", _parameter_new(torch.nn.Parameter.__new__))
