"""Argument roles of composite ops and Python wrappers, derived by running them.

A composite (CompositeImplicit/ExplicitAutograd) op or a Python function such as
`torch.nn.functional.cross_entropy` has no device check of its own: it checks devices
wherever its arguments reach a kernel that does. We run it once on small CPU tensors under a
`TorchDispatchMode` that steps into CompositeExplicitAutograd kernels (CompositeImplicit ones
decompose before the mode sees them) and records every leaf kernel call with the inputs each
tensor argument derives from. For each parameter P we then ask: in the world where P alone is
on the CPU and every other tensor input on the accelerator, where do P-derived tensors meet the
others, and what role (contracts.py) does that leaf kernel give them there? The strictest
meeting wins; a parameter that meets nothing is free (`f`: only its size or options are read)
or, when it only reaches `item()`, read as a number (`n`).
The result's device follows the parameters the returned tensors derive from.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from . import aten
from .contracts import KERNEL_ROLES

# Strictest first when a parameter meets others in several kernels.
STRICTNESS = {"c": 7, "s": 6, "?": 5, "s1": 4, "z": 3, "i": 2, "n": 1, "f": 0}
WILDCARD = frozenset(["~"])
_READS_NUMBER = {"_local_scalar_dense", "item"}
_COMPOSITE_KEYS = (torch._C.DispatchKey.CompositeExplicitAutograd,
                   torch._C.DispatchKey.CompositeExplicitAutogradNonFunctional)


def overload_name(func) -> str:
    schema = func._schema
    base = schema.name.split("::", 1)[1]
    return f"{base}.{schema.overload_name}" if schema.overload_name else base


def tensors_in(value) -> list[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    return []


def leaf_roles(func, args, kwargs) -> list[tuple[torch.Tensor, str]]:
    """Each tensor argument of a leaf kernel call with the role that kernel gives it."""
    name = overload_name(func)
    check = aten.check(name)
    curated = KERNEL_ROLES.get(name, ({}, ""))[0]
    found = []
    for i, arg in enumerate(func._schema.arguments):
        value = args[i] if i < len(args) else kwargs.get(arg.name)
        for tensor in tensors_in(value):
            written = arg.alias_info is not None and arg.alias_info.is_write
            found.append((tensor, curated.get(arg.name) or aten.default_role(check, arg.kwarg_only, arg.is_out, written)))
    return found


@dataclass
class Trace:
    calls: list[list[tuple[frozenset, str]]] = field(default_factory=list)
    ops: list[str] = field(default_factory=list)  # the leaf kernel of each call
    result_origin: frozenset = frozenset()


class _Recorder(TorchDispatchMode):
    def __init__(self, origins: dict[int, frozenset]) -> None:
        super().__init__()
        self.origins = origins
        self.keep: list = []  # keeps traced tensors alive so their ids stay unique
        self.trace = Trace()
        self.stepping_into: list = []  # composite kernels being run (one may call itself)

    def origin(self, tensor: torch.Tensor) -> frozenset:
        return self.origins.get(id(tensor), frozenset())

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = func.name()
        leaf = overload_name(func) in KERNEL_ROLES  # a hand-read composite: its roles are known
        if aten.check(overload_name(func)) == "composite" and not leaf and func not in self.stepping_into:
            for key in _COMPOSITE_KEYS:
                if torch._C._dispatch_has_kernel_for_dispatch_key(name, key):
                    self.stepping_into.append(func)
                    try:
                        with self:
                            return func._op_dk(key, *args, **kwargs)
                    finally:
                        self.stepping_into.pop()
        roles = leaf_roles(func, args, kwargs)
        self.trace.calls.append([(self.origin(t), role) for t, role in roles])
        self.trace.ops.append(overload_name(func))
        result = func(*args, **kwargs)
        # A tensor made from no tensor (a factory inside the op) got its device from options we
        # cannot see: it is a wildcard that counts as "another input" in every meeting.
        union = frozenset().union(*(self.origin(t) for t, _ in roles)) if roles else WILDCARD
        if union:
            for tensor in tensors_in(result):
                self.origins[id(tensor)] = self.origin(tensor) | union
                self.keep.append(tensor)
        return result


def trace(call, named: dict[str, object]) -> Trace:
    """Run `call()`; `named` maps each parameter name to the tensor (or list of tensors) passed."""
    origins: dict[int, frozenset] = {}
    for name, value in named.items():
        if isinstance(value, torch.Tensor):
            origins[id(value)] = frozenset([name])
        else:  # each element of a list is its own input: `cat([a, b])` needs a and b together
            for i, tensor in enumerate(tensors_in(value)):
                origins[id(tensor)] = frozenset([f"{name}[{i}]"])
    recorder = _Recorder(origins)
    with torch.no_grad(), recorder:
        result = call()
    recorder.trace.result_origin = frozenset().union(*(recorder.origin(t) for t in tensors_in(result)))
    return recorder.trace


def parameter_of(origin_name: str) -> str:
    return origin_name.split("[", 1)[0]


def roles_from(trace_: Trace) -> dict[str, str]:
    """{parameter: role} in the world where that input alone is on the CPU (for a list, each
    element alone; the parameter takes the strictest)."""
    inputs = {name for call in trace_.calls for origin, _ in call for name in origin} - {"~"}
    roles: dict[str, str] = {}
    for name in inputs:
        alone = frozenset([name])
        met, used_in = [], set()
        for call, op in zip(trace_.calls, trace_.ops):
            if any(origin == alone for origin, _ in call):
                used_in.add(op)
            if any(origin and origin != alone for origin, _ in call):
                met.extend(role for origin, role in call if origin == alone)
        if met:
            role = max(met, key=STRICTNESS.__getitem__)
        else:  # read with item() only: a number; otherwise only its size or options are read
            role = "n" if used_in and used_in <= _READS_NUMBER else "f"
        param = parameter_of(name)
        if param not in roles or STRICTNESS[role] > STRICTNESS[roles[param]]:
            roles[param] = role
    return roles


def result_follows(trace_: Trace) -> list[str]:
    """The parameters the returned tensors derive from (empty: made from nothing, a factory)."""
    return sorted({parameter_of(name) for name in trace_.result_origin} - {"~"})


def first_trace(func, runs) -> Trace | None:
    """The trace of the first sample call (args, kwargs, named) that torch accepts."""
    for args, kwargs, named in runs:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return trace(lambda: func(*args, **kwargs), named)
        except Exception:  # noqa: BLE001 - a sample that does not fit: try the next one
            continue
    return None
