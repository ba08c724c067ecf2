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

from .values import UNKNOWN, DictV, Number, SeqV, TensorV, Value, join_all


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


def repeated(seq: SeqV, count: Value) -> Value:
    """`[h0] * num_layers`: a list of what `seq` holds (None when `count` is no number)."""
    if not isinstance(count, Number):
        return None
    if seq.items == ():
        return seq
    return SeqV(None, seq.element(), True)


def merged_mapping(parts: list) -> Value:
    """A dict made of `parts`, (key, value) pairs in order, a None key for a mapping unpacked into it
    (`{**batch, "labels": y}`, `dict(d, k=v)`, `d.copy()`): later keys win, as in Python.  Keys the
    analysis cannot read (a mapping of unknown items) leave the items unknown and join the values."""
    items, extra, known = {}, [], True
    for key, value in parts:
        if key is None:
            if not isinstance(value, DictV):
                return UNKNOWN  # (some mapping: any key may map to anything)
            if value.items is None:
                known = False
                extra.append(value.elem)
            else:
                items.update(value.items)
        elif isinstance(key, str):
            items[key] = value
        else:
            known = False
            extra.append(value)
    values = list(items.values()) + extra
    elem = join_all(values) if values else UNKNOWN
    return DictV(elem, tuple(items.items()) if known else None)
