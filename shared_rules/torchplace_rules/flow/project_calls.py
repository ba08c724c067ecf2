"""Calls of the project's own code: functions, methods (through `self`, an
instance, `super()`, the class), classes (instantiation runs `__init__` for
the call), a module's `forward`, `__call__` of plain objects, properties,
bound methods and `functools.partial`, in this file or (through the project
index) in another module.  Each call is analysed for its context
(`contexts.call_in_context`); the result is the value returned, and what the
body did to the caller's objects is written back into the caller's
environment.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from ..foreign_attributes import handed_as_another_object
from .class_model import device_parameter, method_kind, plain_container, tensor_container_items
from .contexts import (
    ITEMS_MOVED, apply_effects, argument_paths, bind_arguments, call_in_context, relative_to, relocate, same_place,
)
from .devices import ACCEL_KIND, SELF_DEV, SELF_KIND, Dev, join_dev
from .instance_branches import kept_plain
from .optimizers import owned_by_caller
from .placeholders import filled_value
from .state import (
    MODULE_MOVES, forget_aliases, forget_closure_moves, forget_moved_arguments, forget_objects_handed, held_attribute_paths, held_attributes, held_values,
    merge_attributes, with_held_items, moved_containers_in, moves_its_items, with_nested_attributes,
)
from .torch_calls import default_collate, default_device
from .torch_placement import absent_arguments, constructor_device, copies_module_argument, holds_state_elsewhere
from .values import (
    HELD_FALSE, HELD_TRUE, SELF_MOVED, NONE, Number, UNKNOWN, BoundMethodV, ClassV, DeviceV, DictV, EncodingV, FlagV, FuncV, LoaderV, ModuleV, ObjectV, ParamsV, PartialV, SelfV, SeqV, TensorV, TextV, Value, attrs_get,
    map_leaves,
)

# nn.Module's own API: these names keep torch's meaning even on a project module class.
MODULE_API = {"to", "cuda", "cpu", "forward", "parameters", "named_parameters", "buffers", "named_buffers",
              "modules", "named_modules", "children", "state_dict", "load_state_dict", "train", "eval",
              "requires_grad_", "half", "float", "double", "bfloat16", "zero_grad", "apply", "register_buffer",
              "register_parameter", "add_module", "register_module", "type", "share_memory"}


def call_function(ev, node: ast.Call, func: FuncV, evaluated=None) -> Value:
    """`helper(x)`: a function of the project (nested functions see their enclosing scope)."""
    args, kwargs = evaluated if evaluated is not None else ev.eval_args(node)
    return _call(ev, node, func, None, list(node.args), args, kwargs, None, None, ev.frame.self_dev)


def map_function(ev, node: ast.Call, func: FuncV, seq: SeqV) -> Value:
    """`map(f, seq)` with a function of the project (a lambda): `f` of each item, or of the
    element when the items are not known one by one."""
    if moves_its_items(func.node):  # `map(lambda m: m.cuda(), [enc, dec])`: what the list holds moved
        forget_aliases(ev.frame.env, held_values(seq))
    if seq.items is not None and len(seq.items) <= 8:
        return SeqV(tuple(_call(ev, node, func, None, [None], [item], {}, None, None, ev.frame.self_dev) for item in seq.items))
    return SeqV(None, _call(ev, node, func, None, [None], [seq.element()], {}, None, None, ev.frame.self_dev))


def _call(ev, node: ast.Call, func: FuncV, cls, arg_nodes: list, args: list, kwargs: dict,
          first: Optional[Value], first_path: Optional[str], self_dev, own_object: bool = False,
          at_dev: Optional[Dev] = None) -> Value:
    bound = bind_arguments(func.node, arg_nodes, args, kwargs, first, node.keywords)
    if bound is None:
        forget_moved_arguments(ev, node)
        forget_objects_handed(ev, node, first, first_path)
        return UNKNOWN
    bound = _assumed_objects(func.node, _class_of(first) or cls, bound)
    result = call_in_context(ev, func, cls, bound, node, self_dev, own_object)
    if result is None:
        forget_moved_arguments(ev, node)
        forget_objects_handed(ev, node, first, first_path)
        return UNKNOWN
    paths = None
    effects = result.effects
    if effects:
        if at_dev is not None:
            effects = _placed_effects(effects, at_dev, bound)
        paths = argument_paths(ev, func.node, arg_nodes, node.keywords, first_path, first is not None)
        if func.home is None:
            _add_global_paths(ev, effects, bound, paths)
        apply_effects(ev, effects, paths, result.assigned, bound)
        for name, changes in effects.items():
            if changes is ITEMS_MOVED:  # `to_device([enc, dec])`: the modules the list held moved
                entry = bound[name] if name in bound else ev.frame.env.get(name, ev.module_env.get(name, UNKNOWN))
                forget_aliases(ev.frame.env, held_values(entry))
            else:
                _forget_items_of_lost_attributes(ev, bound.get(name), changes)
    if ev.frame.kind == "module" and func.home is None:
        _forget_moved_globals(ev)
    elif func.home is None and _nested_in(func.node, ev.frame.func):
        forget_closure_moves(ev, func.node)
    returns = result.returns
    if isinstance(returns, (ParamsV, SeqV, DictV)):  # `model.param_groups(...)`: the parameters of the caller's modules
        if paths is None:
            paths = argument_paths(ev, func.node, arg_nodes, node.keywords, first_path, first is not None)
        returns = owned_by_caller(returns, func.node, paths, ev.frame.func)
    return returns


def _assumed_objects(fnode, cls, bound: dict) -> dict:
    """`forward`'s parameter, assumed a tensor on the module's device (its `origin`: the parameter),
    handed to a helper that reads it as another object (`graph.x`), itself or through the methods of
    the same object it hands it on to: the helper is passed that object, not a tensor (unknown)."""
    for name, value in bound.items():
        if value.__class__ is TensorV and value.origin.__class__ is ast.arg and handed_as_another_object(fnode, name, cls):
            bound = {**bound, name: UNKNOWN}
    return bound


def _placed_effects(effects: dict, dev: Dev, bound: dict) -> dict:
    """A method's effects as its caller sees them, the receiver being on `dev`: a tensor the body stored
    in a plain attribute on "the module's device" (`self.cache = torch.zeros(n, device=x.device)`) is on
    `dev` and stays there when the module later moves (`Module.to()` moves parameters, buffers and
    submodules, not plain attributes).  A tensor that may be a Parameter, one stored under a registered
    name or where the holder is not known, and any module, keep following the module."""
    out = {}
    for name, changes in effects.items():
        if changes is not ITEMS_MOVED and any(_self_tensor_in(value) for _, value in changes):
            changes = tuple((suffix, map_leaves(value, lambda v: replace(v, dev=dev) if _self_tensor(v) else v)
                             if _plain_attribute(bound.get(name), suffix) else value)
                            for suffix, value in changes)
        out[name] = changes
    return out


def _plain_attribute(entry: Optional[Value], suffix: str) -> bool:
    """Is `suffix` (`.cache`, `.inner.cache`) of the object `entry` an attribute of a known module or
    object that is no parameter or buffer of its class (a plain attribute `Module.to()` leaves alone)?"""
    if entry is None or suffix[:1] != "." or "[" in suffix:
        return False
    names = suffix[1:].split(".")
    for inner in names[:-1]:
        entry = attrs_get(getattr(entry, "attrs", None), inner)
        if entry is None:
            return False
    info = _class_of(entry) if entry.__class__ is not ClassV else None
    if info is None:
        return False
    last = names[-1]
    return not any(last in c.params or last in c.buffers or c.overrides_apply or c.unresolved_base for c in info.mro())


def _self_tensor(v: Value) -> bool:
    return v.__class__ is TensorV and v.dev is not None and v.dev.kind == SELF_KIND and not v.grad


def _self_tensor_in(value: Value) -> bool:
    if value.__class__ is TensorV:
        return _self_tensor(value)
    return value.__class__ is SeqV or isinstance(value, DictV)


def _add_global_paths(ev, effects: dict, bound: dict, paths: dict) -> None:
    """Effects on names that are not the callee's parameters are on the module-level modules the
    caller handed it as it holds them (`moved_globals_held`: `def setup(): model.cuda()`, called by
    `main()`): the caller sees them under the same names."""
    for name in effects:
        if name not in bound and name not in paths:
            paths[name] = name


def _forget_items_of_lost_attributes(ev, entry: Optional[Value], changes: tuple) -> None:
    """A list or dict attribute of the object handed to the call is unknown after it (`Pool([a, b]).cuda()`,
    whose method moves `for m in self.models: m.cuda()`): the modules it held, under the caller's
    names too (`a`, `b`), may have moved."""
    if entry.__class__ is not ObjectV and entry.__class__ is not SelfV:
        return
    for suffix, value in changes:
        if value is UNKNOWN and suffix[:1] == "." and "." not in suffix[1:] and "[" not in suffix:
            held = attrs_get(entry.attrs, suffix[1:])
            if held.__class__ is SeqV or isinstance(held, DictV):
                forget_aliases(ev.frame.env, held_values(held))


def _nested_in(node: ast.AST, outer) -> bool:
    """Is the function `node` defined inside the function `outer` (a closure of it)?"""
    return outer is not node and isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) \
        and outer.lineno < node.lineno <= (outer.end_lineno or 0)


def _forget_moved_globals(ev) -> None:
    """Module-level code called a function of the file: a module-level module that some function
    moves in place (`def setup(): model.cuda()`) may have moved, as may the names sharing it
    (`alias = model`).  (Which function moves it is not asked: where it is now is unknown.)"""
    roots = ev.move_roots()
    containers = ev.moved_containers()
    if not roots and not containers:
        return
    env = ev.frame.env
    held = [env[name] for name in roots if name in env and ev.moved_by_a_function(name, env[name])]
    for value in moved_containers_in(ev, env).values():  # (the modules of a list or dict a function moves)
        held.extend(held_values(value))
    if held:
        forget_aliases(env, held)


# -- methods -----------------------------------------------------------------------------
def find_method(value: Value, name: str):
    """(FuncV, defining ClassInfo) of method `name` of a project instance, `self` or class."""
    info = _class_of(value)
    if info is None:
        return None
    if value.__class__ is ModuleV and name in MODULE_API:
        return None
    found = info.find_method(name)
    if found is None:
        return None
    node, owner = found
    return FuncV(node, id(node), owner, owner.home), owner


def _class_of(value: Value):
    if value.__class__ in (SelfV, ObjectV):
        return value.info
    if value.__class__ is ModuleV:
        return value.cls
    if value.__class__ is ClassV:
        return value.info
    return None


def call_method(ev, node: ast.Call, func: FuncV, owner, receiver: Value, recv_path: Optional[str],
                evaluated=None, arg_nodes: Optional[list] = None) -> Value:
    """`receiver.method(...)` for a method of a project class (`owner` defines it)."""
    args, kwargs = evaluated if evaluated is not None else ev.eval_args(node)
    arg_nodes = list(node.args) if arg_nodes is None else arg_nodes
    kind = method_kind(func.node)
    if kind == "static":
        return _call(ev, node, func, owner, arg_nodes, args, kwargs, None, None, ev.frame.self_dev)
    if kind == "class":
        info = _class_of(receiver) or owner
        return _call(ev, node, func, owner, arg_nodes, args, kwargs, ClassV(info, id(info.node)), None, ev.frame.self_dev)
    if isinstance(receiver, ClassV):  # `Base.method(self, x)`: the instance is the first argument
        return _call(ev, node, func, owner, arg_nodes, args, kwargs, None, None, ev.frame.self_dev)
    self_value, self_dev, dev = receiver_view(ev, receiver, recv_path)
    if dev is not None:
        caller = ev.frame.self_dev
        if caller is not None and not same_place(caller, dev):
            # what is on this caller's module device is not on the receiver's (`self.head.act(x)` of a
            # head assigned apart from the module): the receiver sees where it really is
            args = [relocate(a, caller) for a in args]
            kwargs = {k: relocate(v, caller) for k, v in kwargs.items()}
        args = [relative_to(a, dev) for a in args]
        kwargs = {k: relative_to(v, dev) for k, v in kwargs.items()}
    result = _call(ev, node, func, owner, arg_nodes, args, kwargs, self_value, recv_path, self_dev,
                   own_object=isinstance(receiver, SelfV), at_dev=dev)
    return relocate(result, dev) if dev is not None else result


def receiver_view(ev, receiver: Value, recv_path: Optional[str]):
    """(`self` as the method sees it, the context's module device, the concrete device to map
    "the module's device" to and from).  What the caller bound under `recv_path` (`obj.x = ...`)
    joins what the instance was made with."""
    overrides, nested, keyed = held_attribute_paths(ev.frame.env, recv_path)
    if isinstance(receiver, SelfV):
        if overrides:
            overrides = _hold_flags(overrides, recv_path, ev.frame.assigned)
        attrs = merge_attributes(receiver.attrs, overrides)
        if nested and attrs is not None:
            attrs = with_nested_attributes(attrs, nested)
        if keyed:
            attrs = with_held_items(attrs, ev.frame.env, recv_path, keyed, lambda n: dict_built(receiver.info, n))
        return SelfV(receiver.info, receiver.key, attrs, receiver.placed), ev.frame.self_dev, None
    if isinstance(receiver, ObjectV):
        attrs = merge_attributes(receiver.attrs, overrides) or ()
        if keyed:
            attrs = with_held_items(attrs, ev.frame.env, recv_path, keyed, lambda n: dict_built(receiver.info, n))
        return SelfV(receiver.info, receiver.key, with_nested_attributes(attrs, nested) if nested else attrs), ev.frame.self_dev, None
    info = getattr(receiver, "cls", None)
    if info is None:  # `self` is no instance (`Cls.method(None, ...)` then `super().method(...)`): unknown,
        return UNKNOWN, ev.frame.self_dev, None  # but still bound to `self`, so the arguments keep their places
    attrs = merge_attributes(receiver.attrs, overrides)
    if nested:
        attrs = with_nested_attributes(attrs, nested)
    if keyed:
        attrs = with_held_items(attrs, ev.frame.env, recv_path, keyed, lambda n: dict_built(info, n))
    # A submodule the caller moved or bound through the instance (`m.model.to("cuda")`) is where that
    # put it, not where the instance is (`Module.to` on the instance moves it again: see `module_method`).
    placed = tuple(name for name, value in overrides
                   if isinstance(value, ModuleV) and value.dev is not None and value.dev.kind != SELF_KIND
                   and not (receiver.dev is not None and same_place(value.dev, receiver.dev)))
    self_value = SelfV(info, id(info.node), attrs, placed)
    if receiver.dev is None or receiver.dev.kind == SELF_KIND:
        return self_value, ev.frame.self_dev, None
    return self_value, receiver.dev, receiver.dev


def dict_built(info, name: str) -> Value:
    """What `__init__` bound to `self.<name>`, where it is a dict holding no tensors (`self.params = {}`:
    nothing in it that `Module.to` could move); else the attribute as the class knows it."""
    value = info.init_values.get("self." + name)
    if isinstance(value, DictV) and value.items is not None and not tensor_container_items(value):
        return value
    return info.attr_value(name, None)


def _hold_flags(overrides: tuple, recv_path: str, assigned: dict) -> tuple:
    """The caller's own bindings of its `self` (`self.on_gpu = on_gpu` bound in this frame, or by a call
    it made, before `self.build()`): a flag among them is held, so the method's tests of it are decided."""
    if not any(value.__class__ is FlagV and not value.held for _, value in overrides):
        return overrides
    prefix = recv_path + "."
    return tuple((name, (HELD_TRUE if value.truth else HELD_FALSE)
                  if value.__class__ is FlagV and prefix + name in assigned else value)
                 for name, value in overrides)


