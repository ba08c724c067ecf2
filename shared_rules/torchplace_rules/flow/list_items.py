"""A list whose items are known one by one (from its display) keeps them as it is changed in place:
`append(x)` adds x as its last item (so `his = [torch.zeros(n)]; his.append(d.sum(1)); torch.stack(his)`
meets a CPU and a CUDA item, alphafold2's `mds_torch`, corpus batch b20), while `pop`, `remove`,
`clear`, `sort`, `reverse`, `del lst[i]` and `lst[i] = v` leave its items unknown (the element joined
with what was stored): before this, a list display kept its first items through those, so
`his.pop(0); torch.stack(his)` was reported on code that runs.

A list reached through another name (an alias) is not followed."""
from __future__ import annotations

import ast
from typing import Optional

from .values import SeqV, Value

FORGETTING_METHODS = frozenset({"pop", "remove", "clear", "sort", "reverse"})


def appended(lst: SeqV, node: ast.Call, added: Value) -> Optional[SeqV]:
    """`lst.append(x)` of a list whose items are known: those items and x (None: not a case for this)."""
    if lst.items is None or lst.fields is not None or len(node.args) != 1 or node.keywords \
            or node.args[0].__class__ is ast.Starred:
        return None
    return SeqV(lst.items + (added,), lst.elem, True)


def forget_items(ev, container: ast.AST, stored: Optional[Value] = None) -> None:
    """The list bound at `container`'s path was changed in place: its items are no longer known one by
    one (each is what it was, or `stored`)."""
    path = ev.path_of(container)
    value = ev.frame.env.get(path) if path is not None else None
    if value.__class__ is not SeqV or value.items is None:
        return
    elem = value.element()
    ev.frame.env[path] = SeqV(None, elem if stored is None else elem.join(stored), value.not_none)
