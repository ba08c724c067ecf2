"""What the analysis tells the rules.  Rules never walk the tree: a rule
defines `on_<event>` methods, and the interpreter calls them as it goes.

    on_conflict(ev, c: Conflict)           two tensors (or a module and its input) meet on different devices
    on_call(ev, node, qual, method, recv, args, kwargs)
                                           a call: `qual` for torch/NumPy/builtin functions, else `method`
                                           with the receiver's value; `args`/`kwargs` are argument values
    on_transfer(ev, node, recv, recv_node, dev, method)
                                           `.to(...)`/`.cuda()`/`.cpu()` of a tensor to `dev`
    on_expr_stmt(ev, stmt, call, recv, result)
                                           a method call whose result is thrown away
    on_class(ev, info: ClassInfo)          a class definition was scanned
    on_init_analysed(ev, info: ClassInfo)  a module's `__init__` was analysed (`info.plain_values` known)
    on_init_context(ev, info, attrs)       a module's `__init__` was run for a call (`Block(x_example)`) and
                                           kept CPU tensors in plain attributes: {name: the assignment}
    on_module_call(ev, node, module, args, kwargs)
                                           an nn.Module is called
    on_numpy_store(ev, target, array, key, value, value_node)
                                           `a[key] = value` into a NumPy array (`array`: its NumpyV)
    on_finish(ev)                          the whole file has run (rules that report at the end)

`ev` is the running `Analyzer`: `ev.report(...)`, `ev.src`, `ev.frame`, and the
helpers in its "for rules" section.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from .devices import Dev
from .values import TensorV, Value

EVENTS = ("conflict", "call", "transfer", "expr_stmt", "class", "init_analysed", "init_context", "finish", "module_call",
          "numpy_store")


@dataclass
class Conflict:
    """Two tensors (or a module and its input) that would meet on different devices."""

    node: ast.AST  # the op or call
    kind: str  # op | module_input | module_reverse | index | needs_cpu (other: an argument wanted on the CPU)
    cpu: TensorV
    cpu_node: ast.AST
    other: Value  # TensorV or ModuleV on the accelerator / module device
    other_node: Optional[ast.AST]
    other_dev: Dev
