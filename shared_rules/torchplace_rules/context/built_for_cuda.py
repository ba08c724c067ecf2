"""A constructor whose every object goes straight to CUDA: what it loads is loaded only where there is one.

`class Network(nn.Module): def __init__(self, p): ... self.load_state_dict(torch.load(p))`, built once in
the project as `self.net = Network(path).cuda().eval()`: the statement that builds it cannot finish
without a CUDA GPU (`.cuda()` raises "Torch not compiled with CUDA enabled" / "Found no NVIDIA driver"),
so a `map_location` in the constructor saves no machine.  `device_choice.before_an_unconditional_cuda_call`
sees this within one body; here the load is one call away, in `__init__`.  Every mention of the class in
its file must be such a construction (a base class, an `isinstance`, a registry entry or a call of it
stored for later are other uses), and no project file that imports the file may name it.
"""
from __future__ import annotations

import ast

from .device_choice import _calls_cuda
from .load_callers import importer_trees
from .scopes import FUNCTIONS, enclosing_statement

_SIMPLE = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)


def built_only_for_cuda(ev, ctx, load: ast.Call) -> bool:
    """Is `load` in `__init__` of a module-level class of this file that is only ever built in a
    statement with an unconditional `.cuda()` (`Network(p).cuda()`), or where only an accelerator runs?"""
    func = ctx.enclosing_function(load)
    if func is None or func.name != "__init__":
        return False
    cls = ctx.parents.get(id(func))
    if cls.__class__ is not ast.ClassDef or ctx.parents.get(id(cls)) is not ctx.tree:
        return False
    sites = []
    for node in ast.walk(ctx.tree):
        if node.__class__ is ast.Name and node.id == cls.name:
            call = ctx.parents.get(id(node))
            if call.__class__ is not ast.Call or call.func is not node:
                return False  # subclassed, tested, stored or handed on: built elsewhere too
            sites.append(call)
        elif (node.__class__ is ast.Attribute and node.attr == cls.name) or (
                node.__class__ is ast.Constant and node.value == cls.name):
            return False  # reached through a module or by name (`__all__`, a registry)
    return bool(sites) and all(_moved_to_cuda_at_once(ctx, site) for site in sites) and \
        not _named_by_importers(ev, cls.name)


def _moved_to_cuda_at_once(ctx, site: ast.Call) -> bool:
    stmt = enclosing_statement(ctx.parents, site)
    if not isinstance(stmt, _SIMPLE):
        return False
    node = ctx.parents.get(id(site))
    while node is not stmt:  # a lambda or function in between runs the construction later
        if isinstance(node, FUNCTIONS):
            return False
        node = ctx.parents.get(id(node))
    return _calls_cuda(stmt) or ctx.runs_only_with_accelerator(site)


def _named_by_importers(ev, name: str) -> bool:
    """Does a project file that imports the checked one name `name` (or import all of it)?  More
    importers than are read, or one that cannot be read, count as a yes."""
    trees = importer_trees(ev)
    if trees is None:
        return True
    for tree in trees:
        if tree is None:
            return True
        for node in ast.walk(tree):
            if (node.__class__ is ast.Name and node.id == name) or (node.__class__ is ast.Attribute and node.attr == name) \
                    or (node.__class__ is ast.alias and node.name in (name, "*")):
                return True
    return False
