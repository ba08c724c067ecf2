"""Attributes `__init__` binds to None for another method to fill (issue 10, recall).

    def __init__(self):
        self.eval_hidden = None
    def init_hidden(self, n):
        self.eval_hidden = torch.zeros((n, self.n_agents, self.dim))

A method read as an entry (or an instance held by another object) sees `__init__`'s None there, and a
None says nothing about a tensor.  Where every binding of the attribute outside `__init__`, in the class
and its project bases, is a fresh CPU factory call (`torch.zeros(...)`, no `device=`), the attribute
holds a CPU tensor whenever it holds a tensor: what the analysis reads a None joined with a tensor as
(`values._None`).  Any other binding (a move, a parameter, `self.h = h.detach()`), one in code of the
file outside the class's methods (`agent.eval_hidden = ...`), `setattr` or a base class binding it
leaves the None as it is.  The scan costs nothing for a class whose `__init__` binds no None.
"""
from __future__ import annotations

import ast
from typing import Callable, Optional


def none_bound(relevant: list) -> set:
    """The names `self.<name> = None` binds among `__init__`'s assignments (`relevant`)."""
    names = set()
    for node in relevant:
        if node.__class__ is ast.Assign and len(node.targets) == 1 and node.value.__class__ is ast.Constant \
                and node.value.value is None:
            target = node.targets[0]
            if target.__class__ is ast.Attribute and target.value.__class__ is ast.Name and target.value.id == "self":
                names.add(target.attr)
    return names


def filled_placeholders(names: set, methods: dict, init_methods: list, bases: list, tree: Optional[ast.AST],
                        cpu_factory: Callable[[ast.AST], bool], on_file_read: Optional[Callable[[], None]] = None) -> dict:
    """name -> the assignment that fills it, for those of `names` every other binding of which is a
    CPU factory call (`cpu_factory` of its value); at least one such binding.  `on_file_read`: called
    when the answer also depends on the code of the file outside the class."""
    fills, spoilt = {}, set()
    skip = set(map(id, init_methods))
    for method in methods.values():
        if id(method) in skip:
            continue
        for node in ast.walk(method):
            if node.__class__ is ast.Call and node.func.__class__ is ast.Name and node.func.id in ("setattr", "vars"):
                return {}
            targets = _bound_targets(node)
            if not targets:
                continue
            for target in targets:
                for t in ast.walk(target):
                    if t.__class__ is ast.Attribute and t.attr in names and t.ctx.__class__ is ast.Store:
                        self_store = t.value.__class__ is ast.Name and t.value.id == "self"
                        if self_store and node.__class__ is ast.Assign and len(node.targets) == 1 \
                                and node.targets[0] is t and cpu_factory(node.value):
                            fills.setdefault(t.attr, node)
                        else:
                            spoilt.add(t.attr)
    for name in list(fills):
        if name in spoilt or any(base.stores_attribute(name) for base in bases):
            del fills[name]
    if fills:
        if on_file_read is not None:
            on_file_read()  # (the rest of the file decides too: not a read the scan memo can check)
        elsewhere = _stored_elsewhere(tree)
        fills = {name: node for name, node in fills.items() if name not in elsewhere}
    return fills


def _bound_targets(node) -> list:
    if node.__class__ is ast.Assign:
        return node.targets
    if node.__class__ in (ast.AnnAssign, ast.AugAssign):
        return [node.target] if node.__class__ is ast.AnnAssign else []  # (`+=` on a tensor is in place)
    if node.__class__ in (ast.For, ast.AsyncFor, ast.comprehension):
        return [node.target]
    if node.__class__ in (ast.With, ast.AsyncWith):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    if node.__class__ is ast.NamedExpr:
        return [node.target]
    return []


def _stored_elsewhere(tree: Optional[ast.AST]) -> frozenset:
    """Attribute names the file binds on something other than `self` (`agent.hidden = h`): kept on the
    tree, one walk per file (None: no tree seen, so nothing is known)."""
    if tree is None:
        return _ALL
    known = tree.__dict__.get("_tp_foreign_stores")
    if known is None:
        known = tree._tp_foreign_stores = frozenset(
            node.attr for node in ast.walk(tree)
            if node.__class__ is ast.Attribute and node.ctx.__class__ is ast.Store
            and not (node.value.__class__ is ast.Name and node.value.id == "self"))
    return known


class _Everything(frozenset):
    def __contains__(self, item) -> bool:
        return True


_ALL = _Everything()