def call_super(ev, node: ast.Call, name: str) -> Optional[Value]:
    """`super().name(...)` inside a method: the next class in the bases that defines it (None: not a project class)."""
    cls = ev.frame.cls
    receiver = ev.frame.env.get("self")
    if cls is None or receiver is None:
        return None
    found = cls.find_method(name, after=cls)
    if found is None:
        return None
    method, owner = found
    return call_method(ev, node, FuncV(method, id(method), owner, owner.home), owner, receiver, "self")


def property_value(ev, receiver: Value, name: str, at: ast.AST, recv_path: Optional[str]) -> Optional[Value]:
    """`obj.name` where the class defines a property `name` (None: it does not)."""
    found = find_method(receiver, name)
    if found is None or method_kind(found[0].node) != "property":
        return None
    func, owner = found
    call = ast.Call(func=at, args=[], keywords=[])
    ast.copy_location(call, at)
    return call_method(ev, call, func, owner, receiver, recv_path, evaluated=([], {}), arg_nodes=[])


# -- calling values ------------------------------------------------------------------------
def call_value(ev, node: ast.Call, callee: Value, recv_path: Optional[str] = None) -> Optional[Value]:
    """A call of a project value that is not a module: a bound method, a partial, an object
    with `__call__`, a class, a function.  None: `callee` is none of these."""
    if callee.__class__ is FuncV:
        return call_function(ev, node, callee)
    if callee.__class__ is ClassV:
        return instantiate(ev, node, callee)
    if callee.__class__ is BoundMethodV:
        return call_method(ev, node, callee.func, callee.func.owner, callee.receiver, None)
    if callee.__class__ is PartialV:
        return _call_partial(ev, node, callee)
    if callee.__class__ in (ObjectV, SelfV) and not (callee.__class__ is SelfV and callee.info.is_module):
        found = find_method(callee, "__call__")
        if found is not None:
            return call_method(ev, node, found[0], found[1], callee, recv_path)
    return None


