"""PyTorch operators by the table generated from torch (`torchplace_rules.torch_semantics`).

For a call of a torch function or a Tensor method: the overload PyTorch's argument parser
picks (`bind`), which tensor arguments must share one device and with which exemption
(`check`: a 0-dim CPU tensor only where PyTorch lets it through, CPU indices, tensors read as
numbers), and where the result lives (`follows_device`).  `torch_calls.py` and
`torch_methods.py` route their calls here; what the table cannot tell stays with them.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import Optional

from .. import torch_semantics as semantics
from .devices import ACCEL_KIND, Dev
from .events import Conflict
from .values import UNKNOWN, BatchV, PlacedV, SeqV, TensorV, Value


@dataclass
class Operand:
    param: semantics.Param
    value: Value
    node: ast.AST


def arg_kind(value: Value, node: Optional[ast.AST]) -> str:
    """How PyTorch's argument parser sees an argument (torch_semantics.Callable.bind)."""
    if value.__class__ is TensorV:
        return "tensor0" if value.rank == 0 else "tensor"
    if value.__class__ in (PlacedV, BatchV):
        return "tensor"
    if value.__class__ is SeqV:
        items = value.items if value.items is not None else (value.elem,)
        return "tensors" if any(isinstance(v, (TensorV, PlacedV, BatchV)) for v in items) else "unknown"
    if node.__class__ is ast.Constant:
        if node.value is None:
            return "none"
        return "other" if isinstance(node.value, str) else "number"
    if node.__class__ is ast.UnaryOp and node.operand.__class__ is ast.Constant:
        return "number"
    return "unknown"


_NOT_TENSORS = ("other", "number", "none")  # argument kinds that are surely no tensor


def _may_be_0_dim(value: Value) -> bool:
    return isinstance(value, TensorV) and value.rank is None and not value.min_rank


# the NumPy names PyTorch's argument parser takes for its own (python_arg_parser.cpp,
# `numpy_compatibility_arg_names`; checked on torch 2.13: `torch.cat(xs, axis=0)`, `x.sum(keepdims=True)`,
# `torch.sum(a=t)`, `torch.add(t, x2=u)`)
NUMPY_ALIASES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input", "x1": "input", "x2": "other"}


def bind(callable_: semantics.Callable, node: ast.Call, args: list, kwargs: dict,
         receiver: Optional[tuple[Value, ast.AST]] = None) -> Optional[tuple[semantics.Overload, list[Operand]]]:
    """(overload, tensor operands with their parameter) of `node`, or None when no overload fits
    (a star argument, **kwargs, or a call PyTorch would reject by its types)."""
    for a in node.args:  # (loops, not `any`: this runs on every torch call)
        if a.__class__ is ast.Starred:
            return None
    aliased = False
    for k in node.keywords:
        if k.arg is None:
            return None
        if k.arg in NUMPY_ALIASES:
            aliased = True
    keyword_nodes = {k.arg: k.value for k in node.keywords}
    if aliased:  # `torch.cat(xs, axis=0)`: PyTorch's argument parser reads NumPy's names as its own
        rename = {k: NUMPY_ALIASES[k] for k in kwargs if k in NUMPY_ALIASES and NUMPY_ALIASES[k] not in kwargs}
        kwargs = {rename.get(k, k): v for k, v in kwargs.items()}
        keyword_nodes = {rename.get(k, k): v for k, v in keyword_nodes.items()}
    positional = [arg_kind(v, n) for v, n in zip(args, node.args)]
    keywords = {k: arg_kind(v, keyword_nodes.get(k)) for k, v in kwargs.items()}
    binding = callable_.bind(positional, keywords)
    if binding is None:
        # a tensor of unknown rank where PyTorch reads a number (`torch.arange(t0, t1)`): the call
        # runs only if it is 0-dim, and PyTorch then reads it as a number
        scalar = lambda kind, value: "tensor0" if kind == "tensor" and _may_be_0_dim(value) else kind
        retry = [scalar(k, v) for k, v in zip(positional, args)], {k: scalar(kind, kwargs[k]) for k, kind in keywords.items()}
        if retry == (positional, keywords):
            return None
        binding = callable_.bind(*retry)
        if binding is None:
            return None
    overload, operands = binding.overload, []
    if receiver is not None and overload.param("self") is not None:
        operands.append(Operand(overload.param("self"), receiver[0], receiver[1]))
    for i, (value, arg) in enumerate(zip(args, node.args)):
        param = binding.param_of_position(i, method=callable_.method)
        if param is not None and not (param.is_star and positional[i] in _NOT_TENSORS):
            # (`*args` also takes einsum's equation: a string is no operand)
            operands.extend(operands_of(param, value, arg))
    for name, value in kwargs.items():
        param = overload.param(name)
        if param is not None:
            operands.extend(operands_of(param, value, keyword_nodes.get(name)))
    return overload, operands


def operands_of(param: Optional[semantics.Param], value: Value, node: ast.AST) -> list[Operand]:
    """The operands one argument gives (each element of a list or tuple of tensors)."""
    if param is None or not param.is_tensor:
        return []
    if isinstance(value, SeqV):  # torch.cat([a, b]): each element is an operand
        elts = node.elts if isinstance(node, (ast.List, ast.Tuple)) else None
        items = value.items if value.items is not None else (value.elem,)
        if elts is None or len(elts) != len(items):
            elts = [node] * len(items)
        return [Operand(param, item, elt) for item, elt in zip(items, elts)]
    return [Operand(param, value, node)]


