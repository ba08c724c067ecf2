"""An attribute one instance keeps plain where its class registers it on another branch.

`if learn: self.b = nn.Parameter(t)` / `else: self.b = Variable(t)`: the class scan sees a
parameter, but an instance built with `learn=False` keeps a plain CPU tensor, which `Module.to()`
leaves on the CPU.  The run of `__init__` for that construction decided the branch, and the
value it left says which assignment made it: a join of both branches (an undecided flag) has no
single origin, or requires grad.
"""
from __future__ import annotations

import ast
from typing import Optional

from ..syntax_nodes import access_path, own_nodes
from .torch_api import PARAMETER_CLASSES
from .values import TensorV, Value


def kept_plain(ev, info, name: str, value: Value) -> Optional[ast.Assign]:
    """The plain assignment of `__init__` that left `value` in `self.<name>`, where the class
    registers `name` (a parameter or buffer) on another branch; None otherwise."""
    if name not in info.params and name not in info.buffers:
        return None
    if value.__class__ is not TensorV or value.grad or value.origin is None or value.dev is None \
            or not value.dev.is_cpu or value.rank == 0:
        return None
    init = info.methods.get("__init__")
    if init is None:
        return None
    target = "self." + name
    origin = value.origin
    for node in own_nodes(init):
        if node.__class__ is ast.Assign and len(node.targets) == 1 and access_path(node.targets[0]) == target \
                and any(n is origin for n in ast.walk(node.value)):
            made = node.value
            registered = made.__class__ is ast.Call and ev.qualname(made.func) in PARAMETER_CLASSES
            return None if registered else node
    return None
