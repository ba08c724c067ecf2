"""Abstract values of the device-flow analysis.

A value says only what the analysis can show: a tensor's device is a `Dev`
(`devices.py`) or None (unknown).  Joining two paths keeps a fact only when
both agree, so an unknown never turns into a finding.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Optional

from .devices import CPU, Dev, join_dev
from .frozen import fast_init
from .pretrained_classes import joined_class

class Value:
    __slots__ = ()

    def join(self, other: "Value") -> "Value":
        if other is NONE:
            return self.maybe_none()
        return self if self == other else UNKNOWN

    def maybe_none(self) -> "Value":
        """This value where another path has None (the join keeps the value, `_None.join`): a value
        that carried a proof of not being None (`not_none`) loses it."""
        return self


class _Unknown(Value):
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"

    def join(self, other: "Value") -> "Value":
        return UNKNOWN


UNKNOWN = _Unknown()


class _None(Value):
    """`None`.  Joined with another value it gives that value: where a value is
    None or a tensor, any tensor operation on it either raises for None anyway
    or sees the tensor (`if self.cache is None: self.cache = ...`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NONE"

    def join(self, other: "Value") -> "Value":
        return other.maybe_none()


NONE = _None()


class _Number(Value):
    """A Python number.  Joined with a tensor it gives the tensor: an accumulator that starts
    at 0 (`total = 0; total += loss`) holds a tensor once anything was added."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NUMBER"

    def join(self, other: "Value") -> "Value":
        if other is self or other is NONE or other.__class__ is IntV:
            return NUMBER
        return other if isinstance(other, TensorV) else UNKNOWN


NUMBER = _Number()
Number = _Number  # (`isinstance(v, Number)`: NUMBER or an exact `IntV`)


class IntV(_Number):
    """An int constant held on every path (`num_gpus = 1`, `GPU_MODE = 1` in a config module, a call's
    `num_gpus=1` bound to a parameter the callee tests): a test of it (`if num_gpus == 1:`, `if
    use_gpu:`) is decided.  It is a number to everything else (`isinstance(v, Number)`).  Only a name
    bound to an int literal, or a parameter a test of the callee reads, holds one (`contexts.bind_arguments`:
    other contexts stay one); arithmetic on it (`count += 1`) and joins with another number give NUMBER."""

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __repr__(self) -> str:
        return f"IntV({self.n})"

    def __eq__(self, other) -> bool:
        return other.__class__ is IntV and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)

    def join(self, other: "Value") -> "Value":
        if other.__class__ is IntV and other.n == self.n:
            return self
        return NUMBER.join(other)

    def maybe_none(self) -> "Value":
        return NUMBER  # (None or the int: a test of it is not decided)


class AcceleratorAvailable(Value):
    """What `torch.cuda.is_available()` (and friends) returned, kept in a name (`CUDA =
    torch.cuda.is_available()`): a test of it is taken as true, as a test of the call is.  `mac`: what
    it answers on a machine with MPS and no CUDA (False for CUDA's test, True for MPS's; None: either)."""

    __slots__ = ("mac",)

    def __init__(self, mac: Optional[bool] = None):
        self.mac = mac

    def __repr__(self) -> str:
        return "ACCELERATOR_AVAILABLE" if self.mac is None else f"ACCELERATOR_AVAILABLE(mac={self.mac})"

    def join(self, other: "Value") -> "Value":
        if other.__class__ is AcceleratorAvailable:
            return self if other.mac is self.mac else ACCELERATOR_AVAILABLE
        return Value.join(self, other)


ACCELERATOR_AVAILABLE = AcceleratorAvailable()
AVAILABLE_BUT_NOT_ON_A_MAC = AcceleratorAvailable(False)  # torch.cuda.is_available()
AVAILABLE_ON_A_MAC = AcceleratorAvailable(True)  # torch.backends.mps.is_available()


class FlagV(Value):
    """`True` or `False` assigned to a name (`first = True`): a test of a local name that holds
    the same one on every path is decided, so a branch a flag rules out is not run (`if first:
    ... first = False` in a loop: the first pass takes only the `if` branch).  Joined with
    anything else it is unknown.  A call's `True`/`False` argument binds one to the parameter in that
    call's context (`build(cuda=True)`: the callee's `if cuda:` is decided there).

    `held`: an attribute of `self` a caller bound before it called the method (`self.on_gpu = on_gpu`
    in `__init__`, then `self.build()`): the method's `if self.on_gpu:` is decided (HELD_TRUE /
    HELD_FALSE), in that order of the caller's flow; an attribute read from an instance made
    elsewhere holds a plain flag, which decides nothing there (other code may have rebound it)."""

    __slots__ = ("truth", "held")

    def __init__(self, truth: bool, held: bool = False):
        self.truth = truth
        self.held = held

    def __repr__(self) -> str:
        return ("HELD_" if self.held else "") + ("TRUE" if self.truth else "FALSE")

    def join(self, other: "Value") -> "Value":
        if other.__class__ is FlagV and other.truth is self.truth:
            return other if self.held else self  # (held on one path only: a plain flag)
        return Value.join(self, other)

    def maybe_none(self) -> "Value":
        return UNKNOWN  # None is false: a name that may hold None or True is not decided


TRUE = FlagV(True)
FALSE = FlagV(False)
HELD_TRUE = FlagV(True, held=True)
HELD_FALSE = FlagV(False, held=True)


class TextV(Value):
    """A string that is not a device (`mode = "prediction"`, `device="gpu"`) held on every path: a test
    of a local name or parameter holding one (`if mode == "prediction":`, `device is None`) is decided.
    A call's string argument binds one to the parameter only where the callee tests it or hands it
    on (`contexts.bind_arguments`), as flags do: other contexts stay one.  Joined with anything else,
    None included, it is unknown."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return f"TextV({self.text!r})"

    def __eq__(self, other) -> bool:
        return other.__class__ is TextV and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def maybe_none(self) -> "Value":
        return UNKNOWN  # (a name that may hold None or the string is not decided)


