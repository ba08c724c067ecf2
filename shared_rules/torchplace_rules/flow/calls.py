"""How a call is analysed: every call expression comes here (`dispatch_call`)
and is routed by what the callee is:

    a torch / NumPy function or class by qualified name  -> torch_calls.call_qualified
    a method of a tensor, a batch or an nn.Module         -> torch_methods (tensor_method, module_method)
    calling an nn.Module (`model(x)`, `self.encoder(x)`)  -> module_call: torch_methods checks the input,
                                                             project_calls follows into a forward defined here
    a function or class of the project (this file, or
      another module through the project index)           -> project_calls (call_function, instantiate)
    a Python builtin (`next`, `zip`, `enumerate`, ...)   -> call_builtin
    anything else                                         -> unknown result; modules passed to it may have moved
"""
from __future__ import annotations

import ast
from typing import Optional

from .cross_file import ProjectModuleV
from .devices import SELF_DEV
from .project_calls import call_function, inline_forward, instantiate
from .state import forget_moved_arguments
from .torch_calls import call_qualified
from .torch_methods import (
    module_input_conflicts, module_method, numpy_method, stateless_module_output, tensor_method,
)
from .values import (
    UNKNOWN, BatchV, ClassV, DictV, EnumerateV, FuncV, ItemsV, LoaderV, ModuleV, NumpyV, ParamsV, PlacedV, QualV,
    SelfV, SeqV, TensorV, Value, ZipV, iteration_element,
)

PURE_BUILTINS = {"len", "isinstance", "issubclass", "print", "range", "int", "float", "str", "bool", "repr", "hasattr",
                 "getattr", "type", "id", "hash", "min", "max", "sum", "abs", "round", "format", "callable", "super",
                 "dict", "set", "frozenset", "open", "vars", "dir", "any", "all", "map", "filter"}


def dispatch_call(ev, node: ast.Call, recv: Optional[Value]) -> Value:
    """The value of the call `node`; `recv` is the value of `node.func.value` for `a.b(...)`."""
    func = node.func
    if isinstance(func, ast.Attribute):
        member = recv.member(ev, func.attr) if isinstance(recv, ProjectModuleV) else None
        if isinstance(member, FuncV):
            return call_function(ev, node, member)
        if isinstance(member, ClassV):
            return instantiate(ev, node, member)
        if isinstance(recv, QualV):
            return call_qualified(ev, node, f"{recv.name}.{func.attr}")
        callee = attribute_callee(ev, recv, func)
        if isinstance(callee, (ModuleV, PlacedV)):
            return module_call(ev, node, callee.as_module() if isinstance(callee, PlacedV) else callee)
        if isinstance(callee, FuncV):
            return call_function(ev, node, callee)
        return call_method(ev, node, recv, func.attr)
    callee = ev.eval(func)
    if isinstance(callee, QualV):
        return call_qualified(ev, node, callee.name)
    if isinstance(callee, FuncV):
        return call_function(ev, node, callee)
    if isinstance(callee, ClassV):
        return instantiate(ev, node, callee)
    if isinstance(callee, ModuleV):
        return module_call(ev, node, callee)
    if isinstance(callee, PlacedV):
        return module_call(ev, node, callee.as_module())
    if isinstance(callee, SelfV) and callee.info.is_module:
        return module_call(ev, node, ModuleV(SELF_DEV, True, None, callee.info))
    if isinstance(callee, SelfV):
        ev.eval_args(node)
        return UNKNOWN
    if callee is UNKNOWN and isinstance(func, ast.Name):
        return call_builtin(ev, node, func.id)
    args, kwargs = ev.eval_args(node)
    forget_moved_arguments(ev, node)
    return UNKNOWN


