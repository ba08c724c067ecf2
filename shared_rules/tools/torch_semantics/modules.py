"""The torch.nn module model: which classes hold parameters or buffers, built by instantiating them.

A module without parameters or buffers runs wherever its input is; one with state needs its
input on the device of that state. For each public `torch.nn` Module class we build an instance
with default (or the first workable typical) arguments and record:
  state        parameters or buffers in that instance ("params", "buffers" or none)
  state_if     [argument, position] of constructor arguments that add state when given
               (CrossEntropyLoss(weight=t), CrossEntropyLoss(t))
  state_unless boolean arguments that remove all state when flipped (LayerNorm(elementwise_affine=False))
  factory_kwargs  the constructor accepts device=/dtype=
  device_at    the position of `device` among the constructor's positional arguments (Linear(4, 4, True, dev))
  container    the state is its children's (Sequential, ModuleList, ModuleDict, wrappers)
"""
from __future__ import annotations

import inspect
import warnings

import torch
from torch import nn

_TYPICAL_ARGS = [(), (2,), (2, 2), (2, 2, 3), (2, 2, 2, 2), ((4, 4), 2), (4, 2), (1, (2, 2)), (4, 8, [4]),
                 ("LSTM", 2, 2), (lambda: nn.TransformerEncoderLayer(4, 2), 1),
                 (lambda: nn.TransformerDecoderLayer(4, 2), 1)]
# Classes whose state comes from the modules they are given.
_CONTAINERS = {"Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict", "DataParallel"}
_STATE_TENSOR_ARGS = ("weight", "pos_weight")


def _instance(cls):
    for args in _TYPICAL_ARGS:
        args = tuple(a() if callable(a) else a for a in args)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return cls(*args), args
        except Exception:  # noqa: BLE001 - these are not its arguments: try the next ones
            continue
    return None, None


def _state(module: nn.Module) -> str:
    if any(True for _ in module.parameters()):
        return "params"
    if any(b is not None for b in module.buffers()):
        return "buffers"
    return "none"


def _variant_state(cls, args, **kwargs) -> str | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _state(cls(*args, **kwargs))
    except Exception:  # noqa: BLE001 - the variant is not constructible this way
        return None


def module_record(cls) -> dict | None:
    try:
        sig = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        sig = None
    params = sig.parameters if sig is not None else {}
    record: dict = {"factory_kwargs": "device" in params and "dtype" in params}
    if cls.__name__ in _CONTAINERS or issubclass(cls, (nn.Sequential, nn.ModuleList, nn.ModuleDict)):
        record.update(state="children", container=True)
        return record
    instance, args = _instance(cls)
    if instance is None:
        record["state"] = "unknown"
        return record
    if not record["factory_kwargs"]:  # `**kwargs` handed on to a base class that takes them
        record["factory_kwargs"] = _variant_state(cls, args, device="cpu", dtype=torch.float32) is not None
    record["state"] = _state(instance)
    state_if, state_unless = [], []
    positions = [n for n in params if n != "self"]
    for name, p in params.items():
        if name in _STATE_TENSOR_ARGS and p.default is None:
            if _variant_state(cls, args, **{name: torch.ones(2)}) not in (None, "none"):
                state_if.append([name, positions.index(name)])
        elif isinstance(p.default, bool) and record["state"] != "none":
            if _variant_state(cls, args, **{name: not p.default}) == "none":
                state_unless.append(f"{name}={not p.default}")
    device = params.get("device")
    if device is not None and device.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
        record["device_at"] = positions.index("device")
    if state_if:
        record["state_if"] = state_if
    if state_unless:
        record["state_unless"] = state_unless
    return record


def module_classes() -> dict[str, type]:
    """{"torch.nn.Linear": Linear, ...}: the Module classes torch.nn exports."""
    found = {}
    for name in dir(nn):
        obj = getattr(nn, name)
        if not name.startswith("_") and isinstance(obj, type) and issubclass(obj, nn.Module):
            found[f"torch.nn.{name}"] = obj
    return found


def build_modules() -> dict[str, dict]:
    torch.manual_seed(0)
    return {qual: module_record(cls) for qual, cls in sorted(module_classes().items())}