# the attribute an instance of a module holds where `self.to(device)` in its `__init__` moved it
SELF_MOVED = "#moved"
MEMBERS = "#members"  # what `super().__init__(*modules)` of an nn.Sequential / ModuleList subclass registered

@dataclass(frozen=True)
class BatchInfo:
    """Where a batch came from: the loop over a loader and its target names."""

    loop: ast.AST = field(compare=False, hash=False)
    loop_id: int = 0
    pin_memory: bool = False


@fast_init
@dataclass(frozen=True, eq=True)
class DeviceV(Value):
    dev: Dev
    not_none: bool = False  # made on every path (a device string, `torch.device(...)`): `is None` is False
    text: Optional[str] = None  # the string itself where the value is this string on every path ("cuda")
    # `x.device` of a tensor `x` (its TensorV): a factory given it is made wherever `x` is, not by choice
    # (where that is the CPU, x's own factory is the one to fix, as for `torch.zeros_like(x)`)
    of_tensor: Optional[Value] = field(default=None, compare=False, hash=False)

    def join(self, other):
        if other is NONE:
            return self.maybe_none()
        if isinstance(other, DeviceV):
            d = join_dev(self.dev, other.dev)
            return DeviceV(d, self.not_none and other.not_none, self.text if self.text == other.text else None) \
                if d else UNKNOWN
        return UNKNOWN

    def maybe_none(self):
        return DeviceV(self.dev) if self.not_none or self.text is not None else self


@fast_init
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
    min_rank: int = 0  # the least rank it can have where `rank` is unknown (`x.unsqueeze(0)`: 1)
    raised: bool = False  # the result of an op proven to raise: what uses it is never reached
    part: bool = False  # a name unpacked from a module's output (`logits, extra = model(x)`): any object
    opaque: bool = False  # the output of an object of unknown kind called as a module (`torch.load`-ed, then `.cuda()`)

    @property
    def maybe_scalar(self) -> bool:
        """Could it be 0-dim (a CPU tensor PyTorch lets meet CUDA tensors in arithmetic)?"""
        return self.rank == 0 or self.rank is None and self.min_rank == 0

    def join(self, other):
        if other is NONE or isinstance(other, _Number):
            return self
        if other.__class__ is PlacedV:
            return other.join(self)
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
            part=self.part and other.part,
            opaque=self.opaque and other.opaque,
            min_rank=min(self.rank if self.rank is not None else self.min_rank,
                         other.rank if other.rank is not None else other.min_rank),
        )

    def moved(self, dev: Optional[Dev], at: ast.AST) -> "TensorV":
        return TensorV(dev=dev, origin=at, rank=self.rank, dtype=self.dtype, grad=self.grad, min_rank=self.min_rank)


