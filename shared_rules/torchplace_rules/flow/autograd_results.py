"""Where autograd's results live: `torch.autograd.grad(outputs, inputs)` gives one gradient per input,
each on that input's device (the engine checks each gradient against its input's metadata and moves
only a 0-dim gradient there), and `torch.autograd.functional.hessian(func, x)` of one tensor `x` is one
tensor on `x`'s device.  Without this, a fit whose gradient and hessian come from autograd (smee's
Levenberg-Marquardt test, batch b20) had them of unknown device.

Used by `torch_calls.call_qualified` for the two qualified names only (nothing else pays for it)."""
from __future__ import annotations

import ast

from .values import UNKNOWN, SeqV, TensorV, Value

AUTOGRAD_RESULTS = frozenset({"torch.autograd.grad", "torch.autograd.functional.hessian"})


def autograd_result(node: ast.Call, qual: str, args: list, kwargs: dict) -> Value:
    """The value of a call of one of `AUTOGRAD_RESULTS`, from its evaluated arguments."""
    if qual == "torch.autograd.grad":
        return _grads(node, args, kwargs)
    inputs = args[1] if len(args) > 1 else kwargs.get("inputs", UNKNOWN)
    if isinstance(inputs, TensorV) and len(node.args) <= 2 and not _flag(node, "vectorize"):
        return TensorV(inputs.dev, origin=node, dtype=inputs.dtype,
                       rank=None if inputs.rank is None else 2 * inputs.rank)
    return UNKNOWN


def _grads(node: ast.Call, args: list, kwargs: dict) -> Value:
    """A tuple of one gradient per input (a tensor or a sequence of known tensors).  With
    `allow_unused=` (not False) an unused input gives None, and `is_grads_batched=` changes the shape:
    nothing is claimed then."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return UNKNOWN
    if _flag(node, "allow_unused") or _flag(node, "is_grads_batched") or _flag(node, "materialize_grads"):
        return UNKNOWN
    inputs = args[1] if len(args) > 1 else kwargs.get("inputs", UNKNOWN)
    if isinstance(inputs, TensorV):
        items = (inputs,)
    elif isinstance(inputs, SeqV) and inputs.items and all(isinstance(t, TensorV) for t in inputs.items):
        items = inputs.items
    else:
        return SeqV(None, UNKNOWN)
    graph = _flag(node, "create_graph")
    return SeqV(tuple(TensorV(t.dev, origin=node, dtype=t.dtype, rank=t.rank, min_rank=t.min_rank,
                              grad=graph and t.grad) for t in items), UNKNOWN, True)


def _flag(node: ast.Call, name: str) -> bool:
    """Is keyword `name` given as anything but a literal False/None (a value not known counts as given)?"""
    value = next((k.value for k in node.keywords if k.arg == name), None)
    return value is not None and not (isinstance(value, ast.Constant) and value.value in (False, None))
