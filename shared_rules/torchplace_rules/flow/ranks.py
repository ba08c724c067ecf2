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
from .values import NUMBER, IntV, Number, BatchV, PlacedV, SeqV, TensorV

# Methods whose result has the receiver's rank (elementwise ops, dtype changes, moves, in-place fills).
SAME_RANK = {
    "clone", "detach", "contiguous", "abs", "exp", "log", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "relu",
    "neg", "sign", "floor", "ceil", "round", "clamp", "clamp_min", "clamp_max", "float", "double", "half",
    "bfloat16", "long", "int", "short", "bool", "byte", "char", "transpose", "permute", "flip", "roll", "cumsum",
    "cumprod", "softmax", "log_softmax", "masked_fill", "fill_", "zero_", "normal_", "uniform_", "requires_grad_",
    "pin_memory", "nan_to_num", "erf", "pow", "square", "reciprocal", "sin", "cos", "triu", "tril", "mul", "add",
    "sub", "div", "mul_", "add_", "sub_", "div_", "clamp_", "copy_", "exp_", "log_", "sigmoid_", "tanh_",
    "relu_", "abs_", "float_power", "argsort", "sort", "to", "cuda", "cpu", "type_as", "masked_fill_",
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
                return None  # torch.zeros(shape): a size object of unknown length
            return len(args)
        size = next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "first" and args and isinstance(args[0], (ast.Tuple, ast.List)):
        return len(args[0].elts)
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