@fast_init
@dataclass(frozen=True)
class BatchV(Value):
    """A loader batch whose structure (tensor, tuple, dict) is not known."""

    info: BatchInfo

    def element(self, at: ast.AST) -> TensorV:
        return TensorV(CPU, origin=at, batch=self.info)


def _joined_wraps(a: "ModuleV", b: "ModuleV") -> Optional[Value]:
    """The module a `.to()` of the join of `a` and `b` moves on either path: the one both wrap, or one of
    them where the other wraps it (`m` on one branch, `DataParallel(m)` on another)."""
    if a.wraps is b:
        return b
    if b.wraps is a:
        return a
    return a.wraps if a.wraps is b.wraps else None


@fast_init
@dataclass(frozen=True)
class ModuleV(Value):
    dev: Optional[Dev]
    has_params: bool = True
    placed_at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    cls: Optional[object] = field(default=None, compare=False, hash=False)
    known_class: bool = True  # False: an unknown object that was `.to()`-ed and then called
    torch_layer: bool = False  # a torch.nn layer: it never moves its inputs itself

    attrs: tuple = ()  # (name, value) pairs: plain attributes of an instance made here (`self.device = device`)
    layer: Optional[str] = None  # the torch.nn class of a torch layer (`CrossEntropyLoss`)
    items: Optional[Value] = None  # an nn.ModuleList / Sequential / ModuleDict: what its members are (a SeqV:
    # its members one by one, of different classes)
    not_none: bool = False  # made on every path (`from_pretrained(...)`): `is None` is False
    wraps: Optional[Value] = field(default=None, compare=False, hash=False)  # `DataParallel(m)`: the m it
    # wraps, which its `.to()` moves in place (also when the wrapper took m's name: `self.m = DDP(self.m)`,
    # and in the join of m and its wrapper, `if gpus: self.m = DDP(self.m)`)

    def maybe_none(self):
        return replace(self, not_none=False) if self.not_none else self

    @property
    def loss(self) -> bool:
        """A torch loss: its inputs must be on one device (CTC takes its targets on the CPU)."""
        return self.layer is not None and self.layer.endswith("Loss") and self.layer != "CTCLoss"

    def join(self, other):
        if other is NONE:
            return self.maybe_none()
        if isinstance(other, ModuleV):
            if self == other and self.placed_at is other.placed_at and self.cls is other.cls:
                return self
            # holds state only when it does on every path (a pool on one branch, a conv on another)
            return ModuleV(join_dev(self.dev, other.dev), self.has_params and other.has_params,
                           self.placed_at if self.placed_at is other.placed_at else None,
                           self.cls if self.cls is other.cls else None, self.known_class and other.known_class,
                           self.torch_layer and other.torch_layer,
                           join_attrs(self.attrs, other.attrs) if self.cls is other.cls else (),
                           self.layer if self.layer == other.layer else _joined_layer(self, other),
                           join_members(self.items, other.items), self.not_none and other.not_none,
                           _joined_wraps(self, other))
        return UNKNOWN

    def member(self, at=None, index: Optional[int] = None) -> "Value":
        """A member of a module container (iterated, indexed; `index`: that one): a module where the container is."""
        items = self.items
        if items.__class__ is SeqV:
            known = items.items
            items = known[index] if index is not None and known and -len(known) <= index < len(known) else items.element()
        if isinstance(items, ModuleV):
            return replace(items, dev=self.dev, placed_at=self.placed_at or items.placed_at)
        return ModuleV(self.dev, True, self.placed_at, None, known_class=False)

    def members(self, count: int) -> Optional[list]:
        """Its `count` members one by one (`a, b = pair`), where known."""
        items = self.items
        if items.__class__ is SeqV and items.items is not None and len(items.items) == count:
            return [self.member(None, i) for i in range(count)]
        return None


# The layer of a module of unknown kind made by handing a module to a callable the analysis cannot see
# (`pipe_class(model, ...)`, a parameter): it may be a wrapper that moves its inputs to the module's
# device itself, as DataParallel and pipelines do, so a CPU input is no proven mismatch.
WRAPPER_OF_UNKNOWN_KIND = "(a wrapper of unknown kind)"
LOSS_LAYER = "_Loss"  # torch.nn's base of every loss: the layer of "one loss or another"


