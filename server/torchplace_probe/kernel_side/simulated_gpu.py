"""A simulated GPU for machines without one (kernel side: stdlib + torch only).

Why: the probe, `torchplace run` and `pytest --simulate-gpu` must hit the device
errors a job would hit on a GPU machine, on a laptop or a CI runner, and must not
stop code that runs fine on a GPU.  `simulation()` turns the running process into
one with `GpuModel.count` CUDA devices whose tensors are CPU tensors underneath:

* `sim_dispatch`: every ATen op checks devices as its CUDA kernel does, from
  PyTorch's own registry (`device_rules`, `op_registry`), and places its result;
* `sim_surface`: `Tensor.device`, `.to()`, `.cuda()`, `.numpy()` ... answer as on a GPU;
* `sim_cuda_api`: the `torch.cuda` runtime (properties, streams, events, memory, RNG)
  and DataParallel's device communication;
* `sim_composites`: recurrent layers, `ctc_loss`, generators, autocast, threads;
* `sim_serialization`: `torch.save` writes ordinary GPU checkpoints, `torch.load` reads them.

Values are real, so code that branches on values runs, and autograd and
optimizers work.  `origin_tracking()` runs the same dispatcher without simulation
(on a real GPU) to name the root cause of device errors.
"""
from __future__ import annotations

import contextlib
from typing import Callable, Iterator, Optional

import torch

from . import origins, sim_composites, sim_cuda_api, sim_dispatch, sim_serialization, sim_surface, sim_state
from .sim_state import CPU, GpuModel, device_of, is_simulated  # noqa: F401 - the kernel side's API

CUDA0 = torch.device("cuda", 0)
SIMULATED_DEVICE_NAME = sim_state.MODEL.name
_ACTIVE: dict = {"depth": 0, "patches": None, "mode": None}


def set_transfer_hook(hook: Optional[Callable]) -> Optional[Callable]:
    """Route every host/device copy to `hook(src, dst, nbytes)`; returns the previous hook."""
    previous = sim_dispatch.HOOKS["transfer"]
    sim_dispatch.HOOKS["transfer"] = hook
    return previous


def _thread_mode():
    mode = _ACTIVE["mode"]
    return sim_dispatch.SimulatedDispatch(mode.simulate) if mode is not None else None


def is_active() -> bool:
    return _ACTIVE["depth"] > 0


@contextlib.contextmanager
def simulation(model: Optional[GpuModel] = None, track_origins: bool = False,
               user_filter: Optional[Callable[[str], bool]] = None) -> Iterator[None]:
    """Run the body with simulated CUDA devices (re-entrant: an inner call changes nothing)."""
    if _ACTIVE["depth"]:
        _ACTIVE["depth"] += 1
        try:
            yield
        finally:
            _ACTIVE["depth"] -= 1
        return
    if model is not None:
        sim_state.MODEL.__dict__.update(model.__dict__)
    patches = sim_surface.Patches()
    tables = (sim_cuda_api.cuda_api(), sim_cuda_api.accelerator_api(), sim_cuda_api.comm_api(), sim_composites.composite_api(_thread_mode),
              sim_serialization.serialization_api())
    previous_track = dict(origins.TRACK)
    mode = sim_dispatch.SimulatedDispatch(simulate=True)
    try:
        sim_surface.install(patches)
        for table in tables:
            for (owner, name), value in table.items():
                patches.set(owner, name, value)
        if track_origins:
            patches.set(torch.nn.Module, "__setattr__", origins.tracking_setattr(torch.nn.Module.__setattr__))
        origins.TRACK.update(origins=track_origins, user_filter=user_filter)
        _ACTIVE.update(depth=1, patches=patches, mode=mode)
        with mode:
            yield
    finally:
        _ACTIVE.update(depth=0, patches=None, mode=None)
        sim_composites.GeneratorCheck.release()
        patches.undo()
        origins.TRACK.update(previous_track)
        sim_state.CURRENT["device"] = 0


@contextlib.contextmanager
def origin_tracking(user_filter: Optional[Callable[[str], bool]] = None) -> Iterator[None]:
    """Record where each tensor's device came from, without simulating (a real GPU, or the CPU)."""
    if _ACTIVE["depth"]:
        yield
        return
    previous_track = dict(origins.TRACK)
    origins.TRACK.update(origins=True, user_filter=user_filter)
    mode = sim_dispatch.SimulatedDispatch(simulate=False)
    patches = sim_surface.Patches()
    patches.set(torch.nn.Module, "__setattr__", origins.tracking_setattr(torch.nn.Module.__setattr__))
    _ACTIVE.update(mode=mode)
    try:
        with mode:
            yield
    finally:
        _ACTIVE.update(mode=None)
        patches.undo()
        origins.TRACK.update(previous_track)


def operand_of(exc: BaseException):
    """The tensor argument a device error is about (device_rules.Operand), if known."""
    return getattr(exc, "torchplace_operand", None)


def _culprit(exc: BaseException):
    """The operand to blame: the one PyTorch names, unless it is the GPU one and another operand
    of the op is a (non-scalar) CPU tensor: on a GPU machine that is the one left behind."""
    operand = operand_of(exc)
    if operand is None or operand.device.type == "cpu":
        return operand
    for other in getattr(exc, "torchplace_operands", None) or []:
        if other.device.type == "cpu" and not other.neutral and other.tensor.dim() > 0:
            return other
    return operand


def root_cause(exc: BaseException) -> Optional[dict]:
    """Where the offending operand got its device: {file, line, kind, operand, device}."""
    operand = _culprit(exc)
    if operand is None:
        return None
    info = sim_state.info_of(operand.tensor)
    out = {"operand": operand.name, "device": str(operand.device)}
    created = ({"file": info.origin[0], "line": info.origin[1], "kind": info.origin[2]}
               if info is not None and info.origin is not None else None)
    moved = origins.discarded_move(operand.tensor, info)
    hidden = origins.hidden_attribute(operand.tensor)
    if moved is not None and moved[2] != str(operand.device):
        out.update(file=moved[0], line=moved[1], kind="move-discarded", moved_to=moved[2])
    elif hidden is not None:
        owner, name, file, line = hidden
        out.update(file=file, line=line, kind="hidden-attribute", owner=owner, attribute=name)
    elif created is not None:
        out.update(created)
        return out
    if created is not None:
        out["created"] = created
    return out
