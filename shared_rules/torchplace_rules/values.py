"""Abstract values of the device-flow analysis.

A value says only what the analysis can show: a tensor's device is a `Dev`
or None (unknown).  Joining two paths keeps a fact only when both agree, so
an unknown never turns into a finding.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Optional

CPU_KIND, ACCEL_KIND, SELF_KIND = "cpu", "accel", "self"


@dataclass(frozen=True)
class Dev:
    """Where a value lives.  `kind` is cpu, accel, or self (the enclosing
    module's device, unknown but consistent); `label` tells accelerators
    apart (cuda:0 vs cuda:1); `expr` is source text naming it, for fixes."""

    kind: str
    label: str
    expr: Optional[str] = None
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)

    @property
    def is_cpu(self) -> bool:
        return self.kind == CPU_KIND

    @property
    def is_accel(self) -> bool:
        return self.kind == ACCEL_KIND


CPU = Dev(CPU_KIND, "cpu", '"cpu"')
SELF_DEV = Dev(SELF_KIND, "self")


def join_dev(a: Optional[Dev], b: Optional[Dev]) -> Optional[Dev]:
    if a is None or b is None:
        return None
    if a.kind != b.kind or a.label != b.label:
        return None
    if a.expr != b.expr:
        return Dev(a.kind, a.label, None, a.at)
    return a


def devices_conflict(a: Dev, b: Dev) -> bool:
    """Would an op combining (non-0-dim) tensors on a and b raise on a GPU machine?"""
    if a.is_cpu and b.is_accel or a.is_accel and b.is_cpu:
        return True
    if a.is_accel and b.is_accel:
        return a.label != b.label and ":" in a.label and ":" in b.label
    return False


class Value:
    __slots__ = ()

    def join(self, other: "Value") -> "Value":
        return self if self == other else UNKNOWN


class _Unknown(Value):
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()


@dataclass(frozen=True)
class BatchInfo:
    """Where a batch came from: the loop over a loader and its target names."""

    loop: ast.AST = field(compare=False, hash=False)
    loop_id: int = 0
    pin_memory: bool = False


@dataclass(frozen=True, eq=True)
class DeviceV(Value):
    dev: Dev

    def join(self, other):
        if isinstance(other, DeviceV):
            d = join_dev(self.dev, other.dev)
            return DeviceV(d) if d else UNKNOWN
        return UNKNOWN


@dataclass(frozen=True)
class TensorV(Value):
    dev: Optional[Dev]
    origin: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    rank: Optional[int] = None
    dtype: Optional[str] = None
    grad: bool = False
    batch: Optional[BatchInfo] = None
    factory: Optional[ast.Call] = field(default=None, compare=False, hash=False)
    random: bool = False
    plain_attr: Optional[str] = None  # name of an unregistered module attribute
    module_output: bool = False

    def join(self, other):
        if not isinstance(other, TensorV):
            return UNKNOWN
        if self == other and self.origin is other.origin:
            return self
        return TensorV(
            dev=join_dev(self.dev, other.dev),
            origin=self.origin if self.origin is other.origin else None,
            rank=self.rank if self.rank == other.rank else None,
            dtype=self.dtype if self.dtype == other.dtype else None,
            grad=self.grad and other.grad,
            batch=self.batch if self.batch == other.batch else None,
            factory=self.factory if self.factory is other.factory else None,
            random=self.random and other.random,
            plain_attr=self.plain_attr if self.plain_attr == other.plain_attr else None,
            module_output=self.module_output and other.module_output,
        )

    def moved(self, dev: Optional[Dev], at: ast.AST) -> "TensorV":
        return TensorV(dev=dev, origin=at, rank=self.rank, dtype=self.dtype, grad=self.grad)


@dataclass(frozen=True)
class BatchV(Value):
    """A loader batch whose structure (tensor, tuple, dict) is not known."""

    info: BatchInfo

    def element(self, at: ast.AST) -> TensorV:
        return TensorV(CPU, origin=at, batch=self.info)


@dataclass(frozen=True)
class ModuleV(Value):
    dev: Optional[Dev]
    has_params: bool = True
    placed_at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    cls: Optional[object] = field(default=None, compare=False, hash=False)
    known_class: bool = True  # False: an unknown object that was `.to()`-ed and then called
    torch_layer: bool = False  # a torch.nn layer: it never moves its inputs itself

    def join(self, other):
        if isinstance(other, ModuleV):
            if self == other and self.placed_at is other.placed_at:
                return self
            return ModuleV(join_dev(self.dev, other.dev), self.has_params or other.has_params,
                           self.placed_at if self.placed_at is other.placed_at else None,
                           self.cls if self.cls is other.cls else None, self.known_class and other.known_class,
                           self.torch_layer and other.torch_layer)
        return UNKNOWN


@dataclass(frozen=True)
class PlacedV(Value):
    """An object of unknown kind that `.to(dev)` returned: a module when called,
    a tensor when used in tensor ops (either way it lives on `dev`)."""

    dev: Dev
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)

    def as_tensor(self) -> TensorV:
        return TensorV(self.dev, origin=self.at)

    def as_module(self) -> ModuleV:
        return ModuleV(self.dev, True, self.at, None, known_class=False)

    def join(self, other):
        if isinstance(other, PlacedV):
            d = join_dev(self.dev, other.dev)
            return PlacedV(d, self.at if self.at is other.at else None) if d else UNKNOWN
        return UNKNOWN


@dataclass(frozen=True)
class ParamsV(Value):
    """`model.parameters()`: `next(...)` of it is a parameter on the module's device."""

    dev: Optional[Dev]


@dataclass(frozen=True)
class LoaderV(Value):
    pin_memory: bool = False
    batch_dev: Optional[Dev] = CPU
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class DatasetV(Value):
    dev: Optional[Dev]


@dataclass(frozen=True)
class NumpyV(Value):
    dtype: Optional[str] = None
    rank: Optional[int] = None


@dataclass(frozen=True)
class SeqV(Value):
    """A tuple/list, or an iterable yielding `elem` (items when known)."""

    items: Optional[tuple] = None
    elem: Value = UNKNOWN

    def element(self) -> Value:
        if self.items:
            out = self.items[0]
            for v in self.items[1:]:
                out = out.join(v)
            return out
        return self.elem

    def join(self, other):
        if isinstance(other, SeqV):
            if self == other:
                return self
            if self.items is not None and other.items is not None and len(self.items) == len(other.items):
                return SeqV(tuple(a.join(b) for a, b in zip(self.items, other.items)))
            return SeqV(None, self.element().join(other.element()))
        return UNKNOWN


@dataclass(frozen=True)
class DictV(Value):
    elem: Value = UNKNOWN

    def join(self, other):
        if isinstance(other, DictV):
            return DictV(self.elem.join(other.elem))
        return UNKNOWN


@dataclass(frozen=True)
class QualV(Value):
    """An imported module or object, by qualified name (`torch.nn.Linear`)."""

    name: str


@dataclass(frozen=True)
class FuncV(Value):
    node: ast.AST = field(compare=False, hash=False)
    key: int = 0
    owner: Optional[object] = field(default=None, compare=False, hash=False)
    home: Optional[object] = field(default=None, compare=False, hash=False)  # ModuleSummary of another file


@dataclass(frozen=True)
class ClassV(Value):
    info: object = field(compare=False, hash=False)
    key: int = 0


@dataclass(frozen=True)
class SelfV(Value):
    """`self` inside a method of a class defined in this file."""

    info: object = field(compare=False, hash=False)
    key: int = 0


def join_env(a: dict, b: dict) -> dict:
    if a is b:
        return a
    out = {}
    for key, value in a.items():
        other = b.get(key)
        if other is None:
            out[key] = UNKNOWN  # bound on one path only: shadow any global
        else:
            out[key] = value if value is other else value.join(other)
    for key in b.keys() - a.keys():
        out[key] = UNKNOWN
    return out


__all__ = [name for name in dir() if not name.startswith("_")] + ["replace"]


def device_variable(env: dict) -> Optional[str]:
    """A name in `env` bound to an accelerator device under its own name (`device = torch.device(...)`)."""
    for name, value in env.items():
        if isinstance(value, DeviceV) and value.dev.kind == ACCEL_KIND and value.dev.expr == name:
            return name
    return None