def _joined_layer(a: ModuleV, b: ModuleV) -> Optional[str]:
    """The layer of a module that is one torch layer on one path and another on the other: a loss
    either way (`nn.BCELoss()` or `nn.MSELoss()` by a flag) still needs its inputs on one device."""
    return LOSS_LAYER if a.loss and b.loss else None


def join_members(a: Optional[Value], b: Optional[Value]) -> Optional[Value]:
    """The members of a module container on two paths (one of them may still be empty: a loop of
    `layers.append(...)` that may not run), or with a member added (`layers.append(block)`)."""
    if a is None or b is None:
        return None
    if a.__class__ is SeqV and a.items == ():
        return b
    if b.__class__ is SeqV and b.items == ():
        return a
    return a.join(b)


@fast_init
@dataclass(frozen=True)
class PlacedV(Value):
    """An object of unknown kind that `.to(dev)` returned: a module when called,
    a tensor when used in tensor ops (either way it lives on `dev`)."""

    dev: Dev
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    wrapper: bool = False  # made by a call the analysis cannot see that was handed a module (`Pipe(model)`)

    def as_tensor(self) -> TensorV:
        return TensorV(self.dev, origin=self.at)

    def as_module(self) -> ModuleV:
        return ModuleV(self.dev, True, self.at, None, known_class=False,
                       layer=WRAPPER_OF_UNKNOWN_KIND if self.wrapper else None)

    def join(self, other):
        if other is NONE:
            return self
        if isinstance(other, PlacedV):
            d = join_dev(self.dev, other.dev)
            return PlacedV(d, self.at if self.at is other.at else None, self.wrapper or other.wrapper) if d else UNKNOWN
        if other.__class__ is TensorV and other.dev is not None:
            # a tensor made from it on another path (`n = lengths.to(dev)`, then `n = n / 2 + 1` in a
            # loop): on either path it is on that device, a tensor wherever it is used as one
            d = join_dev(self.dev, other.dev)
            return PlacedV(d) if d else UNKNOWN
        return UNKNOWN


@dataclass(frozen=True)
class ParamsV(Value):
    """`model.parameters()` (or `.buffers()`): each item, `next(...)` of it, is a tensor on the
    module's device.  `owner`: the access path of that module in the function `scope` (an optimizer
    made of them follows the module's in-place moves)."""

    dev: Optional[Dev]
    grad: bool = True
    owner: Optional[str] = field(default=None, compare=False, hash=False)
    scope: Optional[ast.AST] = field(default=None, compare=False, hash=False)

    def element(self, at: ast.AST) -> "TensorV":
        return TensorV(self.dev, origin=at, grad=self.grad)

    def join(self, other):
        if other is NONE:
            return self
        if self != other:
            return UNKNOWN
        if self.owner == other.owner and self.scope is other.scope:
            return self
        return ParamsV(self.dev, self.grad)  # the parameters of one module or of another: no owner


# what an optimizer knows of its state (`OptimizerV.state`)
FRESH = "fresh"  # never loaded: made lazily by `step()`, on the parameters' device
LOADED = "loaded"  # `load_state_dict` cast it to `state_dev`
MAYBE_LOADED = "maybe"  # loaded (to `state_dev`) on some paths, fresh on the others
STATE_UNKNOWN = "unknown"