def _call_partial(ev, node: ast.Call, partial: PartialV) -> Value:
    args, kwargs = ev.eval_args(node)
    all_args = list(partial.args) + args
    arg_nodes = [None] * len(partial.args) + list(node.args)
    all_kwargs = dict(partial.kwargs)
    all_kwargs.update(kwargs)
    target = partial.func
    if isinstance(target, BoundMethodV):
        return call_method(ev, node, target.func, target.func.owner, target.receiver, None, (all_args, all_kwargs), arg_nodes)
    if isinstance(target, FuncV):
        return _call(ev, node, target, None, arg_nodes, all_args, all_kwargs, None, None, ev.frame.self_dev)
    forget_moved_arguments(ev, node)
    return UNKNOWN


def make_partial(args: list, kwargs: dict) -> Value:
    """`functools.partial(func, *args, **kwargs)`."""
    if not args or any(k.startswith("**") for k in kwargs):
        return UNKNOWN
    return PartialV(args[0], tuple(args[1:]), tuple(sorted(kwargs.items())))


# -- data loaders over project datasets ------------------------------------------------------
def loader_batch(ev, node: ast.Call, loader: LoaderV) -> LoaderV:
    """A DataLoader over a dataset class of the project: its batch is what `__getitem__` returns,
    collated by the project's `collate_fn` (a function, or an instance of a class with `__call__`:
    `collate_fn=DataCollate()`) or by the default collate."""
    sample = None
    dataset = loader.dataset
    if isinstance(dataset, ObjectV):
        found = find_method(dataset, "__getitem__")
        if found is not None:
            sample = call_method(ev, node, found[0], found[1], dataset, None, evaluated=([UNKNOWN], {}), arg_nodes=[None])
    collate = loader.collate
    if isinstance(collate, FuncV):
        samples = SeqV(None, sample if sample is not None else UNKNOWN)
        batch = _call(ev, node, collate, None, [None], [samples], {}, None, None, ev.frame.self_dev)
    elif isinstance(collate, ObjectV) and (found := find_method(collate, "__call__")) is not None:
        samples = SeqV(None, sample if sample is not None else UNKNOWN)
        batch = call_method(ev, node, found[0], found[1], collate, None, evaluated=([samples], {}), arg_nodes=[None])
    elif collate is None and sample is not None:
        batch = default_collate(sample, node)
    else:
        return loader
    return replace(loader, batch=batch) if batch is not UNKNOWN else loader


