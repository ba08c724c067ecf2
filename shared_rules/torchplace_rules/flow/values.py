"""Abstract values of the device-flow analysis.

A value says only what the analysis can show: a tensor's device is a `Dev`
(`devices.py`) or None (unknown).  Joining two paths keeps a fact only when
both agree, so an unknown never turns into a finding.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from .devices import CPU, Dev, join_dev

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


class EnumerateV(Value):
    """`enumerate(x)`: `inner` is what is enumerated."""

    __slots__ = ("inner",)

    def __init__(self, inner: Value) -> None:
        self.inner = inner

    def __eq__(self, other):
        return type(other) is type(self) and self.inner == other.inner

    def __hash__(self):
        return hash((type(self).__name__, self.inner))

    def join(self, other):
        return self if self == other else UNKNOWN


class ZipV(EnumerateV):
    """`zip(a, b, ...)`: `inner` is the tuple of iterables."""


class ItemsV(EnumerateV):
    """`d.items()`: `inner` is the value type."""


def iteration_element(iterable: Value, loop) -> tuple[Value, Optional[LoaderV]]:
    """What one step of `for target in iterable` binds, and the loader behind it
    (`loop` is the `for` statement or comprehension: batches remember it)."""
    if isinstance(iterable, LoaderV):
        if iterable.batch_dev is None:
            return UNKNOWN, iterable
        if not iterable.batch_dev.is_cpu:
            return TensorV(iterable.batch_dev, origin=loop.iter), iterable
        return BatchV(BatchInfo(loop, id(loop), iterable.pin_memory)), iterable
    if isinstance(iterable, ZipV):
        parts = [iteration_element(v, loop) for v in iterable.inner]
        loader = next((l for _, l in parts if l is not None), None)
        return SeqV(tuple(v for v, _ in parts)), loader
    if isinstance(iterable, EnumerateV):
        inner, loader = iteration_element(iterable.inner, loop)
        return SeqV((UNKNOWN, inner)), loader
    if isinstance(iterable, ItemsV):
        return SeqV((UNKNOWN, iterable.inner)), None
    if isinstance(iterable, SeqV):
        return iterable.element(), None
    if isinstance(iterable, DatasetV) and iterable.dev is not None:
        return SeqV(None, TensorV(iterable.dev, origin=loop.iter)), None
    return UNKNOWN, None
