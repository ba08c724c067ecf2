"""How many dimensions a tensor has, as far as the code shows it.

A CPU tensor meets a CUDA tensor without error in arithmetic only when it is 0-dim, so an error
needs to know that the CPU operand is *not* 0-dim.  The exact rank is often unknown while a lower
bound is plain from the code: `x.unsqueeze(0)`, `x[None, :]`, `x.view(1, 1, -1)`, `x.repeat(n, 1)`
or `x[i, :, :]` can never be 0-dim.  Each rule returns `(rank, min_rank)`: the exact rank when
known (else None) and the least rank the tensor can have (0 when nothing is known).
"""
from __future__ import annotations

import ast
from typing import Optional

from . import torch_api as api
from .values import NUMBER, UNKNOWN, IntV, Number, BatchV, PlacedV, SeqV, TensorV

# Methods whose result has the receiver's rank (elementwise ops, dtype changes, moves, in-place fills).
SAME_RANK = {
    "clone", "detach", "contiguous", "abs", "exp", "log", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "relu",
    "neg", "sign", "floor", "ceil", "round", "clamp", "clamp_min", "clamp_max", "float", "double", "half",
    "bfloat16", "long", "int", "short", "bool", "byte", "char", "transpose", "permute", "flip", "roll", "cumsum",
    "cumprod", "softmax", "log_softmax", "masked_fill", "fill_", "zero_", "normal_", "uniform_", "requires_grad_",
    "pin_memory", "nan_to_num", "erf", "pow", "square", "reciprocal", "sin", "cos", "triu", "tril", "mul", "add",
    "sub", "div", "mul_", "add_", "sub_", "div_", "clamp_", "copy_", "exp_", "log_", "sigmoid_", "tanh_",
    "relu_", "abs_", "float_power", "argsort", "to", "cuda", "cpu", "type_as", "masked_fill_",
    "transpose_", "detach_", "expand_as", "view_as", "reshape_as",
}
# Products that take operands of one rank only and give that rank (`torch.bmm` raises "batch1 must be a
# 3D tensor", `mm` "a must be 2D", `outer` "Expected 1-D argument"): as functions or Tensor methods.
FIXED_RANK = {"bmm": 3, "baddbmm": 3, "mm": 2, "addmm": 2, "outer": 2, "ger": 2}
# Methods whose sizes are given as *sizes or one tuple: the result has that many dimensions.
SIZED = {"view", "reshape", "expand", "new_zeros", "new_ones", "new_empty", "new_full"}


def floor(value: TensorV) -> int:
    """The least rank `value` can have."""
    return value.rank if value.rank is not None else value.min_rank


def method_rank(name: str, recv: TensorV, node: ast.Call, args: list) -> tuple[Optional[int], int]:
    """`recv.<name>(*args)`."""
    if name in SAME_RANK:
        if name in ("expand_as", "view_as", "reshape_as") and args and isinstance(args[0], TensorV):
            return args[0].rank, floor(args[0])
        return recv.rank, recv.min_rank
    if name == "unsqueeze":
        return (recv.rank + 1 if recv.rank is not None else None), floor(recv) + 1
    if name in SIZED or name in ("repeat", "tile"):  # tile pads its sizes like repeat
        count = _size_count(node, args)
        if count is None:
            return None, 0
        if name in ("repeat", "tile"):  # more sizes than dims add leading dimensions
            return (max(count, recv.rank) if recv.rank is not None else None), max(count, floor(recv))
        return count, count
    if name == "flatten":
        return (1, 1) if not node.args and not node.keywords else (None, 1)
    return None, 0


def _size_count(node: ast.Call, args: list) -> Optional[int]:
    """How many sizes `(2, 3)`, `2, 3` or `-1` give; None when a size object hides it."""
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if len(node.args) == 1:
        only = node.args[0]
        if isinstance(only, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in only.elts):
            return len(only.elts)
        if isinstance(only, ast.Constant) and isinstance(only.value, int) or args and isinstance(args[0], Number):
            return 1
        return None
    return len(node.args) or None


