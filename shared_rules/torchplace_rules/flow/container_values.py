"""What Python's own operations on lists give when the list holds tensors.

`sum(losses)` is `0 + losses[0] + losses[1] + ...`: with tensors in the list it is a tensor where they
are (a number plus a tensor stays on the tensor's device).  `xs + ys` and `xs += ys` on lists make the
list of both lists' items, and `xs.pop()` gives one of the items.  Before, each gave nothing, so the
loss totals and stacks of hidden states that real training loops build this way were unknown.

As everywhere in the analysis, a list filled in a loop is taken to hold what the loop put in it
(`sum` of an empty list is 0, as the loop that never ran leaves a running total at its start).
"""
from __future__ import annotations

import ast

from .values import UNKNOWN, Number, SeqV, TensorV, Value


def builtin_sum(node: ast.Call, args: list, kwargs: dict) -> Value:
    """`sum(items)` / `sum(items, start)` with a number to start from: a tensor where the items are,
    when the items are tensors; unknown otherwise (a tensor `start` is an operand the caller checks)."""
    if not args or len(args) > 2 or any(k != "start" for k in kwargs):
        return UNKNOWN
    start = args[1] if len(args) == 2 else kwargs.get("start")
    if start is not None and not isinstance(start, Number):
        return UNKNOWN
    items = args[0]
    if items.__class__ is not SeqV:
        return UNKNOWN
    item = items.element()
    if item.__class__ is not TensorV:
        return UNKNOWN
    # (0 + a bool tensor is an int64 one: the dtype of other items stays)
    return TensorV(item.dev, origin=node, rank=item.rank, dtype=None if item.dtype == "bool" else item.dtype,
                   grad=item.grad, module_output=item.module_output, min_rank=item.min_rank)


def concatenated(left: Value, right: Value) -> Value:
    """`xs + ys` (or `xs += ys`) of two lists or two tuples: the items of both, in order; None when
    either side is not a list the analysis knows (the caller falls back to what it did)."""
    if left.__class__ is not SeqV or right.__class__ is not SeqV:
        return None
    if left.items is not None and right.items is not None:
        return SeqV(left.items + right.items, UNKNOWN, True)
    element = right.element() if left.items == () else left.element() if right.items == () else \
        left.element().join(right.element())
    return SeqV(None, element, True)


def popped(lst: SeqV) -> Value:
    """`xs.pop()` / `xs.pop(i)`: one of the items (which one is left open: they are joined)."""
    return lst.element()
