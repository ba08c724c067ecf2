"""The ATen-level half of the simulated GPU: every op's device check and result device.

Why at the dispatcher: there every call has become the ATen op a CUDA build would run
(composites such as `cross_entropy` are already decomposed into `log_softmax` and
`nll_loss_forward`), so the op's own check from PyTorch's registry applies
(`device_rules`).  Values are computed by the same op on the CPU tensors.

The same mode runs without simulation on a real GPU (or the CPU) when the probe
wants root causes: it then only records where each tensor's device came from, and
names the offending operand of a device error PyTorch raised.
"""
from __future__ import annotations

import re
from typing import Any, Optional

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from . import device_rules, sim_composites
from .origins import note_move, user_location
from .sim_state import CPU, MARK, REAL_DEVICE, STATE, SimInfo, cuda_device, device_of, is_neutral, mark

aten = torch.ops.aten
_TO_COPY = aten._to_copy.default
_COPY = {aten.copy_.default, aten._copy_from.default, aten._copy_from_and_resize.default}
_SET_STORAGE = {aten.set_.source_Storage, aten.set_.source_Storage_storage_offset}
_HOST_ARGUMENT = {getattr(aten, name) for name in device_rules.HOST_ARGUMENT_RULES}  # overload packets
HOOKS: dict = {"transfer": None}  # the recorder's on_transfer(src, dst, nbytes)
_GENERATOR = "Expected a '{}' device type for generator but found '{}'"
_GOT_ARG = re.compile(r"but got (\w+) is on (\S+), different from other tensors on (\S+) ")
_TWO_DEVICES = re.compile(r"found at least two devices, (\S+) and (\S+?)!")


def _note_transfer(src: torch.device, dst: torch.device, t: torch.Tensor) -> None:
    hook = HOOKS["transfer"]
    if hook is not None and src != dst:
        hook(src, dst, t.numel() * t.element_size())


def _outputs(out: Any) -> list:
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        found = []
        for o in out:
            found.extend(_outputs(o))
        return found
    return []


def _apply_marks(out: Any, device, shared: Optional[SimInfo]) -> None:
    """Give each output its device: `device` (one for all, or a list per output)."""
    tensors = _outputs(out)
    devices = device if isinstance(device, list) else [device] * len(tensors)
    for t, dev in zip(tensors, devices):
        if dev is None:
            continue
        sim_dev = dev if dev.type == "cuda" else None
        current = getattr(t, MARK, None)
        if current is not None and not current.neutral and current.device == sim_dev:
            continue
        if shared is not None and shared.device == sim_dev and not shared.neutral:
            mark(t, shared)
        elif sim_dev is not None or current is not None:
            mark(t, SimInfo(sim_dev, shared.origin if shared is not None else None))


def _check_generator(args: tuple, kwargs: dict, device: Optional[torch.device]) -> None:
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    gen = kwargs.get("generator")
    if gen is None:
        gen = next((a for a in args if isinstance(a, torch._C.Generator)), None)
    if gen is None or device is None or not sim_composites.generator_check_at_dispatch():
        return
    gen_type = gen.device  # a CPU generator: simulated CUDA ones are checked above the dispatcher
    if gen_type.type != device.type:
        raise RuntimeError(_GENERATOR.format(device.type, gen_type.type))


_UNSET = object()


def _scan(args: tuple, kwargs: dict) -> tuple:
    """(device key, a SimInfo on that device, mixed?, any neutral?) over the op's tensors.
    The key is the simulated device, or None for a tensor on its real device."""
    key: Any = _UNSET
    shared: Optional[SimInfo] = None
    mixed = neutral = False
    for group in ((args, kwargs.values()) if kwargs else (args,)):
        for a in group:
            if isinstance(a, torch.Tensor):
                items: Any = (a,)
            elif isinstance(a, (list, tuple)):
                items = a
            else:
                continue
            for t in items:
                if not isinstance(t, torch.Tensor):
                    continue
                info = getattr(t, MARK, None)
                if info is not None:
                    info.used = True
                    if info.neutral:
                        neutral = True
                        continue
                dev = info.device if info is not None else None
                if key is _UNSET:
                    key, shared = dev, info
                elif dev != key:
                    mixed = True
                elif shared is None:
                    shared = info
    return key, shared, mixed, neutral