def subscript_rank(base: TensorV, index: ast.AST, value) -> tuple[Optional[int], int]:
    """`base[index]` (`value`: the index evaluated).  Each slice keeps a dimension and each None adds
    one, whatever the other parts are (an index tensor or a mask adds zero or more); the exact rank
    needs every part to be an int, a slice, None or Ellipsis."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    values = value.items if isinstance(index, ast.Tuple) and isinstance(value, SeqV) and value.items is not None \
        else [value] * len(parts) if not isinstance(index, ast.Tuple) else [None] * len(parts)
    ints = slices = news = 0
    basic = True
    ellipsis = False
    for part, part_value in zip(parts, values):
        if isinstance(part, ast.Slice):
            slices += 1
        elif isinstance(part, ast.Constant) and part.value is None:
            news += 1
        elif isinstance(part, ast.Constant) and part.value is Ellipsis:
            ellipsis = True
        elif isinstance(part, ast.Constant) and isinstance(part.value, int) and not isinstance(part.value, bool) \
                or part_value is NUMBER or part_value.__class__ is IntV or isinstance(part, (ast.Name, ast.Attribute, ast.UnaryOp, ast.BinOp)) \
                and not isinstance(part_value, (TensorV, SeqV, BatchV, PlacedV)):
            ints += 1  # (a name of unknown value is read as an int, as the index of `x[i]`)
        else:
            basic = False  # a tensor, a list or a mask: advanced indexing
    least = slices + news
    if not basic:
        return None, least
    if base.rank is not None and not ellipsis:
        return base.rank - ints + news, base.rank - ints + news
    return None, max(least, floor(base) - ints + news)


def broadcast_rank(tensors: list) -> tuple[Optional[int], int]:
    """Elementwise arithmetic on `tensors` (and numbers, 0-dim): the result has the largest rank."""
    least = max((floor(t) for t in tensors), default=0)
    if all(t.rank is not None for t in tensors):
        return max(t.rank for t in tensors), least
    return None, least


def factory_rank(node: ast.Call, name: str) -> Optional[int]:
    kind = api.TORCH_FACTORIES.get(name)
    args = node.args
    if kind == "args":
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            return len(args[0].elts)
        if args and not any(isinstance(a, ast.Starred) for a in args):
            if len(args) == 1 and not isinstance(args[0], ast.Constant):
                # torch.zeros(shape): a size object of unknown length; torch.zeros(n * (n - 1) // 2): one size
                return 1 if a_number(args[0]) else None
            return len(args)
        size = next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "first":
        size = args[0] if args else next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "randint":
        size = next((a for a in args if isinstance(a, (ast.Tuple, ast.List))), None)
        size = size or next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "rank1":
        return 1
    if kind == "rank2":
        return 2
    if kind == "rank0":
        return 0
    if kind == "data" and args:
        data = args[0]
        if isinstance(data, ast.Constant) and isinstance(data.value, (int, float, bool, complex)):
            return 0
        if isinstance(data, ast.UnaryOp) and isinstance(data.operand, ast.Constant):
            return 0
        if isinstance(data, (ast.List, ast.Tuple, ast.ListComp)):
            return 1
    return None


# Operators no list, tuple or torch.Size has: what they give is a number (or raises).
_NUMBER_OPS = (ast.Sub, ast.FloorDiv, ast.Mod, ast.Pow, ast.Div)


def a_number(node: ast.AST) -> bool:
    """Is `node` a number whatever its names hold, so that a factory given it alone makes one dimension
    (`torch.zeros(n * (n - 1) // 2)`, `torch.ones(2 * (k - 1))`)?  `+` and `*` only of numbers: a
    tuple or a list of sizes has them too (`shape * 2`, `[n] + rest`)."""
    kind = node.__class__
    if kind is ast.Constant:
        return type(node.value) in (int, float)
    if kind is ast.UnaryOp:
        return isinstance(node.op, (ast.USub, ast.UAdd)) and a_number(node.operand)
    if kind is ast.BinOp:
        if isinstance(node.op, _NUMBER_OPS):
            return True
        return isinstance(node.op, (ast.Add, ast.Mult)) and a_number(node.left) and a_number(node.right)
    return False


def size_object(node: ast.Call, name: str) -> Optional[ast.Name]:
    """The tensor a factory's sizes are read from, where they are all of its sizes: `torch.zeros(x.shape)`,
    `torch.rand(*x.size())`, `torch.full(x.shape, v)`, `torch.randint(1, 9, x.shape)`, `size=x.shape`
    (the result then has x's rank).  Only a plain name: its value is a read of the caller's."""
    kind = api.TORCH_FACTORIES.get(name)
    size = next((k.value for k in node.keywords if k.arg == "size"), None)
    if size is None and kind == "args" and len(node.args) == 1:
        size = node.args[0]
    elif size is None and kind == "first" and node.args:
        size = node.args[0]
    elif size is None and kind == "randint" and len(node.args) in (2, 3):
        size = node.args[-1]
    if size is None:
        return None
    if size.__class__ is ast.Starred and kind != "randint":
        size = size.value
    if size.__class__ is ast.Attribute and size.attr == "shape":
        base = size.value
    elif size.__class__ is ast.Call and size.func.__class__ is ast.Attribute and size.func.attr == "size" \
            and not size.args and not size.keywords:
        base = size.func.value
    else:
        return None
    return base if base.__class__ is ast.Name else None


def einops_rank(node: ast.Call) -> tuple[Optional[int], int]:
    """(rank, least rank) of `einops.rearrange(x, "b n ... -> (b n) ...")` (also `repeat`, `reduce`): one
    dimension per axis, group `(...)` or number on the right of `->`, and any number for `...`."""
    pattern = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "pattern"), None)
    if not (isinstance(pattern, ast.Constant) and isinstance(pattern.value, str)) or pattern.value.count("->") != 1:
        return None, 0
    right = pattern.value.split("->")[1]
    depth, count, open_ended = 0, 0, False
    for token in right.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            count += depth == 0
            depth += 1
        elif token == ")":
            depth -= 1
        elif depth == 0 and token in ("...", "\u2026"):
            open_ended = True
        elif depth == 0:
            count += 1
        if depth < 0:
            return None, 0
    if depth:
        return None, 0
    return (None, count) if open_ended else (count, count)


# Ops that give a tuple of tensors (`torch.return_types`), as Tensor methods and torch functions, with the
# names of its fields; each item is on the input's device.  The rank of each item, checked against torch on
# FakeTensorMode for inputs of rank 0 to 3 (tests/engine/test_ranks.py): `topk` and `sort` keep the input's
# rank; `max`/`min`/`median`/`nanmedian` given a dim, `kthvalue`, `mode` and `aminmax(dim=)` drop that dim
# (`keepdim=True` keeps it; a 0-dim input stays 0-dim); `std_mean`/`var_mean` drop the dims they are given
# (all of them without); `unique(return_inverse=/return_counts=)` gives a 1-D output (the input's rank with
# `dim=`), the inverse of the input's rank (1-D with `dim=`) and 1-D counts; `torch.where(cond)` and
# `nonzero(as_tuple=True)` one 1-D index per dim of the input (one for a 0-dim input); `split`, `chunk` and
# `tensor_split` pieces of the input's rank, `unbind` slices of one rank less.
RETURN_FIELDS = {
    "topk": ("values", "indices"), "sort": ("values", "indices"), "kthvalue": ("values", "indices"),
    "mode": ("values", "indices"), "max": ("values", "indices"), "min": ("values", "indices"),
    "median": ("values", "indices"), "nanmedian": ("values", "indices"), "aminmax": ("min", "max"),
    "std_mean": None, "var_mean": None, "unique": None, "unique_consecutive": None, "where": None,
    "nonzero": None, "split": None, "chunk": None, "tensor_split": None, "unbind": None,
}
_DIM_OPTIONAL = {"kthvalue": 2, "mode": 1}  # (where their dim stands among the arguments after the input)
_DIM_GIVES_TUPLE = {"max": 1, "min": 1, "median": 1, "nanmedian": 1}


def _keyword(node: ast.Call, name: str):
    for k in node.keywords:
        if k.arg == name:
            return k.value
    return None


def _int_arg(arg, value) -> bool:
    return value is NUMBER and not isinstance(arg, ast.Constant) or isinstance(arg, ast.Constant) and \
        type(arg.value) is int or isinstance(arg, ast.UnaryOp) and isinstance(arg.operand, ast.Constant) \
        and type(arg.operand.value) is int


def _flag(arg) -> Optional[bool]:
    """A `keepdim=` / `return_inverse=` argument: True, False (absent) or None (not known)."""
    if arg is None:
        return False
    return arg.value if isinstance(arg, ast.Constant) and type(arg.value) is bool else None


def _drop(rank: Optional[int], least: int, count: Optional[int], keep: Optional[bool]) -> tuple[Optional[int], int]:
    """The rank after reducing `count` dims (None: not known how many), kept as size 1 where `keep`."""
    if keep is True:
        return rank, least
    if keep is None or count is None:
        return None, 0 if count is None else max(least - count, 0)
    return (max(rank - count, 0) if rank is not None else None), max(least - count, 0)


def tuple_ranks(name: str, recv: TensorV, node: ast.Call, args: list, first: int):
    """`recv.<name>(...)` / `torch.<name>(recv, ...)` (`first`: where the arguments after the input
    start in `node.args`, `args` their values): the (rank, least rank, index dtype) of each item of the
    tuple it returns, with True after them where the count of items is not known (one entry stands for
    every item); None where it returns no tuple or that is not known."""
    given = node.args[first:]
    values = args[first:] if len(args) >= len(node.args) else [UNKNOWN] * len(given)
    rank, least = recv.rank, floor(recv)
    if any(isinstance(a, ast.Starred) for a in given) or any(k.arg is None for k in node.keywords):
        return None
    if name in ("topk", "sort"):
        return ((rank, least, None), (rank, least, "int64")), False
    if name in _DIM_GIVES_TUPLE or name in _DIM_OPTIONAL or name == "aminmax":
        at = _DIM_GIVES_TUPLE.get(name) or _DIM_OPTIONAL.get(name) or 0
        dim = _keyword(node, "dim")
        if dim is None and len(given) >= at > 0:
            dim, dim_value = given[at - 1], values[at - 1]
            if not _int_arg(dim, dim_value):
                return None  # (`torch.max(x, y)`: elementwise, one tensor)
        if dim is None and name not in _DIM_OPTIONAL and name != "aminmax":
            return None  # (`x.max()`: one 0-dim tensor)
        keep = _keyword(node, "keepdim")
        if keep is None and len(given) > at > 0:
            keep = given[at]
        keep = _flag(keep)
        if dim is None and name == "aminmax":
            rank, least = (0, 0) if keep is False else (None, 0)
        else:
            rank, least = _drop(rank, least, 1, keep)
        return ((rank, least, None), (rank, least, None if name == "aminmax" else "int64")), False
    if name in ("std_mean", "var_mean"):
        dim = _keyword(node, "dim")
        if dim is None and given:
            dim = given[0]
        keep = _flag(_keyword(node, "keepdim"))
        if dim is None or isinstance(dim, ast.Constant) and (dim.value is None or type(dim.value) is bool):
            out = (0, 0) if keep is False else (None, 0)  # every dim (a bool first: `unbiased`)
        else:
            count = len(dim.elts) if isinstance(dim, (ast.Tuple, ast.List)) and not any(
                isinstance(e, ast.Starred) for e in dim.elts) else 1 if _int_arg(dim, values[0] if given else UNKNOWN) \
                else None
            out = _drop(rank, least, count, keep)
        return ((*out, None), (*out, None)), False
    if name in ("unique", "unique_consecutive"):
        inverse, counts = _flag(_keyword(node, "return_inverse")), _flag(_keyword(node, "return_counts"))
        if inverse is None or counts is None or not (inverse or counts) or given and name == "unique_consecutive":
            return None  # (one tensor, or not known which)
        if len(given) > 1:
            return None  # (flags given by position)
        by_dim = _keyword(node, "dim")
        by_dim = by_dim is not None and not (isinstance(by_dim, ast.Constant) and by_dim.value is None)
        items = [(rank, least, None) if by_dim else (1, 1, None)]
        if inverse:
            items.append((1, 1, "int64") if by_dim else (rank, least, "int64"))
        if counts:
            items.append((1, 1, "int64"))
        return tuple(items), False
    if name in ("where", "nonzero"):
        if name == "where" and (given or node.keywords) or name == "nonzero" and (
                _flag(_keyword(node, "as_tuple")) is not True or given):
            return None
        if rank is not None:
            return ((1, 1, "int64"),) * max(rank, 1), False
        return ((1, 1, "int64"),), True
    if name in ("split", "chunk", "tensor_split"):
        return ((rank, least, None),), True
    if name == "unbind":
        return (((rank - 1 if rank else None), max(least - 1, 0), None),), True
    return None


def tuple_value(name: str, recv: TensorV, node: ast.Call, args: list, first: int, dev) -> Optional[SeqV]:
    """What a tuple-returning op (`RETURN_FIELDS`) gives: a tuple of tensors on `dev` of the ranks
    `tuple_ranks` says (None where no tuple is known)."""
    shape = tuple_ranks(name, recv, node, args, first)
    if shape is None:
        return None
    entries, open_ended = shape
    grad = recv.grad
    items = tuple(TensorV(dev, origin=node, rank=rank, min_rank=least, dtype=dtype, grad=grad and dtype is None,
                          batch=recv.batch) for rank, least, dtype in entries)
    if open_ended:
        return SeqV(None, items[0])
    return SeqV(items, UNKNOWN, True, RETURN_FIELDS[name])
