"""Small helpers the rule files share: naming code in messages, device text."""
from __future__ import annotations

import ast
from typing import Optional

from .flow.devices import Dev
from .flow.state import device_variable
from .flow.values import TensorV
from .torch_semantics import lookup_function


def code_text(src, node: Optional[ast.AST], limit: int = 40) -> str:
    if node is None:
        return "a tensor"
    text = " ".join(src.segment(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def dev_text(dev: Optional[Dev]) -> str:
    if dev is None:
        return "an unknown device"
    if dev.kind == "cpu":
        return "the CPU"
    if dev.kind == "self":
        return "the module's device"
    if dev.label in ("target", "cuda") and dev.expr and dev.expr[0] not in "\"'":
        return f"the accelerator (`{dev.expr}`)"
    if dev.label == "target":
        return "the accelerator"
    return dev.label


def fix_device_expr(ev, dev: Optional[Dev], other_node: Optional[ast.AST] = None,
                    module_node: Optional[ast.AST] = None) -> Optional[str]:
    """Source text for the accelerator device, valid where the fix goes: a device in scope,
    else `other.device` (a tensor), else the device of the module's parameters."""
    expr = ev.device_expression(dev)
    if expr:
        return expr
    if other_node is not None and isinstance(other_node, (ast.Name, ast.Attribute)):
        return f"{ev.src.segment(other_node)}.device"
    if module_node is not None and isinstance(module_node, (ast.Name, ast.Attribute)):
        return f"next({ev.src.segment(module_node)}.parameters()).device"
    return None


def device_variable_in_scope(ev) -> Optional[str]:
    """A name bound to an accelerator device here (`device = torch.device(...)`)."""
    return device_variable(ev.frame.env) or ev.module_device_variable()


def origin_related(node: Optional[ast.AST], tensor: TensorV, message: str):
    origin = tensor.origin
    if origin is None or origin is node or not isinstance(origin, ast.AST) or not hasattr(origin, "lineno"):
        return None
    return (origin, message)


def accepts_device(ev, call: ast.Call) -> bool:
    """May a fix add `device=` to this call: is it a torch function some overload of which takes
    `device=` (PyTorch's own signatures, `data/torch_semantics.json`)?  Evaluate where the call is."""
    qual = ev.qualname(call.func)
    known = lookup_function(qual) if qual else None
    return known is not None and known.takes_device


def from_method_argument(c, func) -> bool:
    """Is the module-side operand an argument of a method other than `forward`?  Only `forward`'s
    inputs are assumed to be on the module's device; other methods receive whatever their callers
    pass (a deserialised request, CPU test data)."""
    if func.name == "forward":
        return False
    a = func.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    origin = getattr(c.other, "origin", None)
    if isinstance(origin, ast.arg) and origin.arg in params:
        return True
    return isinstance(c.other_node, ast.Name) and c.other_node.id in params