class SimulatedDispatch(TorchDispatchMode):
    """`simulate`: play CUDA devices on CPU tensors; otherwise only track device origins."""

    def __init__(self, simulate: bool = True) -> None:
        super().__init__()
        self.simulate = simulate

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        kwargs = kwargs or {}
        target = kwargs.get("device")
        if target is not None:
            return self._with_device(func, args, kwargs, target)
        key, shared, mixed, neutral = _scan(args, kwargs)
        if mixed or (key is not None and key is not _UNSET and self.simulate
                     and func.overloadpacket in _HOST_ARGUMENT):
            return self._checked(func, args, kwargs)
        if self.simulate and "generator" in kwargs:
            _check_generator(args, kwargs, key if key not in (None, _UNSET) else CPU)
        out = self._run(func, args, kwargs)
        if func in _SET_STORAGE:
            return self._set_storage(out, args)
        if neutral and self.simulate and key is not _UNSET and key is not None:
            _settle_neutral(func, args, key)
        if key is _UNSET:
            if neutral:
                _apply_neutral(out, args)
        elif key is not None or shared is not None:
            _apply_marks(out, key if key is not None else CPU, shared)
        return out

    def _run(self, func, args, kwargs):
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        if self.simulate:
            return func(*args, **kwargs)
        try:
            return func(*args, **kwargs)
        except RuntimeError as exc:
            _name_operand(exc, func, args, kwargs)
            raise

    def _checked(self, func, args, kwargs):
        """Tensors on different devices: the op's own check decides (device_rules)."""
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        if not self.simulate:
            return self._run(func, args, kwargs)
        ops = device_rules.operands(func, args, kwargs, device_of, is_neutral)
        result = device_rules.result_device(func, ops)
        first = result[0] if isinstance(result, list) and result else result
        _check_generator(args, kwargs, first if isinstance(first, torch.device) else None)
        if func in _COPY and len(ops) >= 2:
            _note_transfer(ops[1].device, ops[0].device, ops[1].tensor)
        out = func(*args, **kwargs)
        if result is None:
            return out
        shared = next((getattr(o.tensor, MARK, None) for o in ops if o.device == first and not o.neutral
                       and getattr(o.tensor, MARK, None) is not None), None)
        _apply_marks(out, result, shared)
        return out

    def _with_device(self, func, args, kwargs, target):
        """Factories (`zeros(..., device=)`) and moves (`_to_copy(x, device=)`)."""
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        source = args[0] if func is _TO_COPY and args else None
        src_dev = device_of(source) if source is not None else None
        if source is not None and getattr(source, MARK, None) is not None:
            getattr(source, MARK).used = True
        if target.type == "cuda" and self.simulate:
            dev = cuda_device(target.index)
            kwargs = dict(kwargs, device=CPU)
        elif target.type == "cpu" and source is not None and not STATE.explicit and self.simulate:
            # A C++ composite asked for "the device of a tensor" it believes is on the CPU:
            # on a GPU that tensor, and the copy, would be on the source's device.
            dev = src_dev
        else:
            dev = target
        if self.simulate:
            _check_generator(args, kwargs, dev)
        out = self._run(func, args, kwargs)
        sim_dev = dev if dev.type == "cuda" and self.simulate else None
        if source is not None:
            if dev == src_dev:
                shared = getattr(source, MARK, None)
                if shared is not None:
                    _apply_marks(out, dev, shared)
                return out
            _note_transfer(src_dev, dev, source)
            origin = user_location("moved")
            copy_info = SimInfo(sim_dev, origin)
            note_move(source, origin, dev, out if isinstance(out, torch.Tensor) else None, copy_info)
            if sim_dev is not None or origin is not None:
                _apply_marks(out, dev, copy_info)
            return out
        neutral = (self.simulate and dev.type == "cpu" and "layout" in kwargs and "pin_memory" not in kwargs
                   and not STATE.explicit)
        origin = user_location("created")
        if sim_dev is not None or origin is not None or neutral:
            info = SimInfo(sim_dev, origin, neutral)
            for t in _outputs(out):
                mark(t, info)
        return out

    def _set_storage(self, out, args):
        """`t.set_(storage, ...)`: torch.load's rebuild of a tensor whose storage it restored."""
        storage = args[1] if len(args) > 1 else None
        dev = getattr(storage, "_tp_device", None)  # sim_serialization.STORAGE_MARK
        if dev is not None:
            mark(out, SimInfo(dev, user_location("created")))
        return out


def _settle_neutral(func, args: tuple, device: torch.device) -> None:
    """An in-place op (`copy_`) wrote a tensor on `device` into a neutral one: the composite that
    made it from another tensor's options (`at::full(size, value, data.options())` in
    PackedSequence.cpp `_pad_packed_sequence`, filled by `output.slice(...).copy_(data.slice(...))`)
    made it on that device.  The neutral SimInfo is shared with the views of that tensor, so
    settling it here settles the tensor the composite returns."""
    schema = func._schema.arguments
    target = args[0] if args and isinstance(args[0], torch.Tensor) else None
    info = getattr(target, MARK, None) if target is not None else None
    alias = schema[0].alias_info if schema else None
    if info is not None and info.neutral and alias is not None and alias.is_write:
        info.device, info.neutral = device, False


def _apply_neutral(out, args) -> None:
    """Every tensor argument was neutral: the result is too."""
    info = next((getattr(a, MARK, None) for a in args if isinstance(a, torch.Tensor)), None)
    if info is not None:
        for t in _outputs(out):
            if getattr(t, MARK, None) is None:
                mark(t, info)


def _name_operand(exc: RuntimeError, func, args, kwargs) -> None:
    """On a real device, find the tensor PyTorch's device error is about."""
    message = str(exc)
    got = _GOT_ARG.search(message)
    two = _TWO_DEVICES.search(message) if got is None else None
    if got is None and two is None:
        return
    ops = device_rules.operands(func, args, kwargs, REAL_DEVICE, lambda t: False)
    for o in ops:
        if (got is not None and o.name == got.group(1) and str(o.device) == got.group(2)) or \
                (two is not None and str(o.device) == two.group(2)):
            exc.torchplace_operand = o  # type: ignore[attr-defined]
            return