# -- classes and modules ---------------------------------------------------------------------
def instantiate(ev, node: ast.Call, cls: ClassV) -> Value:
    """`Cls(...)`: an nn.Module subclass gives a module (where its parameters are created), any
    other class an object holding what `__init__` stored for this call."""
    args, kwargs = ev.eval_args(node)
    info = cls.info
    attrs = ()
    if info.record_kind is not None and info.find_method("__init__") is None:
        attrs = _record_fields(info, args, kwargs)
    else:
        attrs = _run_init(ev, node, cls, args, kwargs,
                          all_calls=not info.is_module or ev.frame.kind == "module" or _informative(args, kwargs))
    if not info.is_module and info.tensor_subclass:  # a tensor; `.to()` does not move it in place
        return TensorV(None, origin=node)
    if not info.is_module:
        return ObjectV(info, id(info.node), attrs, node)
    dev = None if info.moves_self else default_device(ev)
    if device_parameter(info, ev) is not None:  # Net(device=device): its layers are built there
        dev = _argument_device(ev, node, info, args, kwargs)
    else:  # a device argument not followed to the layers, or modules held: unknown, not the default
        dev = constructor_device(node, _init_of(info), args, kwargs, dev, info)
        if dev is not None and holds_state_elsewhere(attrs, dev):
            dev = None  # a weight passed in, or a submodule built on its device, is where it is
    if info.moves_parts or copies_module_argument(node, _init_of(info), args, kwargs):
        # `self.lin.to(dev)` in `__init__`, or a deep copy of a module passed in (`self.module =
        # deepcopy(model)`): where its parts are, as this call's `__init__` left them, when they agree
        dev = parts_device(info, attrs)
    if info.moves_self:
        moved = attrs_get(attrs, SELF_MOVED)  # `self.to(device)` on every path of this `__init__`
        if isinstance(moved, DeviceV):
            dev = moved.dev
        attrs = tuple(a for a in attrs if a[0] != SELF_MOVED)
    has_params = info.has_params_without(absent_arguments(node, _init_of(info), set(info.optional_state.values())))
    if has_params and attrs and _parts_hold_no_state(info, attrs):
        has_params = False
    return ModuleV(dev, has_params, node, info, attrs=attrs)


