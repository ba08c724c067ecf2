"""Device names a piece of code pins to the CPU.

`mentions_accelerator` (scopes.py) reads a name such as `device`, a `device=` keyword or `.to(device)`
as a sign that the code may put tensors on an accelerator.  A program whose every binding of that name is
the CPU (`device = torch.device("cpu")`: an export script, a CPU-only tool) never does; these helpers say
which names are so pinned, so such a mention does not count.
"""
from __future__ import annotations

import ast
from typing import Iterable

from ..flow.devices import ACCEL_TYPES
from .scopes import _ACCEL_ATTRS, _has_accel_word, _is_dtype


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


def mentions_accelerator_off_the_cpu(scope) -> bool:
    """`scopes.mentions_accelerator`, except that a device name every binding of which pins the CPU
    (`device = torch.device("cpu")`, `model.to(device)`, `device=device`) is no mention.  It walks the whole
    scope (the pinned names are known only at its end): asked only where the fast answer is yes."""
    nodes = ast.walk(scope) if isinstance(scope, ast.AST) else (n for s in scope for n in ast.walk(s))
    seen, maybe_cpu, cpu_calls = [], [], set()  # (mentions that are no accelerator if the name is pinned to the CPU)
    for node in nodes:
        seen.append(node)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.split(":")[0].strip().lower() in ACCEL_TYPES:
                return True
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to":
                moves = [a for a in list(node.args) + [k.value for k in node.keywords if k.arg == "device"] if not _is_dtype(a)]
                if any(a.__class__ is not ast.Name for a in moves):
                    return True
                maybe_cpu.extend(moves)
            elif is_cpu_device(node):
                cpu_calls.add(id(node.func))  # `torch.device("cpu")`
        elif isinstance(node, ast.Attribute):
            if node.attr in _ACCEL_ATTRS or (_has_accel_word(node.attr) and id(node) not in cpu_calls):
                return True
        elif isinstance(node, ast.Name):
            if _has_accel_word(node.id):
                maybe_cpu.append(node)
        elif isinstance(node, ast.keyword):
            if node.arg is not None and _has_accel_word(node.arg):
                maybe_cpu.append(node.value)
        elif isinstance(node, ast.arg):
            if _has_accel_word(node.arg):
                return True
    if not maybe_cpu:
        return False
    pinned = cpu_device_names(seen)
    return not all(is_cpu_device(n, pinned) for n in maybe_cpu)
