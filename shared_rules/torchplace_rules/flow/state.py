"""The interpreter's state: frames (one per running scope), loops, and how the
environments of two paths are joined.

An environment maps a name or an access path (`self.net`, `batch["x"]`) to
an abstract value (`values.py`).  A key missing from a function's frame is
looked up in the module's environment.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Optional

from .devices import ACCEL_KIND
from .values import UNKNOWN, DeviceV, LoaderV, ModuleV, PlacedV, Value

MAX_LOOP_PASSES = 3  # a loop body runs until its entry environment stops changing, at most this often


@dataclass
class LoopContext:
    node: ast.AST
    training: bool
    loader: Optional[LoaderV] = None
    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


@dataclass
class Frame:
    kind: str  # module | function | method
    env: dict
    func: Optional[ast.AST] = None
    cls: Optional[object] = None  # the ClassInfo of a method
    returns: Optional[Value] = None
    loops: list = field(default_factory=list)
    no_grad: int = 0
    inline_depth: int = 0


class Terminated(Exception):
    """Raised inside a block after return/raise/break/continue (the rest is dead)."""


def join_env(a: dict, b: dict) -> dict:
    if a is b:
        return a
    out = {}
    for key, value in a.items():
        other = b.get(key)
        if other is None:
            out[key] = UNKNOWN  # bound on one path only: shadow any global
        else:
            out[key] = value if value is other else value.join(other)
    for key in b.keys() - a.keys():
        out[key] = UNKNOWN
    return out


def same_env(a: dict, b: dict) -> bool:
    if a is b:
        return True
    if a.keys() != b.keys():
        return False
    return all(v is b[k] or v == b[k] for k, v in a.items())


def device_variable(env: dict) -> Optional[str]:
    """A name in `env` bound to an accelerator device under its own name (`device = torch.device(...)`)."""
    for name, value in env.items():
        if isinstance(value, DeviceV) and value.dev.kind == ACCEL_KIND and value.dev.expr == name:
            return name
    return None


def forget_moved_arguments(ev, node: ast.Call) -> None:
    """An unknown callee may move a module it receives (`setup(model)`): forget where it is."""
    env = ev.frame.env
    for arg in list(node.args) + [k.value for k in node.keywords]:
        path = ev.path_of(arg.value if isinstance(arg, ast.Starred) else arg)
        if path is None:
            continue
        value = env.get(path) if path in env else ev.module_value(path)
        if isinstance(value, ModuleV) and value.dev is not None:
            env[path] = replace(value, dev=None)
        elif isinstance(value, PlacedV):
            env[path] = UNKNOWN