def _parts_hold_no_state(info, attrs: tuple) -> bool:
    """Does an instance whose class registers no parameters or buffers of its own hold, as this call's
    `__init__` left them, only submodules without any (`self.layers = nn.Sequential(*[layer(**kw)])`
    with `layer` a parameter-free class handed in)?  The class alone could not say what they hold."""
    if info.params or info.buffers or info.unresolved_base:
        return False
    for name, has in info.submodules.items():
        if has:
            held = attrs_get(attrs, name)
            if held.__class__ is not ModuleV or held.has_params:
                return False
    return True


def parts_device(info, attrs: tuple):
    """The device of a module whose `__init__` holds only submodules (no parameters or buffers of
    its own, none registered by name), each known in `attrs` (what this call's `__init__` stored) and
    all on one device; None where anything it stored might be another module (an unknown value, an
    object, a container) or a submodule is not known there."""
    if info.params or info.buffers or info.registers_modules or info.container is not None or info.bases \
            or not info.plain_bases or info.unresolved_base or info.overrides_apply or _stores_outside_init(info):
        return None
    dev = None
    names = set(info.submodules)
    for name, value in attrs:
        if value.__class__ is ModuleV:
            if value.dev is None:
                return None
            dev = value.dev if dev is None else join_dev(dev, value.dev)
            if dev is None:
                return None
            names.discard(name)
        elif not (value is NONE or isinstance(value, Number) or value.__class__ in _NO_MODULE):
            return None
    return dev if not names else None