def checked(operands: list[Operand]) -> list[tuple[Value, ast.AST]]:
    """The operands PyTorch checks against the common device, as `ev.combine` takes them: a
    0-dim tensor under a strict role (`s`: the generated wrapper's check) counts like any other;
    CPU indices, tensors read as numbers and unchecked or unknown roles drop out."""
    kept = []
    for op in operands:
        role, value = op.param.role, op.value
        if op.param.name == "out" or role not in ("s", "s1", "z", "i"):
            continue
        if isinstance(value, (PlacedV, BatchV)):  # a loader batch is a CPU tensor: CPU indices pass too
            value = _as_tensor(value, op.node)
        if isinstance(value, TensorV) and value.dev is not None:
            if role == "i" and value.dev.is_cpu:
                continue
            if role == "s" and value.rank == 0:
                value = replace(value, rank=None)
        kept.append((value, op.node))
    return kept


def check(ev, node: ast.AST, operands: list[Operand]) -> bool:
    """Emit a conflict where PyTorch would raise; True when the call surely raises."""
    raises = ev.check_operands(node, checked(operands))
    for op in operands:  # an argument PyTorch wants on the CPU (pack_padded_sequence lengths)
        value = op.value
        if op.param.role == "c" and value.__class__ is PlacedV:  # `lengths.to(device)` of an unknown batch: a tensor
            value = value.as_tensor()
        if op.param.role == "c" and isinstance(value, TensorV) and value.dev is not None \
                and value.dev.kind in (ACCEL_KIND, "self"):  # (the module's device: resolved by the rule)
            plain = replace(value, batch=None)
            ev.emit("conflict", Conflict(node, "needs_cpu", plain, op.node, plain, op.node, value.dev))
            raises = raises or value.dev.kind == ACCEL_KIND
    return raises


def follows_device(overload: semantics.Overload, operands: list[Operand]) -> list[tuple[Value, ast.AST]]:
    """The operands the result's device comes from (the `follows` parameters)."""
    return [(op.value, op.node) for op in operands if op.param.name in overload.follows]


def tensor_result(ev, node: ast.AST, overload: semantics.Overload, operands: list[Operand]) -> Value:
    """Check the call; the result of an op whose result follows its inputs."""
    if check(ev, node, operands):
        return UNKNOWN
    sources = [_as_tensor(v, n) for v, n in follows_device(overload, operands)]
    if not sources or any(s is None for s in sources):
        # `torch.sigmoid(<unknown>)` is still a tensor (of an unknown device), not anything at all
        return TensorV(None, origin=node) if overload.returns == "T" else UNKNOWN
    return TensorV(common_device(sources), origin=node, batch=next((s.batch for s in sources if s.batch is not None), None),
                   grad=any(s.grad for s in sources), module_output=any(s.module_output for s in sources))


def common_device(tensors: list[TensorV]) -> Optional[Dev]:
    """Where an op on these tensors runs: the first accelerator tensor that is not 0-dim, else the
    one device they all share (None: unknown)."""
    dev = next((t.dev for t in tensors if t.dev is not None and t.rank != 0 and not t.dev.is_cpu), None)
    if dev is None:
        devs = {t.dev for t in tensors if t.rank != 0} or {t.dev for t in tensors}
        dev = devs.pop() if len(devs) == 1 else None
    return dev


def _as_tensor(value: Value, node: ast.AST) -> Optional[TensorV]:
    if isinstance(value, PlacedV):
        return value.as_tensor()
    if isinstance(value, BatchV):
        return value.element(node)
    return value if isinstance(value, TensorV) else None


def lookup_function(qual: str) -> Optional[semantics.Callable]:
    return semantics.lookup_function(qual)


def lookup_method(name: str) -> Optional[semantics.Callable]:
    return semantics.lookup_method(name)


def makes_tensors_from_nothing(qual: str) -> bool:
    """`torch.zeros`, `torch.tensor`: every overload is a factory (device=, else the default device);
    not `torch.normal`, whose tensor-std overload follows its argument."""
    callable_ = semantics.lookup_function(qual)
    return callable_ is not None and all(o.result in ("factory", "data") for o in callable_.overloads)


def makes_cpu_tensors(qual: str) -> bool:
    """`torch.zeros`, `torch.from_numpy`: every overload makes a new tensor on the default device or the CPU,
    whatever its arguments are (not `torch.tensor(x)`, which keeps a tensor `x` where it is)."""
    callable_ = semantics.lookup_function(qual)
    return callable_ is not None and all(o.result in ("factory", "cpu") for o in callable_.overloads)


def module_state(qual: str, node: ast.Call, spread: Optional[dict] = None) -> Optional[bool]:
    """Does `torch.nn.<Class>(...)` hold parameters or buffers (None: its children decide, or unknown)?
    `spread`: the keywords given through `**` whose keys are known (`**{"weight": w}`), None or True."""
    cls = semantics.lookup_module_class("torch.nn." + qual.rpartition(".")[2])
    if cls is None:
        return None
    keywords = {k.arg: _literal(k.value) for k in node.keywords if k.arg is not None}
    if spread:
        for key, given in spread.items():
            keywords.setdefault(key, given)
    return cls.holds_state(keywords, tuple(_literal(a) for a in node.args))


def device_position(qual: str) -> Optional[int]:
    """Where `torch.nn.<Class>(...)` takes `device` positionally (`Linear(4, 4, True, dev)`: 3)."""
    cls = semantics.lookup_module_class("torch.nn." + qual.rpartition(".")[2])
    return cls.device_at if cls is not None else None


def _literal(node: ast.AST) -> object:
    """A constant's value; any other expression is "given" (not None)."""
    return node.value if isinstance(node, ast.Constant) else node
