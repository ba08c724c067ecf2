"""PyTorch's own operator and module semantics, read from a table generated from torch itself.

The engine imports no torch: `shared_rules/tools/generate_torch_semantics.py` reads torch 2.13's
registry at development time (native_functions.yaml through torchgen, the Python bindings and
stubs, sample runs traced under a TorchDispatchMode, `torch.nn` classes instantiated) and writes
`data/torch_semantics.json`, which this module loads with `json` alone (the probe may read the
same file the same way).

Format of `data/torch_semantics.json` (format 1)
------------------------------------------------
{"format": 1, "torch": "2.13.0", "source": <PyTorch source root the `src` paths are under>,
 "functions": {"torch.arange": [overload, ...], "torch.nn.functional.cross_entropy": [...], ...},
 "methods":   {"index_select": [overload, ...], "__getitem__": [...], ...},   # Tensor methods
 "modules":   {"torch.nn.CrossEntropyLoss": module, ...},
 "excluded":  {"torch.Tensor": "a class (torch), not an operator", ...}}

overload = {"params": [[name, kind, flags, role], ...], "result": str, "returns": str,
            "follows": [name, ...] (optional), "src": str}
  name    the Python parameter name (`input` for a function's self, `self` for a method's
          receiver, `*args` for a star parameter)
  kind    tensor | tensor? | tensors | tensors? | scalar | int | ints | float | floats | bool |
          bools | str | dtype | device | layout | memory_format | generator | other |
          index (the key of x[key]: ints, slices, tensors or tuples of them)
          (a 0-dim tensor passed as scalar/int/float is read as a number: `arange(t)`)
  flags   "k" keyword-only, "o" has a default
  role    for tensors, how it is checked against the op's common device:
          s  must be on it (a 0-dim CPU tensor raises too)
          s1 must be on it, except one 0-dim CPU tensor (TensorIterator's CPU scalar)
          z  a 0-dim tensor may be on any device (moved or read); otherwise must be on it
          i  may be on the CPU or on it (indices)      c  must be on the CPU
          f  not checked (size/options only, or copied from)
          n  read as a number with item()               ?  unknown: report nothing
          and `g` for generators: must be a generator of the op's device
  result  where the returned tensor lives:
          inputs   on the common device of the `follows` parameters
          factory  on device= if given, else the default device
          like     on device= if given, else on the first `follows` parameter's device
          data     on a tensor `data`'s device, else device=, else the default device
                   (numbers, lists and lists of 0-dim tensors are read on the host)
          cpu      always the CPU            transfer  Tensor.to/cuda: the engine's own rule
          receiver an in-place method: the receiver itself
          generator a torch.Generator on its device argument
          none / numpy  not a tensor        unknown  nothing is claimed
  returns T one tensor, T* several, N number, B bool, - nothing, ? other
  src     where the facts come from: "aten::add.Tensor (iterator)", "python: ...", "contract: <path>"

module = {"state": "params"|"buffers"|"none"|"children"|"unknown", "state_if": [[ctor arg, position], ...],
          "state_unless": ["arg=value", ...], "factory_kwargs": bool, "container": bool,
          "device_at": position of `device` among the constructor's positional arguments}
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

TABLE_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "torch_semantics.json")

TENSOR_KINDS = frozenset({"tensor", "tensor?", "tensors", "tensors?", "index"})
NUMBER_KINDS = frozenset({"scalar", "int", "float"})
# Roles whose tensors must share the op's common device (with their exemptions).
CHECKED_ROLES = frozenset({"s", "s1", "z", "i", "c"})


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    keyword_only: bool
    optional: bool
    role: str

    @property
    def is_tensor(self) -> bool:
        return self.kind in TENSOR_KINDS

    @property
    def is_star(self) -> bool:
        return self.name[:1] == "*"

    @property
    def reads_number(self) -> bool:
        """A tensor passed here is read as a number: its device does not matter."""
        return self.kind in NUMBER_KINDS or self.role == "n"

    def accepts_zero_dim_cpu(self) -> Optional[bool]:
        """May a 0-dim CPU tensor here meet tensors on an accelerator?  None: unknown."""
        if self.reads_number:
            return True
        return {"s": False, "c": True, "s1": True, "z": True, "i": True, "f": True}.get(self.role)


@dataclass(frozen=True)
class Overload:
    params: tuple[Param, ...]
    result: str
    returns: str
    follows: tuple[str, ...]
    source: str

    def __post_init__(self) -> None:  # lookups by name and position are on the hot path
        object.__setattr__(self, "_by_name", {p.name: p for p in self.params})
        object.__setattr__(self, "_positional", tuple(p for p in self.params if not p.keyword_only))

    def param(self, name: str) -> Optional[Param]:
        return self._by_name.get(name)

    def _takes(self, kind: str) -> bool:
        return any(p.kind == kind for p in self.params)

    @property
    def takes_device(self) -> bool:
        return self.param("device") is not None

    @property
    def takes_dtype(self) -> bool:
        return self.param("dtype") is not None

    @property
    def takes_generator(self) -> bool:
        return self._takes("generator")

    @property
    def takes_out(self) -> bool:
        return self.param("out") is not None

    @property
    def checked(self) -> tuple[Param, ...]:
        """Tensor parameters that must agree on the common device (with their role's exemption)."""
        return tuple(p for p in self.params if p.is_tensor and p.role in CHECKED_ROLES and p.name != "out")


@dataclass(frozen=True)
class Callable:
    name: str
    overloads: tuple[Overload, ...]
    method: bool = False  # a Tensor method: `self` is the receiver, not an argument

    @property
    def takes_device(self) -> bool:
        """Some overload accepts device= (a fix may add it)."""
        return any(o.takes_device for o in self.overloads)

    @property
    def takes_generator(self) -> bool:
        return any(o.takes_generator for o in self.overloads)

    def bind(self, positional: list[str], keywords: dict[str, str]) -> Optional["Binding"]:
        """The overload PyTorch's argument parser would pick, and which parameter each argument
        fills. Argument kinds: "tensor", "tensor0" (a 0-dim tensor), "tensors" (a list or tuple
        of tensors), "number", "none", "other" (a known non-tensor), "unknown"."""
        return _bind_cached(self.name, self.method, tuple(positional), tuple(sorted(keywords.items())))

    def _bind(self, positional: list[str], keywords: dict[str, str]) -> Optional["Binding"]:
        best, best_score = None, -1
        for overload in self.overloads:
            bound = _bind(overload, positional, keywords, self.method)
            if bound is None:
                continue
            score = sum(_fit(kind, overload.param(name).kind) for name, kind in bound.items())
            if score > best_score:
                best, best_score = Binding(overload, bound), score
        return best


@dataclass(frozen=True)
class Binding:
    overload: Overload
    kinds: dict  # {parameter name: argument kind}

    def param_of_position(self, index: int, method: bool = False) -> Optional[Param]:
        """The parameter the index-th positional argument fills (the receiver not counted)."""
        positional = self.overload._positional
        if method and positional and positional[0].name == "self":
            positional = positional[1:]
        if index < len(positional) and not positional[index].is_star:
            return positional[index]
        return next((p for p in positional if p.is_star), None)


@dataclass(frozen=True)
class ModuleClass:
    name: str
    state: str
    state_if: tuple[tuple[str, int], ...]
    state_unless: tuple[str, ...]
    factory_kwargs: bool
    container: bool
    device_at: Optional[int] = None  # `device`'s position: `Linear(4, 4, True, dev)` is built on dev

    def holds_state(self, keywords: dict[str, object], positional: tuple = ()) -> Optional[bool]:
        """Does an instance built with these arguments hold parameters or buffers?  A value of
        None means the argument was not given (or given as None); any other value means it was.
        None as the answer: it depends on its children, or it is unknown."""
        if self.container or self.state in ("children", "unknown"):
            return None
        if self.state == "none":
            return any(keywords.get(name) is not None or (index < len(positional) and positional[index] is not None)
                       for name, index in self.state_if)
        for flip in self.state_unless:
            arg, _, value = flip.partition("=")
            if arg in keywords and str(keywords[arg]) == value:
                return False
        return True

    @property
    def runs_anywhere(self) -> bool:
        """A default instance holds nothing: it runs wherever its input is."""
        return self.state == "none" and not self.container


def _fit(arg: str, kind: str) -> int:
    """2: the argument fits the parameter exactly (a tensor to a tensor), 1: it fits, 0: unknown."""
    if arg == "unknown" or kind == "other":
        return 0
    if arg in ("tensor", "tensor0"):
        return 2 if kind in TENSOR_KINDS else 1
    if arg == "tensors":
        return 2 if kind in ("tensors", "tensors?") else 1
    return 2 if kind in NUMBER_KINDS or kind in ("bool", "str", "dtype", "device") else 1


def _accepts(arg: str, kind: str) -> bool:
    if arg == "unknown" or kind in ("other", "index"):
        return True
    if arg == "none":
        return kind.endswith("?") or kind not in TENSOR_KINDS
    if arg == "tensor":
        return kind in ("tensor", "tensor?")
    if arg == "tensor0":
        return kind in ("tensor", "tensor?") or kind in NUMBER_KINDS
    if arg == "tensors":
        return kind in ("tensors", "tensors?", "ints", "floats")
    if arg == "number":
        return kind in NUMBER_KINDS or kind in ("bool", "ints", "floats")
    return kind not in TENSOR_KINDS


@lru_cache(maxsize=8192)
def _bind_cached(name: str, method: bool, positional: tuple, keywords: tuple) -> Optional[Binding]:
    """Calls repeat the same argument kinds: bind each combination once."""
    callable_ = lookup_method(name[len("Tensor."):]) if method else lookup_function(name)
    return callable_._bind(list(positional), dict(keywords))


def _bind(overload: Overload, positional: list[str], keywords: dict[str, str], method: bool) -> Optional[dict]:
    slots = list(overload._positional)
    bound: dict[str, str] = {}
    if method and slots and slots[0].name == "self":
        bound["self"] = "tensor"
        slots = slots[1:]
    star = next((p for p in slots if p.is_star), None)
    if len(slots) == 1 and slots[0].kind == "ints" and len(positional) > 1:
        # torch.zeros(2, 3), x.view(2, 3): a lone int-list parameter takes the sizes as varargs
        if any(kind in ("tensor", "tensors", "other", "none") for kind in positional):
            return None
        positional = ["other"]
    for i, kind in enumerate(positional):
        if i < len(slots) and not slots[i].is_star:
            param = slots[i]
        elif star is not None:  # `*args` takes what comes (einsum's equation, then its operands)
            if kind in ("tensor", "tensor0", "tensors"):
                bound[star.name] = "tensors"
            continue
        else:
            return None
        if not _accepts(kind, param.kind):
            return None
        bound[param.name] = kind
    for name, kind in keywords.items():
        param = overload.param(name)
        if param is None or param.name in bound or not _accepts(kind, param.kind):
            return None
        bound[name] = kind
    if any(not p.optional and not p.is_star and p.name not in bound for p in overload.params):
        return None
    return bound


class _LazySection(dict):
    """{name: entry}, each entry parsed from its own line of the table on first use: the whole
    table is 400 kB of JSON, and a check needs a few hundred of its 1,700 entries."""

    def get(self, name, default=None):
        text = super().get(name)
        if text is None:
            return default
        if isinstance(text, str):
            text = json.loads(text)
            self[name] = text
        return text


@lru_cache(maxsize=1)
def _table() -> dict:
    """The table, with its big sections read lazily from the generator's one-entry-per-line
    layout (any other layout of the same JSON is read whole)."""
    with open(TABLE_PATH, encoding="utf-8") as f:
        text = f.read()
    table: dict = {}
    section = None
    try:
        for line in text.splitlines()[1:-1]:
            if line.startswith('  "'):  # '  "torch.arange": [...],'
                name_end = line.index('": ', 3)
                section[line[3:name_end]] = line[name_end + 3:].rstrip(",")
            elif line.endswith("{"):  # '"functions": {'
                section = table[json.loads(line[:-3])] = _LazySection()
            elif line.startswith('"'):  # '"format": 1,'
                table.update(json.loads("{" + line.rstrip(",") + "}"))
    except (ValueError, TypeError, json.JSONDecodeError):
        return json.loads(text)
    return table if {"functions", "methods", "modules", "excluded"} <= set(table) else json.loads(text)


def _overload(raw: dict) -> Overload:
    params = tuple(Param(n, k, "k" in flags, "o" in flags, role) for n, k, flags, role in raw["params"])
    return Overload(params, raw["result"], raw["returns"], tuple(raw.get("follows", ())), raw["src"])


@lru_cache(maxsize=4096)
def lookup_function(qualname: str) -> Optional[Callable]:
    """`torch.arange`, `torch.nn.functional.cross_entropy`, `torch.linalg.norm` ... (None: not a
    public callable of the covered namespaces, or left out: see `excluded`)."""
    raw = _table()["functions"].get(qualname)
    return Callable(qualname, tuple(_overload(o) for o in raw)) if raw is not None else None


@lru_cache(maxsize=4096)
def lookup_method(name: str) -> Optional[Callable]:
    """A Tensor method: `index_select`, `to`, `__getitem__` ..."""
    raw = _table()["methods"].get(name)
    return Callable(f"Tensor.{name}", tuple(_overload(o) for o in raw), method=True) if raw is not None else None


@lru_cache(maxsize=1024)
def lookup_module_class(qualname: str) -> Optional[ModuleClass]:
    """`torch.nn.CrossEntropyLoss` -> what an instance holds and whether it takes device=."""
    raw = _table()["modules"].get(qualname)
    if raw is None:
        return None
    return ModuleClass(qualname, raw["state"], tuple((n, i) for n, i in raw.get("state_if", ())),
                       tuple(raw.get("state_unless", ())),
                       raw.get("factory_kwargs", False), raw.get("container", False), raw.get("device_at"))


def exclusion_reason(qualname: str) -> Optional[str]:
    """Why a public name has no entry ("a class (torch), not an operator")."""
    return _table()["excluded"].get(qualname)


def torch_version() -> str:
    return _table()["torch"]