_NO_MODULE = (DeviceV, FlagV, TensorV, TextV)


def _stores_outside_init(info) -> bool:
    """Does a method other than `__init__` store an attribute of `self` (memoised on the class node)?"""
    known = info.node.__dict__.get("_tp_stores_outside_init")
    if known is None:
        known = any(node.__class__ is ast.Attribute and node.ctx.__class__ is ast.Store
                    and node.value.__class__ is ast.Name and node.value.id == "self"
                    for name, method in info.methods.items() if name != "__init__" for node in ast.walk(method))
        info.node._tp_stores_outside_init = known
    return known


def _init_of(info):
    found = info.find_method("__init__")
    return found[0] if found is not None else None


def _informative(args: list, kwargs: dict) -> bool:
    return any(v is not UNKNOWN and not isinstance(v, Number) for v in list(args) + list(kwargs.values()))


def _informative_defaults(ev, bound: dict) -> bool:
    """Do the parameters the call left to their defaults say more than the entry context assumes:
    a device (`device="cpu"`), or None for a device parameter (taken there as the module's device)?"""
    return any(isinstance(v, DeviceV) or v is NONE and name in ev.device_names for name, v in bound.items())


def _record_fields(info, args: list, kwargs: dict) -> tuple:
    """A dataclass / NamedTuple made from its fields."""
    bound = dict(zip(info.fields, args))
    bound.update((k, v) for k, v in kwargs.items() if k in info.fields)
    return tuple(sorted((k, v) for k, v in bound.items() if v is not UNKNOWN))


