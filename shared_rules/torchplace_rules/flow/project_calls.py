"""The project's own code: running a function or method body, and calls of
functions, methods and classes defined in this file or (through the project
index) in another module of the project.

`analyze_function` runs a body in a new frame with its parameters bound
(the values a call passes, or what the parameter's name, annotation and
default say).  Bodies run through the interpreter object `ev`, so this module
imports nothing of the statement and expression stages.
"""
from __future__ import annotations

import ast
from typing import Optional

from .class_model import ClassInfo, device_parameter
from .cross_file import foreign_result
from .devices import CPU, SELF_DEV, Dev
from .state import Frame, forget_moved_arguments
from .torch_calls import default_device
from .values import UNKNOWN, ClassV, DeviceV, FuncV, LoaderV, ModuleV, PlacedV, SelfV, TensorV, Value

MAX_INLINE_DEPTH = 2  # calls followed into functions (in-file or another file's), nested
# Another file's function longer than this is not followed into (its result stays unknown): the
# helpers that move or create tensors are short, and following a 200-line mask builder costs more
# than the rest of the file.
FOREIGN_INLINE_MAX_LINES = 60


def analyze_function(ev, node, enclosing: dict, cls: Optional[ClassInfo], args: Optional[dict] = None, depth: int = 0):
    """Run the body of function `node` in a new frame (`args`: the values a call binds; None: an
    entry point, every parameter from its name, annotation and default); the frame it leaves."""
    saved = ev.frame
    env = dict(enclosing) if enclosing is not None and enclosing is not ev.module_env else {}
    kind = "method" if cls is not None else "function"
    ev.frame = Frame(kind, env, node, cls, inline_depth=depth)
    try:
        bind_parameters(ev, node, cls, args)
        ev.exec_body(node.body)
        if cls is not None and node.name == "__init__" and args is None:
            cls.init_values = {k: v for k, v in ev.frame.env.items() if k.startswith("self.")}
        return ev.frame
    finally:
        ev.frame = saved


def bind_parameters(ev, node, cls: Optional[ClassInfo], args: Optional[dict]) -> None:
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    is_method = cls is not None and not _is_static(node)
    for i, (arg, default) in enumerate(params):
        name = arg.arg
        if args is not None and name in args:
            value = args[name]
        elif i == 0 and is_method and name in ("self", "cls"):
            value = SelfV(cls, id(cls.node)) if name == "self" else UNKNOWN
        else:
            value = parameter_value(ev, arg, default, cls, node)
        ev.frame.env[name] = value
    for extra in (a.vararg, a.kwarg):
        if extra is not None:
            ev.frame.env[extra.arg] = UNKNOWN


def parameter_value(ev, arg: ast.arg, default, cls: Optional[ClassInfo], func) -> Value:
    name = arg.arg
    if name in ev.device_names:
        if isinstance(default, ast.Constant) and default.value in ("cpu", None):
            return UNKNOWN
        if cls is not None and cls.is_module:
            return DeviceV(Dev(SELF_DEV.kind, SELF_DEV.label, name, arg))  # the caller passes the module's device
        ev.targets_accelerator = True
        return DeviceV(Dev("accel", "target", name, arg))
    if cls is not None and cls.is_module and func.name == "forward":
        if _annotated_tensor(arg.annotation) or (arg.annotation is None and default is None):
            return TensorV(SELF_DEV, origin=arg)
    elif cls is not None and cls.is_module and _annotated_tensor(arg.annotation):
        return TensorV(SELF_DEV, origin=arg)
    if name.endswith("loader") and arg.annotation is None and default is None:
        return LoaderV(False, CPU, arg)
    return UNKNOWN


