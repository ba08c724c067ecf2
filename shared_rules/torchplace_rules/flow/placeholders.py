"""Attributes `__init__` binds to None for another method to fill (issue 10, recall).

    def __init__(self):
        self.eval_hidden = None
    def init_hidden(self, n):
        self.eval_hidden = torch.zeros((n, self.n_agents, self.dim))

A method read as an entry (or an instance held by another object) sees `__init__`'s None there, and a
None says nothing about a tensor.  Where every binding of the attribute outside `__init__`, in the class,
is a fresh CPU factory call (`torch.zeros(...)`, no `device=`), the attribute holds a CPU tensor whenever
it holds a tensor: what the analysis reads a None joined with a tensor as (`values._None`).  Any other
binding (a move, a parameter, `self.h = h.detach()`), one in code of the file outside the class's methods
(`agent.eval_hidden = ...`), `setattr`, or a project base class binding it leaves the None as it is.
Nothing is read until such a None is read; then the class's methods, once per class and tree.
"""
from __future__ import annotations

import ast

from .devices import CPU
from .operators import makes_cpu_tensors
from .ranks import factory_rank
from .values import NONE, QualV, TensorV, Value


def none_bound(statements: list) -> frozenset:
    """The names `self.<name> = None` binds among `statements`."""
    names = set()
    for node in statements:
        if node.__class__ is ast.Assign and len(node.targets) == 1 and node.value.__class__ is ast.Constant \
                and node.value.value is None:
            target = node.targets[0]
            if target.__class__ is ast.Attribute and target.value.__class__ is ast.Name and target.value.id == "self":
                names.add(target.attr)
    return frozenset(names)


def filled_value(ev, info, name: str, value: Value) -> Value:
    """`value` read from `self.<name>` of an instance of `info`; a None there that the class's other
    methods fill only with a CPU factory call is that CPU tensor."""
    if value is not NONE or name not in _placeholders(info):
        return value
    fill = _fills(ev, info).get(name)
    if fill is None or fill[1] is getattr(ev.frame, "func", None):
        return value  # (the method that fills it runs its own code: `if self.cache is None: self.cache = ...`)
    assign = fill[0]
    if ev.recorder is not None:
        ev.recorder.uncacheable = True  # (the rest of the file decided: not a read the memo can check)
    call = assign.value
    rank = factory_rank(call, call.func.attr if call.func.__class__ is ast.Attribute else call.func.id)
    return TensorV(CPU, origin=assign, plain_attr=name if info.is_module else None, rank=rank)


def _placeholders(info) -> frozenset:
    """The names `__init__`'s body binds to None, kept per class (read where a None it bound is read:
    `__init__` ran, so its body is parsed)."""
    names = info.__dict__.get("_tp_placeholders")
    if names is None:
        init = info.methods.get("__init__")
        names = info._tp_placeholders = none_bound(init.body) if init is not None else frozenset()
    return names


def _fills(ev, info) -> dict:
    """name -> (the assignment that fills it, its method), kept per class and tree (a class of the checked file is read
    with its current tree: an edit elsewhere may bind the attribute)."""
    if info.home is None and getattr(ev, "summary_depth", 0) == 0:
        tree, env = ev.tree, ev.own_env
    else:
        tree = info.placeholder_home
        env = imported_names(tree) if tree is not None else None
    kept = info.__dict__.get("_tp_fills")
    if kept is not None and kept[0] is tree:
        return kept[1]
    fills = _find_fills(info, tree, env) if tree is not None and env is not None else {}
    info.__dict__["_tp_fills"] = (tree, fills)
    return fills


def imported_names(tree: ast.AST) -> dict:
    """name -> QualV of what the module's own statements import (`import torch as th`, `from torch import
    zeros`), read from the tree once (a class read from another file: its environment is not kept)."""
    known = tree.__dict__.get("_tp_imported_names")
    if known is None:
        known = tree._tp_imported_names = {}
        stack = list(getattr(tree, "body", ()))
        while stack:
            node = stack.pop()
            if node.__class__ is ast.Import:
                for a in node.names:
                    known[a.asname or a.name.partition(".")[0]] = QualV(a.name if a.asname else a.name.partition(".")[0])
            elif node.__class__ is ast.ImportFrom and node.level == 0 and node.module:
                known.update((a.asname or a.name, QualV(f"{node.module}.{a.name}")) for a in node.names if a.name != "*")
            elif node.__class__ in (ast.If, ast.Try):
                stack.extend(node.body + node.orelse + getattr(node, "finalbody", []) +
                             [s for h in getattr(node, "handlers", ()) for s in h.body])
    return known


def _find_fills(info, tree: ast.AST, env: dict) -> dict:
    names = _placeholders(info)
    if any(base.stores_attribute(name) for base in info.bases for name in names):
        names = frozenset(n for n in names if not any(base.stores_attribute(n) for base in info.bases))
    fills, spoilt = {}, set()
    init = info.methods.get("__init__")
    for method in info.methods.values():
        if method is init:
            continue
        for node in ast.walk(method):
            if node.__class__ is ast.Call and node.func.__class__ is ast.Name and node.func.id in ("setattr", "vars"):
                return {}
            for target in _bound_targets(node):
                for t in ast.walk(target):
                    if t.__class__ is ast.Attribute and t.attr in names and t.ctx.__class__ is ast.Store:
                        if node.__class__ is ast.Assign and len(node.targets) == 1 and node.targets[0] is t \
                                and t.value.__class__ is ast.Name and t.value.id == "self" and _cpu_factory(node.value, env):
                            fills.setdefault(t.attr, (node, method))
                        else:
                            spoilt.add(t.attr)
    if not fills:
        return fills
    elsewhere = _stored_elsewhere(tree)
    return {name: node for name, node in fills.items() if name not in spoilt and name not in elsewhere}


def _cpu_factory(value: ast.AST, env: dict) -> bool:
    """`torch.zeros(...)`, `torch.from_numpy(a)`: a new tensor on the CPU (no `device=`/`out=`), the
    function named through the file's module-level names."""
    if value.__class__ is not ast.Call or any(k.arg in (None, "device", "out") for k in value.keywords):
        return False
    func = value.func
    if func.__class__ is ast.Name:
        bound = env.get(func.id)
        qual = bound.name if isinstance(bound, QualV) else None
    elif func.__class__ is ast.Attribute and func.value.__class__ is ast.Name:
        bound = env.get(func.value.id)
        qual = f"{bound.name}.{func.attr}" if isinstance(bound, QualV) else None
    else:
        return False
    return qual is not None and qual.count(".") == 1 and makes_cpu_tensors(qual)


def _bound_targets(node) -> list:
    if node.__class__ is ast.Assign:
        return node.targets
    if node.__class__ is ast.AnnAssign or node.__class__ is ast.NamedExpr:
        return [node.target]  # (`+=` on a tensor is in place: no binding that matters)
    if node.__class__ in (ast.For, ast.AsyncFor, ast.comprehension):
        return [node.target]
    if node.__class__ in (ast.With, ast.AsyncWith):
        return [item.optional_vars for item in node.items if item.optional_vars is not None]
    return []


def _stored_elsewhere(tree: ast.AST) -> frozenset:
    """Attribute names the file binds on something other than `self` (`agent.hidden = h`): kept on the
    tree, one walk per file."""
    known = tree.__dict__.get("_tp_foreign_stores")
    if known is None:
        known = tree._tp_foreign_stores = frozenset(
            node.attr for node in ast.walk(tree)
            if node.__class__ is ast.Attribute and node.ctx.__class__ is ast.Store
            and not (node.value.__class__ is ast.Name and node.value.id == "self"))
    return known