def _run_init(ev, node: ast.Call, cls: ClassV, args: list, kwargs: dict, all_calls: bool = True) -> tuple:
    """What `__init__` stores on the instance for this call.  A module made with arguments that say
    nothing (`Block(config)`) is run only when a default does (`device="cpu"`, `device=None`):
    otherwise its entry context already says what the call would (unless `all_calls`)."""
    info = cls.info
    found = info.find_method("__init__")
    if found is None:
        return ()
    method, owner = found
    receiver = SelfV(info, cls.key, ())
    func = FuncV(method, id(method), owner, owner.home)
    bound = bind_arguments(method, list(node.args), args, kwargs, receiver, node.keywords)
    if bound is None or not (all_calls or not info.init_values or _informative_defaults(ev, bound)):
        forget_moved_arguments(ev, node)
        return ()
    result = call_in_context(ev, func, owner, bound, node, None)
    if result is None:
        forget_moved_arguments(ev, node)
        return ()
    self_name = next(iter(bound))
    others = {name: changes for name, changes in result.effects.items() if name != self_name}
    changes = result.effects.get(self_name, ())  # (the result is kept for the next such call: never changed)
    if others:
        apply_effects(ev, others, argument_paths(ev, method, list(node.args), node.keywords, None, True))
    return tuple(sorted((suffix[1:], value) for suffix, value in changes
                        if suffix.startswith(".") and "." not in suffix[1:] and "[" not in suffix[1:]))


def call_entry(info):
    """What `module(x)` runs of a module class of the project: the `__call__` it defines in place of
    nn.Module's, else its `forward` ((method, defining class) or None)."""
    return info.find_method("__call__") or info.find_method("forward")


def follow_forward(ev, node: ast.Call, module: ModuleV, args: list, kwargs: dict) -> Optional[Value]:
    """`model(x)` of a module class of the project: its `forward` for this call (None: not followed)."""
    info = module.cls
    if info is None or module.dev is None:
        return None
    found = call_entry(info)
    if found is None:
        return None
    method, owner = found
    func = FuncV(method, id(method), owner, owner.home)
    path = ev.path_of(node.func)
    if module.layer in ("DataParallel", "DistributedDataParallel", "FullyShardedDataParallel"):
        args, kwargs = [_scattered(a) for a in args], {k: _scattered(v) for k, v in kwargs.items()}
    result = call_method(ev, node, func, owner, module, path, evaluated=(args, kwargs))
    if result is UNKNOWN and module.dev.kind != SELF_KIND:
        return None
    return result


def follow_paramless_forward(ev, node: ast.Call, module: ModuleV, args: list, kwargs: dict) -> Optional[Value]:
    """`loss_fn(x)` of a module class of the project with no parameters, buffers or submodules
    that hold any: it runs where its input is, so its `forward` is followed with the module's
    own device unknown (what it keeps in plain attributes is where `__init__` put it)."""
    info = module.cls
    found = call_entry(info) if info is not None else None
    if found is None or method_kind(found[0]) != "method":
        return None
    method, owner = found
    func = FuncV(method, id(method), owner, owner.home)
    path = ev.path_of(node.func)
    self_value, _, _ = receiver_view(ev, replace(module, dev=SELF_DEV), path)
    result = _call(ev, node, func, owner, list(node.args), args, kwargs, self_value, path, None)
    return relocate(result, None)


def follow_held_forward(ev, node: ast.Call, module: ModuleV, args: list, kwargs: dict) -> Optional[Value]:
    """`wrapper(x)` of a module class of the project whose instance was never moved and holds
    modules placed apart from it (`SoftmaxLoss(model)` of a model already on the GPU): it has no one
    device, so its `forward` is followed with each module it holds where `__init__` left it (its own
    layers where they were made, the modules passed in where they were) and "the module's device"
    unknown.  Only while the instance is as made: `Module.to()` moves them all (a move to an unknown
    device leaves them unknown)."""
    info = module.cls
    if info is None or module.dev is not None or module.layer is not None or not info.plain_bases \
            or info.overrides_apply or info.moves_itself() or not _as_made(module.placed_at):
        return None
    path = ev.path_of(node.func)
    attrs = merge_attributes(module.attrs, held_attributes(ev.frame.env, path)) or ()  # (`head.classifier.to("cuda")`: moved there)
    held = [(name, v) for name, v in attrs if isinstance(v, ModuleV)]
    if not any(v.dev is not None and v.dev.kind == ACCEL_KIND for _, v in held):
        return None
    found = call_entry(info)
    if found is None or method_kind(found[0]) != "method":
        return None
    method, owner = found
    func = FuncV(method, id(method), owner, owner.home)
    placed = tuple(name for name, v in held if v.dev is not None and v.dev.kind != SELF_KIND)
    self_value = SelfV(info, id(info.node), attrs, placed)
    result = _call(ev, node, func, owner, list(node.args), args, kwargs, self_value, path, None)
    return relocate(result, None)