def _is_static(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod",) for d in node.decorator_list)


def _annotated_tensor(annotation) -> bool:
    if annotation is None:
        return False
    text = ast.unparse(annotation) if not isinstance(annotation, ast.Name) else annotation.id
    return "Tensor" in text and "[" not in text.replace("Optional[", "").replace("]", "", 1)


def call_function(ev, node: ast.Call, func: FuncV) -> Value:
    args, kwargs = ev.eval_args(node)
    fnode = func.node
    if ev.frame.inline_depth >= MAX_INLINE_DEPTH or id(fnode) in ev.inline_stack or isinstance(fnode, ast.AsyncFunctionDef) \
            or _is_generator(fnode) or func.owner is not None \
            or (func.home is not None and fnode.end_lineno - fnode.lineno > FOREIGN_INLINE_MAX_LINES):
        forget_moved_arguments(ev, node)
        return UNKNOWN
    bound = bind_call(fnode, node, args, kwargs)
    if bound is None:
        forget_moved_arguments(ev, node)
        return UNKNOWN
    key = (id(fnode), tuple(sorted(bound.items(), key=lambda kv: kv[0])))
    try:
        cached = ev.inline_cache.get(key)
    except TypeError:
        cached, key = None, None
    if cached is None:
        ev.inline_stack.add(id(fnode))
        home = func.home  # a function of another file runs with that file's globals and text
        saved = ev.module_env, ev.src
        if home is not None:
            ev.module_env, ev.src = home.env, home.src
            ev.foreign_depth += 1
        try:
            frame = analyze_function(ev, fnode, ev.module_env, None, args=bound, depth=ev.frame.inline_depth + 1)
        finally:
            ev.inline_stack.discard(id(fnode))
            if home is not None:
                ev.module_env, ev.src = saved
                ev.foreign_depth -= 1
        if home is not None:
            frame.returns = foreign_result(frame.returns) if frame.returns is not None else None
        effects = {name: frame.env.get(name) for name, value in bound.items()
                   if isinstance(frame.env.get(name), (ModuleV, PlacedV)) and frame.env.get(name) != value}
        cached = (frame.returns if frame.returns is not None else UNKNOWN, effects)
        if key is not None:
            ev.inline_cache[key] = cached
    result, effects = cached
    if effects:
        params = [a.arg for a in fnode.args.posonlyargs + fnode.args.args]
        for param, after in effects.items():
            arg_node = None
            if param in params and params.index(param) < len(node.args):
                arg_node = node.args[params.index(param)]
            arg_node = arg_node or next((k.value for k in node.keywords if k.arg == param), None)
            path = ev.path_of(arg_node) if arg_node is not None else None
            if path is not None:
                ev.frame.env[path] = after
    return result


def bind_call(fnode, node: ast.Call, args: list, kwargs: dict) -> Optional[dict]:
    a = fnode.args
    if a.vararg is not None or any(isinstance(x, ast.Starred) for x in node.args) or any(k.startswith("**") for k in kwargs):
        return None
    names = [p.arg for p in a.posonlyargs + a.args]
    if len(args) > len(names):
        return None
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        bound[key] = value
    return bound


def _is_generator(fnode) -> bool:
    """Memoised on the node: functions are called (and inlined) many times."""
    known = getattr(fnode, "_tp_is_generator", None)
    if known is None:
        known = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fnode))
        fnode._tp_is_generator = known
    return known


def instantiate(ev, node: ast.Call, cls: ClassV) -> Value:
    args, kwargs = ev.eval_args(node)
    info = cls.info
    if not info.is_module:
        forget_moved_arguments(ev, node)
        return UNKNOWN
    dev = None if info.moves_self else default_device(ev)
    if device_parameter(info, ev) is not None:  # Net(device=device): its layers are built there
        dev = _argument_device(ev, node, info, args, kwargs)
    return ModuleV(dev, info.has_params, node, info)


def _argument_device(ev, node: ast.Call, info, args: list, kwargs: dict):
    """The device passed for the class's device parameter: known, unknown (None), or, when not
    passed, the default device."""
    init = info.methods["__init__"]
    names = [a.arg for a in init.args.args[1:]]
    name = device_parameter(info, ev)
    if name in kwargs:
        value = kwargs[name]
    elif name in names and names.index(name) < len(args):
        value = args[names.index(name)]
    elif any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    else:
        return default_device(ev)
    return value.dev if isinstance(value, DeviceV) else None


def inline_forward(ev, node: ast.Call, module: ModuleV, args: list, kwargs: dict) -> Optional[Value]:
    """Follow `self(...)` / `self.block(...)` of a class defined here into its
    `forward`, so a CPU tensor is reported where forward really combines it."""
    info = module.cls
    forward = getattr(info, "methods", {}).get("forward") if info is not None else None
    if forward is None or ev.frame.inline_depth >= MAX_INLINE_DEPTH or id(forward) in ev.inline_stack:
        return None
    params = [a.arg for a in forward.args.posonlyargs + forward.args.args][1:]
    if forward.args.vararg is not None or len(args) > len(params) or any(k.startswith("**") for k in kwargs):
        return None
    bound = dict(zip(params, args))
    bound.update(kwargs)
    ev.inline_stack.add(id(forward))
    try:
        frame = analyze_function(ev, forward, None, info, args=bound, depth=ev.frame.inline_depth + 1)
    finally:
        ev.inline_stack.discard(id(forward))
    result = frame.returns
    return result if result is not None else UNKNOWN
