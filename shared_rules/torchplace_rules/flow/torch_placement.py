"""Where a module lives when its code says so without `.to()`: a constructor given a device, a
parameter replaced by one made elsewhere.

`torch.nn` layers take `device=` (factory kwargs) and create their parameters there; libraries
and projects pass their own `device` argument down to such layers in ways a summary does not
always follow (a default computed in `__init__`, helpers, sub-modules).  When the analysis
cannot prove where such a module is, it is at an unknown place, never "still on the CPU".
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from ..syntax_nodes import own_nodes, parameter_defaults
from .devices import Dev
from .values import DeviceV, DictV, ModuleV, SeqV, TensorV, Value

DEVICE_PARAMETERS = ("device",)


def constructor_device(node: ast.Call, init: Optional[ast.FunctionDef], args: list, kwargs: dict,
                       dev: Optional[Dev], info=None) -> Optional[Dev]:
    """The device of `Cls(..., device=d)` when the class's own summary placed it at `dev` without
    following `d`: `dev` when no device is passed (or None, or `dev` itself), else unknown.  So too
    for modules passed in (`Wrapper(encoder)`, `{name: module}`): the instance holds them, so it is
    only at `dev` when they are.  `info`: the class, whose bases' `__init__` a `super().__init__(...)`
    hands the arguments to."""
    if dev is not None and any(_held_module_elsewhere(v, dev) for v in list(args) + list(kwargs.values())) \
            and any(_held_module_elsewhere(v, dev) for v in _maybe_held(node, init, args, kwargs)):
        return None
    if dev is not None and init is not None and _wraps_tensor_elsewhere(node, init, args, kwargs, dev, info):
        return None
    passed = _device_argument(node, init, args, kwargs)
    if passed is None or dev is None:
        return dev
    value, arg = passed
    if isinstance(arg, ast.Constant) and arg.value is None:
        return dev
    if isinstance(value, DeviceV) and value.dev == dev:
        return dev
    return None


def holds_state_elsewhere(attrs: tuple, dev: Dev) -> bool:
    """Did this call's `__init__` store, as the instance's own state, a parameter that is not at `dev`
    (`self.weight = weight` with a CUDA `nn.Parameter` passed in), or a module with parameters known to
    be elsewhere?  Assigning a Parameter or a Module to a module's attribute registers it, so the
    instance is then not all at `dev`.  (A submodule of unknown place says nothing: a layer built
    where a comprehension or helper put it is where the class's summary says.)"""
    for _, value in attrs:
        if value.__class__ is ModuleV and value.has_params and value.dev is not None and value.dev != dev:
            return True
        if value.__class__ is TensorV and value.grad and value.dev != dev:
            return True
    return False


def absent_arguments(node: ast.Call, init: Optional[ast.FunctionDef], names: set) -> set:
    """Which of the `__init__` parameters `names` (each guarding state: `if p is not None:`, or `if p:`
    for a flag) the call surely leaves out or passes as None, or, for a flag, passes or leaves as a
    false constant (`RMSNorm(dim, include_weight=False)`)."""
    if not names or init is None or any(isinstance(a, ast.Starred) for a in node.args) \
            or any(k.arg is None for k in node.keywords):
        return set()
    params = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
    given = {k.arg: k.value for k in node.keywords}
    given.update((p, a) for p, a in zip(params, node.args))
    flags = truth_flags(init)
    absent = set()
    for n in names:
        value = given.get(n)
        if n in flags:
            value = value if n in given else parameter_defaults(init).get(n)
            if value.__class__ is ast.Constant and not value.value:
                absent.add(n)
        elif value is None or value.__class__ is ast.Constant and value.value is None:
            absent.add(n)
    return absent


def truth_flags(init: ast.FunctionDef) -> frozenset:
    """The parameters of `__init__` it tests as flags (`if include_weight:`) and never rebinds: what
    a block under such a test registers exists only when the flag is true.  Memoised on the node."""
    known = init.__dict__.get("_tp_truth_flags")
    if known is None:
        a = init.args
        params = {p.arg for p in a.posonlyargs + a.args[1:] + a.kwonlyargs}
        tested, bound = set(), set()
        for node in own_nodes(init):
            if node.__class__ is ast.If and node.test.__class__ is ast.Name and node.test.id in params:
                tested.add(node.test.id)
            elif node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load:
                bound.add(node.id)
        known = init._tp_truth_flags = frozenset(tested - bound)
    return known


def _maybe_held(node: ast.Call, init, args: list, kwargs: dict) -> list:
    """The arguments `__init__` may keep: all but those bound to a parameter it reads only inside
    `deepcopy(...)` or not at all (`self.module = deepcopy(model)`: the copy is another module)."""
    if init is None or any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return list(args) + list(kwargs.values())
    copied = _copied_only(init)
    names = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
    kept = [v for name, v in zip(names + [None] * len(args), args) if name not in copied]
    kept.extend(v for k, v in kwargs.items() if k not in copied)
    return kept


def copies_module_argument(node: ast.Call, init, args: list, kwargs: dict) -> bool:
    """Is a module passed to `__init__` for a parameter it only deep-copies (`ModelEma(model)`)?"""
    if init is None or not any(v.__class__ is ModuleV for v in list(args) + list(kwargs.values())):
        return False
    held = _maybe_held(node, init, args, kwargs)
    return any(v.__class__ is ModuleV and not any(v is h for h in held) for v in list(args) + list(kwargs.values()))


def _copied_only(init) -> frozenset:
    """Parameters of `init` read nowhere but as the one argument of `deepcopy(...)` (memoised; one
    pass over the function's nodes)."""
    known = init.__dict__.get("_tp_copied_only")
    if known is None:
        a = init.args
        params = {p.arg for p in a.posonlyargs + a.args[1:] + a.kwonlyargs}
        inside, names = set(), []
        for node in own_nodes(init):
            cls = node.__class__
            if cls is ast.Name:
                if node.id in params:
                    names.append(node)
            elif cls is ast.Call and len(node.args) == 1 and node.args[0].__class__ is ast.Name and not node.keywords:
                func = node.func
                if func.__class__ is ast.Name and func.id == "deepcopy" or func.__class__ is ast.Attribute and func.attr == "deepcopy":
                    inside.add(id(node.args[0]))
        known = init._tp_copied_only = frozenset(params.difference(n.id for n in names if id(n) not in inside))
    return known


def _held_module_elsewhere(value: Value, dev: Dev) -> bool:
    items = value.items if isinstance(value, SeqV) and value.items is not None else ()
    elem = value.elem if isinstance(value, (SeqV, DictV)) else None
    return any(isinstance(v, ModuleV) and v.dev != dev for v in (value, elem, *items))


def _wraps_tensor_elsewhere(node: ast.Call, init: ast.FunctionDef, args: list, kwargs: dict, dev: Dev,
                            info=None) -> bool:
    """Does `__init__` make a parameter or buffer of a tensor argument that is not at `dev`
    (`self.weight = nn.Parameter(weight.detach().clone())`, `self.register_buffer("t", t)`), directly,
    through a local value computed from it (`signal = ref.flatten(1)`), or in a base class's `__init__`
    it is handed to (`super().__init__(self.arrange(ref))`)?  The instance then holds that tensor where
    it is (a clone stays on its tensor's device)."""
    if any(isinstance(a, ast.Starred) for a in node.args):
        return False
    params = [a.arg for a in init.args.posonlyargs + init.args.args][1:] + [a.arg for a in init.args.kwonlyargs]
    given = dict(zip(params, args))
    given.update((k, v) for k, v in kwargs.items() if k in params)
    names = {n for n, v in given.items() if isinstance(v, TensorV) and v.dev != dev}
    if not names:
        return False
    found = info.find_method("__init__") if info is not None else None
    return _holds_names(init, names, info, found[1] if found is not None and found[0] is init else None, 0)


_MAX_BASES = 3  # `super().__init__` hops followed


def _mentions(node: ast.AST, names: set) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _holds_names(init: ast.FunctionDef, names: set, info, owner, hops: int) -> bool:
    """Does `init` register (or hand to its base's `__init__`) a value computed from `names`?"""
    names = set(names)
    for stmt in sorted((n for n in ast.walk(init) if isinstance(n, ast.Assign)), key=lambda n: n.lineno):
        if _mentions(stmt.value, names):
            names |= {t.id for target in stmt.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    for call in ast.walk(init):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        held = call.args if name in ("Parameter", "Buffer") else call.args[1:2] \
            if name in ("register_buffer", "register_parameter") else ()
        if any(_mentions(a, names) for a in held):
            return True
        if name == "__init__" and isinstance(func.value, ast.Call) and getattr(func.value.func, "id", "") == "super" \
                and owner is not None and hops < _MAX_BASES and not any(isinstance(a, ast.Starred) for a in call.args):
            found = info.find_method("__init__", after=owner)
            if found is None:
                continue
            base_init, base = found
            base_params = [a.arg for a in base_init.args.posonlyargs + base_init.args.args][1:]
            handed = {base_params[i] for i, a in enumerate(call.args) if i < len(base_params) and _mentions(a, names)}
            handed |= {k.arg for k in call.keywords if k.arg is not None and _mentions(k.value, names)}
            if handed and _holds_names(base_init, handed, info, base, hops + 1):
                return True
    return False


def _device_argument(node: ast.Call, init, args: list, kwargs: dict) -> Optional[tuple[Value, ast.AST]]:
    for keyword in node.keywords:
        if keyword.arg in DEVICE_PARAMETERS:
            return kwargs.get(keyword.arg), keyword.value
    if init is None:
        return None
    names = [a.arg for a in init.args.posonlyargs + init.args.args][1:]
    for name in DEVICE_PARAMETERS:
        if name in names and names.index(name) < len(node.args) \
                and not any(isinstance(a, ast.Starred) for a in node.args[:names.index(name) + 1]):
            i = names.index(name)
            return args[i], node.args[i]
    return None


def unplace_parameter_owners(ev, target: ast.Attribute, value: Value, value_node: ast.AST) -> None:
    """`net.layer.weight = nn.Parameter(t)`: `net.layer` and `net` hold `t` from now on.  So too
    `net.layer.weight.data = t` (`Tensor.data`'s setter is `set_data`: the parameter takes `t`'s
    storage and device, the way `Module._apply` itself moves parameters), and `net.layer.forward =
    f`: calling the module then runs `f` (`_call_impl` calls `self.forward`, the instance's own
    attribute first), which may move its inputs or weights anywhere."""
    swapped = target.attr == "data" and isinstance(target.value, ast.Attribute)
    patched = target.attr == "forward"
    owner = target.value
    while isinstance(owner, (ast.Attribute, ast.Name)):
        path = ev.path_of(owner)
        held = ev.frame.env.get(path) if path is not None else None
        if isinstance(held, ModuleV):
            ev.frame.env[path] = _unplaced(held) if patched and held.dev is not None \
                else after_parameter_assignment(held, value, value_node, swapped)
        owner = owner.value if isinstance(owner, ast.Attribute) else None


def after_parameter_assignment(module: Value, value: Value, value_node: ast.AST, swapped: bool = False) -> Value:
    """`layer.weight = nn.Parameter(t)` (or a tensor; or `layer.weight.data = t`, `swapped`)
    replaces a parameter: the module keeps its place only when `t` is known to be there too;
    otherwise it is no longer in one known place."""
    if not isinstance(module, ModuleV) or module.dev is None:
        return module
    if isinstance(value, TensorV):
        return module if value.dev == module.dev else _unplaced(module)
    if swapped or _is_parameter_call(value_node):
        return _unplaced(module)
    return module


def _is_parameter_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("Parameter", "Buffer")


def _unplaced(module: ModuleV) -> ModuleV:
    return replace(module, dev=None)


def container_elements(call: ast.Call) -> Optional[list]:
    """The module expressions an `nn.Sequential(a, b)` / `nn.ModuleList([a, b])` /
    `nn.ModuleList(Block(k) for k in ks)` / `nn.ModuleDict({"a": a})` call holds (one per
    comprehension); None when they cannot be read (a name, `*layers`)."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if len(call.args) != 1:
        return list(call.args) if call.args else None  # nn.Sequential(a, b, c)
    arg = call.args[0]
    if isinstance(arg, (ast.List, ast.Tuple)):
        return list(arg.elts) or None
    if isinstance(arg, (ast.ListComp, ast.GeneratorExp)):
        return [arg.elt]
    if isinstance(arg, ast.Dict):
        return list(arg.values) or None
    if isinstance(arg, ast.DictComp):
        return [arg.value]
    return [arg] if isinstance(arg, ast.Call) else None