def _as_made(placed_at) -> bool:
    """Is `placed_at` the call that made the module, not a move (`m.to(device)`, `m.cuda()`) or
    nothing (a module some code may have moved: `unplaced`, `forget_moved_arguments`)?"""
    return isinstance(placed_at, ast.Call) and not (
        isinstance(placed_at.func, ast.Attribute) and placed_at.func.attr in MODULE_MOVES)


def _scattered(value: Value) -> Value:
    """An input of DataParallel(model): moved to the wrapped module's device before forward runs, and
    so are the tensors its tuples, lists and dicts hold (`model([img, annot])`: torch's `scatter_map`
    recurses into them; five levels down the value is unknown).  A mapping that is no dict (a
    BatchEncoding) is handed on as is."""
    if isinstance(value, EncodingV):
        return value
    return map_leaves(value, _scattered_tensor, too_deep=UNKNOWN)


def _scattered_tensor(value: Value) -> Value:
    if isinstance(value, TensorV):
        return replace(value, dev=SELF_DEV, batch=None, factory=None)
    return value


def self_attribute(ev, receiver: SelfV, name: str, at) -> Value:
    """`self.name` inside a method: what the call's receiver holds, else what the class knows."""
    info = receiver.info
    value = attrs_get(receiver.attrs, name)
    if value is NONE:
        value = filled_value(ev, info, name, value)
    if value is not None and not (info.is_module and _registered(info, name) and kept_plain(ev, info, name, value) is None):
        if name in receiver.placed:
            return value
        return _as_module_attribute(info, name, value, at) if info.is_module else value
    return ev.class_attr(info, name, at)


def _registered(info, name: str) -> bool:
    """Tensors the class scan knows better than any instance: parameters, buffers, plain CPU tensors."""
    return name in info.params or name in info.buffers or name in info.plain_tensors


def _as_module_attribute(info, name: str, value: Value, at) -> Value:
    """What a module instance holds, as its methods see it: modules it holds are its submodules
    (they move with it).  A CPU tensor its `__init__` stored in a plain attribute stays on the CPU
    (`Module.to()` moves parameters, buffers and submodules, not plain attributes); any other
    tensor may have been registered some way the analysis missed.  A class that overrides
    `_apply` / `to` / `cuda` may move what it holds itself."""
    if isinstance(value, ModuleV):
        return replace(value, dev=SELF_DEV, placed_at=None)
    if isinstance(value, TensorV):
        if value.dev is not None and value.dev.is_cpu and not value.grad and info.unmoved(name):
            return replace(value, plain_attr=name, factory=None)
        return TensorV(None, origin=at)
    if isinstance(value, DeviceV) and info.overrides_apply:
        return UNKNOWN
    if isinstance(value, (SeqV, DictV)) and tensor_container_items(value):
        # a plain list of CPU tensors (of buffers as registered) stays there, unless `_apply` moves it
        return plain_container(value, name) if info.unmoved(name) else UNKNOWN
    if value.__class__ is ObjectV and _holds_modules(value, objects=True) and not info.holds_apart(name, value.info):
        # a plain object whose modules may be moved with it or by it (`_apply`, its own `to`, an unknown base)
        return UNKNOWN
    if isinstance(value, (SeqV, DictV)) and _holds_modules(value):
        # Modules in a list move with the instance where they are also its attributes (`[self.b1, self.b2]`)
        # and stay where they were if not (TP203 reports such a list where it is made): not known here.
        return UNKNOWN
    return value


def _holds_modules(value: Value, objects: bool = False) -> bool:
    held = []
    map_leaves(value, lambda v: held.append(v) or v, objects=objects)
    return any(isinstance(v, ModuleV) for v in held)


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
