"""Device names a piece of code pins to the CPU.

`mentions_accelerator` (scopes.py) reads a name such as `device`, a `device=` keyword or `.to(device)`
as a sign that the code may put tensors on an accelerator.  A program whose every binding of that name is
the CPU (`device = torch.device("cpu")`: an export script, a CPU-only tool) never does; these helpers say
which names are so pinned, so such a mention does not count.
"""
from __future__ import annotations

import ast
from typing import Iterable


def is_cpu_device(node: ast.AST, cpu_names: frozenset = frozenset()) -> bool:
    """`"cpu"`, `torch.device("cpu")` (or `"cpu:0"`), or a name pinned to one of them."""
    if node.__class__ is ast.Constant:
        return isinstance(node.value, str) and node.value.split(":")[0].strip().lower() == "cpu"
    if node.__class__ is ast.Name:
        return node.id in cpu_names
    if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == "device" \
            and node.func.value.__class__ is ast.Name and node.func.value.id == "torch" \
            and len(node.args) == 1 and not node.keywords:
        return is_cpu_device(node.args[0])
    return False


def cpu_device_names(nodes: Iterable[ast.AST]) -> frozenset:
    """Names whose every binding in `nodes` is a plain `name = <CPU device>` (and that are bound at least
    once so): a parameter, loop target, unpacking or any other binding of the name rules it out."""
    good_stores, bound, other = set(), set(), set()
    for node in nodes:
        cls = node.__class__
        if cls is ast.Assign and is_cpu_device(node.value):
            for target in node.targets:
                if target.__class__ is ast.Name:
                    good_stores.add(id(target))
                    bound.add(target.id)
        elif cls is ast.Name and node.ctx.__class__ is not ast.Load and id(node) not in good_stores:
            other.add(node.id)
        elif cls is ast.arg:
            other.add(node.arg)
        elif cls in (ast.Global, ast.Nonlocal):
            other.update(node.names)
        elif cls in (ast.Import, ast.ImportFrom):
            other.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(bound - other)
