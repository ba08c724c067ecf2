"""What a value is, as the probe reports it: a tensor's device, dtype and shape, a module's
devices (split across devices, plain tensor attributes that `.to()` does not move), and
containers of tensors (kernel side: stdlib + torch only).

Why a module of its own: the recorder describes what each line assigned and the runner
describes the user's variables at the end of a cell, with the same words.
"""
from __future__ import annotations

from typing import Any, Optional

import torch

from . import simulated_gpu as sim

MAX_CONTAINER_ITEMS = 16
MAX_VARIABLES = 100


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).replace("torch.", "")


def device_name(t: torch.Tensor) -> str:
    return str(sim.device_of(t))


def describe(value: Any) -> Optional[dict]:
    """A JSON description of a tensor, module, or container of tensors; else None."""
    if isinstance(value, torch.Tensor):
        return {"kind": "tensor", "device": device_name(value), "dtype": dtype_name(value.dtype),
                "shape": list(value.shape)}
    if isinstance(value, torch.nn.Module):
        return describe_module(value)
    if isinstance(value, torch.device):
        return {"kind": "device", "device": str(value)}
    if isinstance(value, dict):
        items = [(str(k), v) for k, v in list(value.items())[: MAX_CONTAINER_ITEMS * 4]]
        return _describe_container("dict", items, len(value))
    if isinstance(value, (list, tuple)):
        items = [(str(i), v) for i, v in enumerate(value[: MAX_CONTAINER_ITEMS * 4])]
        return _describe_container(type(value).__name__ if type(value) in (list, tuple) else "tuple", items, len(value))
    return None


def _describe_container(kind: str, items: list, length: int) -> Optional[dict]:
    tensors = [(k, v) for k, v in items if isinstance(v, torch.Tensor)]
    if not tensors:
        return None
    devices = sorted({device_name(v) for _, v in tensors})
    return {
        "kind": kind, "length": length, "devices": devices,
        "items": {k: describe(v) for k, v in tensors[:MAX_CONTAINER_ITEMS]},
    }


def describe_module(module: torch.nn.Module) -> dict:
    devices: set = set()
    count = 0
    for p in module.parameters():
        devices.add(device_name(p))
        count += 1
    for b in module.buffers():
        devices.add(device_name(b))
    attributes = {}
    for mod_name, m in module.named_modules():
        for key, value in vars(m).items():
            if isinstance(value, torch.Tensor) and not key.startswith("_"):
                name = f"{mod_name}.{key}" if mod_name else key
                attributes[name] = device_name(value)
                if len(attributes) >= MAX_CONTAINER_ITEMS:
                    break
    ordered = sorted(devices, key=lambda d: (d != "cpu", d))
    out = {"kind": "module", "type": type(module).__name__, "devices": ordered, "parameters": count}
    if len(ordered) > 1:
        out["split"] = "split across " + " and ".join(ordered)
    if attributes:
        out["tensor_attributes"] = attributes
    return out


_HIDDEN = {"In", "Out", "exit", "quit", "get_ipython", "open"}


def user_variables(namespace: dict) -> dict:
    out = {}
    for name in sorted(namespace):
        if name.startswith("_") or name in _HIDDEN:
            continue
        info = describe(namespace[name])
        if info is not None:
            out[name] = info
            if len(out) >= MAX_VARIABLES:
                break
    return out
