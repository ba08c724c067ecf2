"""Loads whose file holds no tensors: the state of a TensorRT engine module.

torch2trt's `TRTModule` keeps a built TensorRT engine, not parameters: its `state_dict()` (a
state-dict hook) holds the engine serialized as bytes and the binding names, and its
`_load_from_state_dict` deserializes them.  `model_trt.load_state_dict(torch.load(f))` of such a
file restores no tensor on any device, so a missing `map_location` cannot fail there (and a
TensorRT engine runs only on an NVIDIA GPU anyway).
"""
from __future__ import annotations

import ast
from typing import Callable, Optional

_ENGINE_MODULES = {"torch2trt.TRTModule", "torch2trt.torch2trt.TRTModule", "torch2trt.trt_module.TRTModule"}


def loaded_into_engine_module(qualname: Callable[[ast.AST], Optional[str]], scope: ast.AST, stmt: ast.AST,
                              load: ast.Call) -> bool:
    """Is `load` the argument of `<name>.load_state_dict(...)` in `stmt`, `<name>` bound in `scope` only
    to `TRTModule(...)` imported from torch2trt (`model_trt = TRTModule()`)?  `qualname`: the analysis'
    qualified name of an expression (`ev.qualname`)."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "load_state_dict"
            and isinstance(call.func.value, ast.Name) and call.args[:1] == [load]):
        return False
    name = call.func.value.id
    made = [node.value for node in ast.walk(scope) if isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)]
    return bool(made) and all(isinstance(v, ast.Call) and qualname(v.func) in _ENGINE_MODULES for v in made)
