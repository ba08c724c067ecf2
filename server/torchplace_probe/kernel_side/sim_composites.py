"""Calls whose device logic PyTorch decides above the dispatcher, simulated at the same level.

Why: a few CompositeImplicitAutograd functions read a tensor's device in C++ before
any ATen op runs (the recurrent layers check their hidden states and weights first;
`ctc_loss` moves CPU targets to the GPU "as a service"); generators carry a device
that ATen ops check; autocast and Python threads carry state the simulation must
follow.  Each stand-in cites the code it mirrors.
"""
from __future__ import annotations

import threading
from typing import Any, Optional

import torch
from torch.overrides import TorchFunctionMode

from .device_rules import Operand, mismatch
from .sim_state import device_of, simulated_device

RNN = "Input and {} tensors are not at the same device, found input tensor at {} and {} tensor at {}"
GENERATOR = "Expected a '{}' device type for generator but found '{}'"
GENERATORS = {"cuda": 0}  # how many generators on a simulated GPU exist (see `generator_check_at_dispatch`)


def _rnn(original):
    """aten/src/ATen/native/RNN.cpp `check_attributes`: hidden states, then weights, against the input."""
    def rnn(*args, **kwargs):
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        packed = len(args) > 3 and isinstance(args[1], torch.Tensor) and isinstance(args[3], (list, tuple))
        inp, hx, params = (args[0], args[2], args[3]) if packed else (args[0], args[1], args[2])
        dev = device_of(inp)
        hidden = [hx] if isinstance(hx, torch.Tensor) else list(hx or [])
        for name, group in (("hidden", hidden), ("parameter", list(params or []))):
            for t in group:
                if isinstance(t, torch.Tensor) and device_of(t) != dev:
                    ops = [Operand("input", inp, dev, False, False, True, False, -1),
                           Operand(name, t, device_of(t), False, False, True, False, -1)]
                    raise mismatch(RNN.format(name, dev, name, device_of(t)), ops[1], operands=ops)
        return original(*args, **kwargs)
    return rnn


def _ctc_loss(original):
    """aten/src/ATen/native/LossCTC.cpp `ctc_loss_impl`: "if the targets are on CPU ... move them
    to GPU as a service for the user" (`targets.to(log_probs.device(), kLong)`)."""
    def ctc_loss(log_probs, targets, *args, **kwargs):
        dev = device_of(log_probs)
        if dev.type == "cuda":
            # Lengths may be tensors on any device (the CUDA path reads them on the host; see
            # pytorch/pytorch#22234 and #152745): where they live never raises on a GPU.
            targets, *args = [a.to(dev) if isinstance(a, torch.Tensor) else a for a in (targets, *args)]
        return original(log_probs, targets, *args, **kwargs)
    return ctc_loss


class _GeneratorType(type(torch._C.Generator)):
    def __instancecheck__(cls, obj: Any) -> bool:  # torch.default_generator is a torch.Generator too
        return isinstance(obj, torch._C.Generator)


class SimGenerator(torch._C.Generator, metaclass=_GeneratorType):
    """`torch.Generator(device="cuda")`: a CPU generator that reports its simulated device."""

    def __new__(cls, device: Any = "cpu"):
        dev = simulated_device(device) or torch.device("cpu")
        gen = super().__new__(cls, "cpu")
        gen._tp_device = dev
        if dev.type == "cuda":
            GENERATORS["cuda"] += 1
            GeneratorCheck.ensure()
        return gen

    @property
    def device(self) -> torch.device:
        return self._tp_device


def _op_device(args: tuple, kwargs: dict) -> torch.device:
    device = kwargs.get("device")
    if device is not None:
        return simulated_device(device) or torch.device("cpu")
    tensor = next((a for a in args if isinstance(a, torch.Tensor)), None)
    if tensor is not None:
        return device_of(tensor)
    return simulated_device(torch.get_default_device()) or torch.device("cpu")


