"""Sequences of unknown length spread with `*`: in a display (`(None, *t.unbind(0))`) and into a call's
parameters (`f(*t.unbind(0))`).

Where the length is unknown, what each item is can still be known: the pieces of `t.unbind(0)` are all on
`t`'s device.  A display keeps the join of what it holds (`None` joined with a tensor is the tensor, as
everywhere); a call binds the item to each parameter the star must fill: one without a default, not passed by
keyword, after the call's own positional arguments (the call raises TypeError unless the star fills it).
"""
from __future__ import annotations

import ast
from typing import Optional

from .values import UNKNOWN, SeqV, Value


def spread_display(nodes: list, values: list) -> Value:
    """The value of a tuple or list display with starred items (`values`: each item's value, the starred
    ones the sequence spread): a sequence of unknown length holding the join of every item."""
    held = None
    for node, value in zip(nodes, values):
        if node.__class__ is ast.Starred:
            if not isinstance(value, SeqV):
                return SeqV(None, UNKNOWN, True)
            value = value.element()
        held = value if held is None else held.join(value)
    return SeqV(None, UNKNOWN if held is None else held, True)


def star_item(arg_nodes: list, value: Value, at: int) -> Optional[Value]:
    """What each parameter the last positional argument `*value` fills is bound to (None where not known:
    the star is not the last positional argument, or its items are not known)."""
    if at != len(arg_nodes) - 1 or not isinstance(value, SeqV) or value.items is not None:
        return None
    item = value.elem
    return None if item is UNKNOWN else item


def fill_from_star(names: list, bound: dict, defaults: dict, item: Value) -> None:
    """Bind `item` to the positional parameters a trailing star must fill: those not bound yet (by the
    positional arguments before the star) that have no default."""
    for name in names:
        if name not in bound and name not in defaults:
            bound[name] = item