@fast_init
@dataclass(frozen=True)
class OptimizerV(Value):
    """A `torch.optim` optimizer whose step keeps per-parameter state tensors (SGD with momentum,
    Adam, ...).  `params_dev`: where its parameters are now; `owners`: the access paths, in the
    function `scope`, of the modules whose parameters it holds (their in-place moves move the
    parameters, not the state); `state_dev`: where `load_state_dict` cast the loaded state (the
    parameters' device at that time)."""

    params_dev: Optional[Dev]
    owners: tuple = ()
    state: str = FRESH
    state_dev: Optional[Dev] = None
    scope: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    made_at: Optional[ast.AST] = field(default=None, compare=False, hash=False)  # (its identity)
    loaded_at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    moved_at: Optional[ast.AST] = field(default=None, compare=False, hash=False)

    def join(self, other):
        if other is NONE:
            return self
        if other.__class__ is not OptimizerV or other.made_at is not self.made_at:
            return UNKNOWN
        if self == other and self.scope is other.scope and self.loaded_at is other.loaded_at \
                and self.moved_at is other.moved_at:
            return self
        states = {self.state, other.state}
        if states == {FRESH}:
            state, state_dev = FRESH, None
        elif STATE_UNKNOWN in states or (self.state != FRESH and other.state != FRESH
                                         and self.state_dev != other.state_dev):
            state, state_dev = STATE_UNKNOWN, None
        else:  # loaded on both (to one device), or loaded on one path and fresh on the other
            state = LOADED if states == {LOADED} else MAYBE_LOADED
            state_dev = self.state_dev if self.state != FRESH else other.state_dev
        return OptimizerV(join_dev(self.params_dev, other.params_dev),
                          self.owners if self.owners == other.owners and self.scope is other.scope else (),
                          state, state_dev, self.scope, self.made_at,
                          self.loaded_at if self.loaded_at is other.loaded_at or other.state == FRESH else
                          other.loaded_at if self.state == FRESH else None,
                          self.moved_at if self.moved_at is other.moved_at else None)


@dataclass(frozen=True)
class LoaderV(Value):
    """A DataLoader: where its batches are (`batch_dev`), or the batch itself when the analysis
    could follow the dataset's `__getitem__` and the collate function (`batch`)."""

    pin_memory: bool = False
    batch_dev: Optional[Dev] = CPU
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    batch: Optional[Value] = None
    dataset: object = field(default=None, compare=False, hash=False)
    collate: object = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class DatasetV(Value):
    dev: Optional[Dev]


@dataclass(frozen=True)
class NumpyV(Value):
    dtype: Optional[str] = None
    rank: Optional[int] = None


@fast_init
@dataclass(frozen=True)
class SeqV(Value):
    """A tuple/list, or an iterable yielding `elem` (items when known)."""

    items: Optional[tuple] = None
    elem: Value = UNKNOWN
    not_none: bool = False  # a list or tuple made on every path (a display, a list appended to): `is None` is False
    fields: Optional[tuple] = None  # the names of its items (`torch.return_types`: `values`, `indices`)

    def maybe_none(self):
        return replace(self, not_none=False) if self.not_none else self

    def element(self) -> Value:
        if self.items:
            out = self.items[0]
            for v in self.items[1:]:
                out = out.join(v)
            return out
        if self.items is not None:
            return NONE  # an empty list holds nothing: what is appended later is what it holds
        return self.elem

    def join(self, other):
        if other is NONE:
            return self.maybe_none()
        if isinstance(other, SeqV):
            if self == other:
                return self
            not_none = self.not_none and other.not_none
            if self.items is not None and other.items is not None and len(self.items) == len(other.items):
                return SeqV(tuple(a.join(b) for a, b in zip(self.items, other.items)), UNKNOWN, not_none,
                            self.fields if self.fields == other.fields else None)
            return SeqV(None, self.element().join(other.element()), not_none)
        return UNKNOWN


@fast_init
@dataclass(frozen=True)
class DictV(Value):
    """A dict: `elem` joins its values; `items` are (key, value) pairs when every key is a known string."""

    elem: Value = UNKNOWN
    items: Optional[tuple] = None

    def get(self, key) -> Value:
        if self.items is not None:
            for k, v in self.items:
                if k == key:
                    return v
            return UNKNOWN
        return self.elem

    def join(self, other):
        if other is NONE:
            return self
        if isinstance(other, DictV):
            if self == other:
                return self
            items = None
            if self.items is not None and other.items is not None:  # a key one side lacks: unknown
                theirs = dict(other.items)
                items = tuple((k, v.join(theirs[k]) if k in theirs else UNKNOWN) for k, v in self.items)
                items += tuple((k, UNKNOWN) for k, _ in other.items if k not in dict(self.items))
            # (an empty dict has no value to join: `d = {}`, then `d[i] = t` in a loop, holds t's)
            elem = other.elem if self.items == () else self.elem if other.items == () else self.elem.join(other.elem)
            return DictV(elem, items)
        return UNKNOWN