def attribute_callee(ev, recv: Value, func: ast.Attribute) -> Optional[Value]:
    """`self.encoder(x)`, `model.head(x)`, `self.model(x)` (a module held in an attribute)."""
    path = ev.path_of(func)
    if path is not None:
        held = ev.frame.env.get(path)
        if held is not None:
            return held
    if isinstance(recv, SelfV):
        value = ev.class_attr(recv.info, func.attr, func)
        return value if isinstance(value, (ModuleV, PlacedV)) else None
    if isinstance(recv, ModuleV) and recv.cls is not None and func.attr in recv.cls.submodules:
        return ModuleV(recv.dev, recv.cls.submodules[func.attr], recv.placed_at)
    return None


def call_method(ev, node: ast.Call, recv: Value, name: str) -> Value:
    """`recv.name(...)` where `recv` is a value (not a module of the project or a torch namespace)."""
    if isinstance(recv, ModuleV):
        if name == "forward":
            args, kwargs = ev.eval_args(node)
            ev.emit("call", node, None, name, recv, args, kwargs)
            return module_call(ev, node, recv, evaluated=(args, kwargs))
        return module_method(ev, node, recv, name)
    if isinstance(recv, PlacedV) and name in ("to", "cuda", "cpu", "train", "eval", "parameters"):
        return module_method(ev, node, recv.as_module(), name, placed=True)
    if isinstance(recv, PlacedV):
        recv = recv.as_tensor()
    if isinstance(recv, (TensorV, BatchV)) or (recv is UNKNOWN and name in ("to", "cuda")):
        return tensor_method(ev, node, recv, name)
    if isinstance(recv, DictV) and name == "items":
        ev.eval_args(node)
        return ItemsV(recv.elem)
    if isinstance(recv, DictV) and name == "values":
        return SeqV(None, recv.elem)
    if isinstance(recv, NumpyV):
        return numpy_method(ev, node, recv, name)
    if isinstance(recv, ParamsV):
        ev.eval_args(node)
        return UNKNOWN
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, None, name, recv, args, kwargs)
    if not isinstance(recv, SelfV):
        forget_moved_arguments(ev, node)
    return UNKNOWN


def module_call(ev, node: ast.Call, module: ModuleV, evaluated=None) -> Value:
    """`model(x)`: the input must be where the module's parameters are; a module
    defined here whose device is "the enclosing module's" is followed into its forward."""
    args, kwargs = evaluated if evaluated is not None else ev.eval_args(node)
    conflict = module_input_conflicts(ev, node, module, args, kwargs)
    ev.emit("module_call", node, module, args, kwargs)
    if conflict:
        return UNKNOWN
    if module.torch_layer and not module.has_params:  # a loss, pooling, an activation: runs where its input is
        return stateless_module_output(ev, node, args)
    if module.dev is not None and module.dev.kind == "self" and not module.torch_layer:
        inlined = inline_forward(ev, node, module, args, kwargs)
        if inlined is not None:
            return inlined
    return TensorV(module.dev, origin=node, grad=ev.frame.no_grad == 0, module_output=True)


def call_builtin(ev, node: ast.Call, name: str) -> Value:
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, name, None, None, args, kwargs)
    first = args[0] if args else UNKNOWN
    if name == "next":
        if isinstance(first, ParamsV):
            return TensorV(first.dev, origin=node, grad=True)
        if isinstance(first, SeqV):
            return first.element()
        if isinstance(first, LoaderV):
            return iteration_element(first, _FakeLoop(node))[0]
        return UNKNOWN
    if name == "iter":
        return first
    if name == "enumerate":
        return EnumerateV(first)
    if name == "zip":
        return ZipV(tuple(args))
    if name in ("list", "tuple", "sorted", "reversed"):
        if isinstance(first, SeqV):
            return SeqV(first.items if name in ("list", "tuple") else None, first.element())
        if isinstance(first, ItemsV):
            return SeqV(None, SeqV((UNKNOWN, first.inner)))
        return UNKNOWN
    if name not in PURE_BUILTINS:
        forget_moved_arguments(ev, node)
    return UNKNOWN


class _FakeLoop:
    """`next(iter(loader))`: the call stands where a loop would (batches remember it)."""

    def __init__(self, node):
        self.iter = node
        self.target = None