class GeneratorCheck(TorchFunctionMode):
    """ATen's `check_generator`: a generator's device type must be the op's (pushed once a
    simulated CUDA generator exists, since at the dispatcher every generator looks like a CPU one)."""

    active: Optional["GeneratorCheck"] = None

    @classmethod
    def ensure(cls) -> None:
        if cls.active is None:
            cls.active = cls()
            cls.active.__enter__()

    @classmethod
    def release(cls) -> None:
        if cls.active is not None:
            mode, cls.active = cls.active, None
            try:
                mode.__exit__(None, None, None)
            except Exception:  # noqa: BLE001 - popped already (a mode stack reset)
                pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        kwargs = kwargs or {}
        gen = kwargs.get("generator")
        if isinstance(gen, torch._C.Generator):
            gen_dev = getattr(gen, "_tp_device", None) or torch.device("cpu")
            op_dev = _op_device(args, kwargs)
            if gen_dev.type != op_dev.type:
                raise RuntimeError(GENERATOR.format(op_dev.type, gen_dev.type))
        return func(*args, **kwargs)


def generator_check_at_dispatch() -> bool:
    """With no simulated CUDA generator around, any generator the dispatcher sees is a CPU one."""
    return GENERATORS["cuda"] == 0


GROUPING = ("Tensors of the same index must be on the same device and the same dtype except `step` tensors that "
            "can be CPU and float32/64, and optimizer states that can be bfloat16 for mixed-precision training")


def _foreach_grouping(original):
    """aten/src/ATen/native/ForeachUtils.h `_group_tensors_by_first_tensors_device_and_dtype` (the
    optimizers' and clip_grad_norm_'s grouping): the tensors of one index share a device (0-dim CPU
    `step` tensors excepted); groups are keyed by the simulated device."""
    def group(tensorlistlist, with_indices=False):
        first = tensorlistlist[0]
        for i, t in enumerate(first):
            if t is None:
                continue
            dev = device_of(t)
            for other in tensorlistlist[1:]:
                u = other[i] if other and i < len(other) else None
                if u is not None and device_of(u) != dev and not (device_of(u).type == "cpu" and u.dim() == 0):
                    raise RuntimeError(GROUPING)
        regrouped: dict = {}
        for (_real, dtype), (lists, indices) in original(tensorlistlist, with_indices).items():
            for j, t in enumerate(lists[0]):
                entry = regrouped.setdefault((device_of(t), dtype), ([[] for _ in lists], []))
                for k, values in enumerate(lists):
                    if values:
                        entry[0][k].append(values[j])
                if indices:
                    entry[1].append(indices[j])
        return regrouped
    return group


def _autocast_enter(original):
    """autocast("cuda") also turns on CPU autocast with the same dtype, so that the CPU kernels
    behind the simulation return the lower-precision dtypes a GPU would."""
    def __enter__(self):
        out = original(self)
        if self.device == "cuda" and getattr(self, "_enabled", False):
            companion = torch.autocast("cpu", dtype=self.fast_dtype, enabled=True)
            self.__dict__["_tp_cpu_autocast"] = companion
            companion.__enter__()
        return out
    return __enter__


def _autocast_exit(original):
    def __exit__(self, *exc):
        companion = self.__dict__.pop("_tp_cpu_autocast", None)
        if companion is not None:
            companion.__exit__(*exc)
        return original(self, *exc)
    return __exit__


def _thread_run(original, make_mode):
    """Threads started under the simulation (DataParallel's workers, a pin-memory thread) simulate too."""
    def run(self):
        mode = make_mode()
        if mode is None:
            return original(self)
        with mode:
            return original(self)
    return run


def composite_api(make_mode) -> dict:
    """(owner, attribute) -> stand-in for the calls above."""
    import torch.amp.autocast_mode as amp

    table: dict = {}
    for name in ("lstm", "gru", "rnn_tanh", "rnn_relu"):
        table[(torch._VF, name)] = _rnn(getattr(torch._VF, name))
        table[(torch, name)] = _rnn(getattr(torch, name))
    table[(torch, "ctc_loss")] = _ctc_loss(torch.ctc_loss)
    table[(torch, "Generator")] = SimGenerator
    table[(amp.autocast, "__enter__")] = _autocast_enter(amp.autocast.__enter__)
    table[(amp.autocast, "__exit__")] = _autocast_exit(amp.autocast.__exit__)
    table[(threading.Thread, "run")] = _thread_run(threading.Thread.run, make_mode)
    import torch.nn.utils.clip_grad as clip_grad
    import torch.optim.optimizer as optimizer
    import torch.utils._foreach_utils as foreach_utils

    for module in (foreach_utils, optimizer, clip_grad):
        if hasattr(module, "_group_tensors_by_device_and_dtype"):
            table[(module, "_group_tensors_by_device_and_dtype")] = _foreach_grouping(
                foreach_utils._group_tensors_by_device_and_dtype)
    return table