@dataclass(frozen=True)
class EncodingV(DictV):
    """What a Hugging Face tokenizer or processor returns with `return_tensors="pt"` (a BatchEncoding,
    a BatchFeature): a mapping of CPU tensors whose `.to(device)` moves them in place and returns
    the same object (so `inputs.to(device)` alone is correct, unlike `tensor.to(device)`)."""

    def join(self, other):
        if isinstance(other, EncodingV):
            return EncodingV(self.elem.join(other.elem))
        return DictV.join(self, other)


@fast_init
@dataclass(frozen=True)
class QualV(Value):
    """An imported module or object, by qualified name (`torch.nn.Linear`)."""

    name: str

    def join(self, other):
        # two imported classes (`MODEL_CLASSES[args.model_type]`); exactly QualV: a project module is no class
        if other.__class__ is QualV is self.__class__ and other.name != self.name:
            either = joined_class(self.name, other.name)
            return QualV(either) if either is not None else UNKNOWN
        if other is NONE:
            return self  # (as `Value.join`, without one more call: imports meet in every join of scopes)
        return self if self == other else UNKNOWN


@fast_init
@dataclass(frozen=True)
class FuncV(Value):
    """A function or method of the project (`owner`: the ClassInfo of a method)."""

    node: ast.AST = field(compare=False, hash=False)
    key: int = 0
    owner: Optional[object] = field(default=None, compare=False, hash=False)
    home: Optional[object] = field(default=None, compare=False, hash=False)  # ModuleSummary of another file
    closure: Optional[dict] = field(default=None, compare=False, hash=False)  # the enclosing scope of a nested function
    scope: Optional[ast.AST] = field(default=None, compare=False, hash=False)  # the function it is nested in


@fast_init
@dataclass(frozen=True)
class ClassV(Value):
    info: object = field(compare=False, hash=False)
    key: int = 0


@fast_init
@dataclass(frozen=True)
class SelfV(Value):
    """`self` inside a method of a project class.  `attrs`: what the call's receiver is
    known to hold (`(name, value)` pairs); None: analysed for no particular instance."""

    info: object = field(compare=False, hash=False)
    key: int = 0
    attrs: Optional[tuple] = None
    placed: tuple = ()  # names of the submodules in `attrs` the caller moved or bound itself: on their own device


@fast_init
@dataclass(frozen=True)
class ObjectV(Value):
    """An instance of a project class that is not an nn.Module (a predictor, a
    trainer, a sampler, a small result object): its class and what it holds."""

    info: object = field(compare=False, hash=False)
    key: int = 0
    attrs: tuple = ()
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)

    def join(self, other):
        if other is NONE:
            return self
        if isinstance(other, ObjectV) and other.key == self.key:
            return self if self == other else ObjectV(self.info, self.key, join_attrs(self.attrs, other.attrs))
        return UNKNOWN


@fast_init
@dataclass(frozen=True)
class BoundMethodV(Value):
    """`obj.method` not yet called (`fn = self.step`; `partial(self.step, ...)`)."""

    func: FuncV
    receiver: Value


@dataclass(frozen=True)
class PartialV(Value):
    """`functools.partial(func, *args, **kwargs)`."""

    func: Value
    args: tuple = ()
    kwargs: tuple = ()  # (name, value) pairs


# the values that may carry what only a binding seen on every path proves (`unproven`)
PROVEN = frozenset({DeviceV, SeqV, ModuleV})


def unproven(value: Value) -> Value:
    """`value` less what only a binding seen on every path proves (the string it is, not being None),
    as read from what another method or module may rebind (an attribute, a global): what a join
    with None leaves of it (`maybe_none`)."""
    return value.maybe_none()


def attrs_get(attrs: Optional[tuple], name: str) -> Optional[Value]:
    if attrs:
        for key, value in attrs:
            if key == name:
                return value
    return None


def join_attrs(a: tuple, b: tuple) -> tuple:
    """Attributes both sides know, each joined (an attribute one side lacks is unknown)."""
    if a == b:
        return a
    other = dict(b)
    out = []
    for name, value in a:
        if name in other:
            joined = value.join(other[name])
            if joined is not UNKNOWN:
                out.append((name, joined))
    return tuple(out)


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
        if iterable.batch is not None:
            return _as_batch(iterable.batch, BatchInfo(loop, id(loop), iterable.pin_memory), 0), iterable
        if iterable.batch_dev is None:
            return UNKNOWN, iterable
        if not iterable.batch_dev.is_cpu:
            return TensorV(iterable.batch_dev, origin=loop.iter), iterable
        return BatchV(BatchInfo(loop, id(loop), iterable.pin_memory)), iterable
    if isinstance(iterable, ZipV):
        parts = [iteration_element(v, loop) for v in iterable.inner]
        loader = next((l for _, l in parts if l is not None), None)
        return SeqV(tuple(v for v, _ in parts)), loader
    if iterable.__class__ is ItemsV:  # (before EnumerateV, its base: `inner` is each value, not what is iterated)
        return SeqV((UNKNOWN, iterable.inner)), None
    if isinstance(iterable, EnumerateV):  # (the counter is an int)
        inner, loader = iteration_element(iterable.inner, loop)
        return SeqV((NUMBER, inner)), loader
    if isinstance(iterable, SeqV):
        return iterable.element(), None
    if iterable.__class__ is NumpyV and iterable.rank is not None and iterable.rank >= 1:
        # rows of a NumPy array: numbers (NumPy scalars) for a vector, arrays one rank down otherwise
        return (NUMBER if iterable.rank == 1 else NumpyV(iterable.dtype, iterable.rank - 1)), None
    if isinstance(iterable, ParamsV):
        return iterable.element(loop.iter), None
    if isinstance(iterable, ModuleV) and iterable.layer in ("ModuleList", "Sequential"):
        return iterable.member(), None
    if isinstance(iterable, DatasetV) and iterable.dev is not None:
        return SeqV(None, TensorV(iterable.dev, origin=loop.iter)), None
    if isinstance(iterable, TensorV) and iterable.rank != 0 and not iterable.module_output:
        # `for row in x`: x[0], x[1], ... on x's device (what a model returns may be a tuple or a
        # ModelOutput, whose items are not rows)
        rank = iterable.rank - 1 if iterable.rank is not None else None
        return TensorV(iterable.dev, origin=loop.iter, rank=rank, min_rank=max(iterable.min_rank - 1, 0),
                       grad=iterable.grad), None
    return UNKNOWN, None


def _as_batch(value: Value, info: BatchInfo, depth: int) -> Value:
    """A loader's batch as one loop step sees it: its CPU tensors come from the loader."""
    def leaf(v: Value) -> Value:
        if isinstance(v, TensorV) and v.dev is not None and v.dev.is_cpu:
            return TensorV(v.dev, origin=info.loop.iter, batch=info, dtype=v.dtype)
        return v
    return map_leaves(value, leaf, depth)


def join_all(values) -> Value:
    """The join of `values` (UNKNOWN where there are none): what a container holding them all holds."""
    out = None
    for v in values:
        out = v if out is None else out.join(v)
    return UNKNOWN if out is None else out


def map_leaves(value: Value, leaf, depth: int = 0, *, objects: bool = False, too_deep: Optional[Value] = None) -> Value:
    """`value` with `leaf` applied to what its tuples, lists and dicts hold (and, with `objects`,
    what objects' attributes hold), item by item; five levels down the walk stops there and gives
    `too_deep`, or the value itself when that is None."""
    return _map_walk(value, depth, leaf, objects, too_deep)


def _map_walk(v: Value, depth: int, leaf, objects: bool, too_deep: Optional[Value]) -> Value:
    """`map_leaves`' walk: a module function, as a closure calling itself would be a reference cycle
    holding `leaf` (and what `leaf` holds: a frame, a context) until a cyclic collection."""
    if depth > 4:
        return v if too_deep is None else too_deep
    if isinstance(v, SeqV):
        # (a list made on every path stays one: `not_none` is kept)
        if v.items is not None:
            return SeqV(tuple(_map_walk(item, depth + 1, leaf, objects, too_deep) for item in v.items), UNKNOWN,
                        v.not_none)
        return SeqV(None, _map_walk(v.elem, depth + 1, leaf, objects, too_deep), v.not_none)
    if isinstance(v, DictV):
        items = tuple((k, _map_walk(item, depth + 1, leaf, objects, too_deep)) for k, item in v.items) \
            if v.items is not None else None
        return DictV(_map_walk(v.elem, depth + 1, leaf, objects, too_deep), items)
    if objects and isinstance(v, ObjectV) and v.attrs:
        return replace(v, attrs=tuple((k, _map_walk(item, depth + 1, leaf, objects, too_deep)) for k, item in v.attrs))
    return leaf(v)
