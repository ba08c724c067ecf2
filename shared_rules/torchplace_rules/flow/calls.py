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
from dataclasses import replace
from typing import Optional

from .class_model import NAMESPACE_CLASSES, namespace_object
from .command_line import parsed_namespace
from .iteration_protocol import next_value, protocol_iterable
from .contexts import static_lambda
from .cross_file import ProjectModuleV
from .devices import SELF_DEV, parse_device_string, runtime_device
from .project_calls import (
    call_function, call_super, call_value, find_method, follow_forward, follow_held_forward, follow_paramless_forward, instantiate, loader_batch, make_partial,
    map_function,
    self_attribute,
)
from .project_calls import call_method as project_method
from .state import MODULE_MOVES, forget_moved_arguments, forget_reflected, with_stored_items
from .optimizers import optimizer_method
from .default_device import check_shuffled_loader
from .torch_calls import call_qualified, default_device, layer as torch_layer
from .torchvision_transforms import class_level_transform
from .container_values import builtin_sum, merged_mapping, popped
from .torch_methods import buffers_only, module_input_conflicts, module_method, numpy_method, stateless_module_output, tensor_method, to_target
from .values import (
    MEMBERS, SELF_MOVED, NONE, NUMBER, Number, UNKNOWN, BatchV, BoundMethodV, ClassV, DeviceV, DictV, EncodingV, EnumerateV, FuncV, ItemsV, LoaderV, ModuleV, NumpyV, ObjectV,
    OptimizerV, ParamsV, PartialV, PlacedV, QualV, SelfV, SeqV, TensorV, Value, ZipV, attrs_get, iteration_element, join_all,
)

CALLABLE_VALUES = (ModuleV, PlacedV, FuncV, BoundMethodV, PartialV, ObjectV, ClassV)

PURE_BUILTINS = {"len", "isinstance", "issubclass", "print", "range", "int", "float", "str", "bool", "repr", "hasattr",
                 "getattr", "type", "id", "hash", "min", "max", "sum", "abs", "round", "format", "callable", "super",
                 "dict", "set", "frozenset", "open", "vars", "dir", "any", "all", "map", "filter"}


def dispatch_call(ev, node: ast.Call, recv: Optional[Value]) -> Value:
    """The value of the call `node`; `recv` is the value of `node.func.value` for `a.b(...)`."""
    func = node.func
    if func.__class__ is ast.Attribute:
        if _is_super(func.value):
            result = call_super(ev, node, func.attr)
            if result is not None:
                return result
            if func.attr == "__init__" and ev.frame.cls is not None and ev.frame.cls.container is not None:
                return _register_members(ev, node, ev.frame.cls.container)
        member = recv.member(ev, func.attr) if recv.__class__ is ProjectModuleV else None
        if member.__class__ is FuncV:
            return call_function(ev, node, member)
        if member.__class__ is ClassV:
            return instantiate(ev, node, member)
        if isinstance(recv, QualV):
            return _call_library(ev, node, f"{recv.name}.{func.attr}")
        callee = attribute_callee(ev, recv, func)
        if type(callee) is QualV:  # a library object kept in an attribute (`self.transform = Compose([...])`)
            return _call_library(ev, node, callee.name)
        if callee.__class__ in (ModuleV, PlacedV):
            return module_call(ev, node, callee.as_module(), opaque=True) if isinstance(callee, PlacedV) \
                else module_call(ev, node, callee)
        if callee is not None:
            result = call_value(ev, node, callee, ev.path_of(func))
            if result is not None:
                return result
        method = find_method(recv, func.attr)
        if method is not None:
            return project_method(ev, node, method[0], method[1], recv, ev.path_of(func.value))
        return call_method(ev, node, recv, func.attr)
    callee = ev.eval(func)
    if isinstance(callee, QualV):
        return _call_library(ev, node, callee.name)
    if callee.__class__ is ModuleV:
        return module_call(ev, node, callee)
    if callee.__class__ is PlacedV:
        return module_call(ev, node, callee.as_module(), opaque=True)
    if callee.__class__ is SelfV and callee.info.is_module:
        return module_call(ev, node, ModuleV(SELF_DEV, True, None, callee.info, attrs=callee.attrs or ()))
    result = call_value(ev, node, callee, ev.path_of(func))
    if result is not None:
        return result
    if callee.__class__ is SelfV:
        ev.eval_args(node)
        return UNKNOWN
    if callee is UNKNOWN and isinstance(func, ast.Name):
        return call_builtin(ev, node, func.id)
    args, kwargs = ev.eval_args(node)
    forget_moved_arguments(ev, node)
    return UNKNOWN


def _call_library(ev, node: ast.Call, qual: str) -> Value:
    """A call of an imported library object: `functools.partial`, else torch semantics (a
    DataLoader over a project dataset is followed into its `__getitem__` and collate function)."""
    if qual == "functools.partial":
        return make_partial(*ev.eval_args(node))
    if qual in NAMESPACE_CLASSES:
        return namespace_object(ev.eval_args(node)[1], node)
    result = call_qualified(ev, node, qual)
    if isinstance(result, LoaderV) and isinstance(result.dataset, ObjectV) or isinstance(result, LoaderV) \
            and isinstance(result.collate, (FuncV, ObjectV)):
        return loader_batch(ev, node, result)
    return result


def _register_members(ev, node: ast.Call, container: str) -> Value:
    """`super().__init__(*modules)` in a subclass of nn.Sequential / ModuleList / ModuleDict: the
    members it registers are kept as the instance's MEMBERS attribute (`self[0]` reads them)."""
    args, kwargs = ev.eval_args(node)
    made = torch_layer(ev, node, container, args, kwargs)
    if isinstance(made, ModuleV) and made.items is not None and "self" in ev.frame.env:
        ev.frame.env["self." + MEMBERS] = made.items
    return NONE


def _is_super(node) -> bool:
    return node.__class__ is ast.Call and node.func.__class__ is ast.Name and node.func.id == "super"


def attribute_callee(ev, recv: Value, func: ast.Attribute) -> Optional[Value]:
    """`self.encoder(x)`, `model.head(x)`, `self.model(x)`, `self.fn(x)`: a callable held in an attribute."""
    path = ev.path_of(func)
    if path is not None:
        held = ev.frame.env.get(path)
        if held is not None:
            return held
    if recv.__class__ is SelfV:
        value = self_attribute(ev, recv, func.attr, func)
        if isinstance(value, CALLABLE_VALUES) or type(value) is QualV:
            return value
        # (a transform the class body made: `clip_transform = Compose([..., ToTensor(), ...])`)
        return class_level_transform(ev, recv.info, func.attr) if value is UNKNOWN else None
    if recv.__class__ is ObjectV:
        value = attrs_get(recv.attrs, func.attr)
        if value is None and func.attr in recv.info.class_values:
            return static_lambda(recv.info, recv.info.class_values[func.attr]) \
                or class_level_transform(ev, recv.info, func.attr)
        return value if isinstance(value, CALLABLE_VALUES) or type(value) is QualV else None
    if recv.__class__ is ModuleV and recv.cls is not None and func.attr in recv.cls.submodules:
        return ModuleV(recv.dev, recv.cls.submodules[func.attr], recv.placed_at)
    return None


def call_method(ev, node: ast.Call, recv: Value, name: str) -> Value:
    """`recv.name(...)` where `recv` is a value (not a module of the project or a torch namespace)."""
    if recv.__class__ is ObjectV and (recv.info.unresolved_base or recv.info.find_method("__getattr__") is not None):
        # an instance of a class whose base we cannot see (maybe a Module), or one that hands the names it
        # lacks to what it holds (`__getattr__`: `wrapper.cuda()` moves the model it wraps): `.to()` moves it
        recv = UNKNOWN
    if name in MODULE_MOVES and node.func.value.__class__ is ast.Call:
        forget_reflected(ev, node.func.value)  # `getattr(self, name).to(device)`: one of its modules moved
    if recv.__class__ is SelfV and recv.placed and name in MODULE_MOVES:
        path = ev.path_of(node.func.value)  # `self.to(device)`: the submodules a caller placed move too
        if path is not None:
            recv = ev.frame.env[path] = replace(recv, placed=())
    if recv.__class__ is SelfV and name in ("to", "cuda") and recv.info.is_module:
        return _move_self(ev, node, recv, name)
    if recv.__class__ is SelfV and name in ("train", "eval", "requires_grad_") and recv.info.is_module \
            and recv.info.find_method(name) is None:
        ev.eval_args(node)
        return recv  # nn.Module's train()/eval() return the module itself (`model = self.train()`)
    if recv.__class__ is OptimizerV:
        return optimizer_method(ev, node, recv, name)
    if recv is UNKNOWN and name == "parse_args" and not node.args and not node.keywords:
        scope = ev.frame.func if ev.frame.kind != "module" and ev.frame.func is not None else ev.tree
        return parsed_namespace(scope, node)  # (the numbers of a command line: `torch.device(args.gpu)`)
    if recv.__class__ is ModuleV:
        # (a library model's `generate(input_ids, ...)`, transformers' GenerationMixin, runs its forward on
        # the inputs as given: they must be where the model is, as for `model(input_ids)`)
        if name == "forward" or name == "generate" and recv.cls is None and recv.known_class and not recv.torch_layer:
            args, kwargs = ev.eval_args(node)
            ev.emit("call", node, None, name, recv, args, kwargs)
            return module_call(ev, node, recv, evaluated=(args, kwargs))
        return module_method(ev, node, recv, name)
    if recv.__class__ is PlacedV and name in ("to", "cuda", "cpu", "train", "eval", "parameters"):
        return module_method(ev, node, recv.as_module(), name, placed=True)
    if recv.__class__ is PlacedV:
        recv = recv.as_tensor()
    if isinstance(recv, (TensorV, BatchV)) or (recv is UNKNOWN and name in ("to", "cuda")):
        return tensor_method(ev, node, recv, name)
    if isinstance(recv, DeviceV) and name == "format" and isinstance(node.func.value, ast.Constant):
        ev.eval_args(node)
        dev = runtime_device(node.func.value.value, node)  # "cuda:{}".format(gpu)
        return DeviceV(dev) if dev is not None else UNKNOWN
    if isinstance(recv, DeviceV) and recv.text is not None and name in ("lower", "strip") and not node.args \
            and not node.keywords:  # "CUDA".lower(): the string it gives
        text = getattr(recv.text, name)()
        dev = parse_device_string(text, node) if 2 < len(text) < 12 else None
        return DeviceV(dev, True, text) if dev is not None else UNKNOWN
    if isinstance(recv, SeqV) and name in ("append", "extend", "insert"):
        return _grow_list(ev, node, recv, name)
    if recv.__class__ is SeqV and name == "pop":
        ev.eval_args(node)
        return popped(recv)
    if isinstance(recv, DictV) and name in ("to", "cuda", "cpu"):
        return _move_mapping(ev, node, recv, name)
    if isinstance(recv, DictV) and name == "update":
        return _update_mapping(ev, node, recv)
    if isinstance(recv, DictV) and name == "items":
        ev.eval_args(node)
        return ItemsV(recv.elem)
    if isinstance(recv, DictV) and name == "values":
        return SeqV(None, recv.elem)
    if isinstance(recv, DictV) and name == "copy" and not node.args:
        return merged_mapping([(None, ev.stored_mapping(node.func.value, recv))])
    if isinstance(recv, DictV) and name in ("get", "pop"):
        found = _mapping_entry(ev, node, recv)
        if found is not None:
            return found
    if isinstance(recv, NumpyV):
        return numpy_method(ev, node, recv, name)
    if isinstance(recv, ParamsV):
        ev.eval_args(node)
        return UNKNOWN
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, None, name, recv, args, kwargs)
    if name == "register_buffer" and type(recv) is SelfV and len(args) >= 2 and args[1].__class__ is TensorV \
            and not isinstance(node.args[0], ast.Constant):
        ev.frame.env[_named_buffer_key(ev, node.args[0])] = args[1]  # read back by `getattr(self, <the name>)`
    if name == "add_graph" and len(args) >= 2 and isinstance(args[0], (ModuleV, PlacedV)):
        _trace_module(ev, node, args[0], args[1])
    if not isinstance(recv, SelfV):
        forget_moved_arguments(ev, node)
    return UNKNOWN


def _mapping_entry(ev, node: ast.Call, recv: DictV) -> Optional[Value]:
    """`d.get("k")` / `d.pop("k")` of a dict whose entry "k" is known (bound by `d["k"] = v` here,
    or one of its known items): that entry (None: not known, the call goes on as any other)."""
    key = node.args[0] if node.args else None
    if not isinstance(key, ast.Constant) or not isinstance(key.value, str) or node.keywords:
        return None
    ev.eval_args(node)
    path = ev.path_of(node.func.value)
    value = ev.frame.env.get(f"{path}[{key.value!r}]") if path is not None else None
    if value is None and recv.items is not None:
        value = recv.get(key.value)
    return value if value is not None and value is not UNKNOWN else None


def _update_mapping(ev, node: ast.Call, recv: DictV) -> Value:
    """`d.update(other)`, `d.update(k=v)`: the entries written are what `d` holds under their keys
    from now on (as after `d["k"] = v`); where what it writes is not known (`d.update(other)` of
    a mapping whose keys are not known, `**kw`), no entry of `d` is known after."""
    args, kwargs = ev.eval_args(node)
    path = ev.path_of(node.func.value)
    if path is None:
        return NONE
    env = ev.frame.env
    pairs = list(kwargs.items())
    known = len(args) <= 1 and not any(k.startswith("**") for k in kwargs) \
        and not any(isinstance(a, ast.Starred) for a in node.args)
    if known and args:
        other = args[0]
        arg_path = ev.path_of(node.args[0])
        if isinstance(other, DictV) and other.items is not None and arg_path is not None and arg_path.isidentifier():
            other = with_stored_items(env, arg_path, other)
        stored = arg_path is not None and not arg_path.isidentifier() and any(k.startswith(arg_path + "[") for k in env)
        if isinstance(other, DictV) and other.items is not None and not stored:
            pairs = list(other.items) + pairs
        else:
            known = False
    stale = [k for k in env if k.startswith(path + "[")]
    if not known:
        for key in stale:
            del env[key]
        env[path] = DictV(UNKNOWN)
        return NONE
    base = with_stored_items(env, path, recv) if recv.items is not None and path.isidentifier() else recv
    if base.items is not None and (path.isidentifier() or not stale):
        items = dict(base.items)
        items.update(pairs)
        for key in stale:
            del env[key]
        env[path] = replace(base, elem=join_all(items.values()) if items else base.elem, items=tuple(items.items()))
        return NONE
    elem = join_all([base.elem, *(value for _, value in pairs)])
    for key, value in pairs:
        entry = f"{path}[{key!r}]"
        for old in [k for k in env if k.startswith((entry + ".", entry + "["))]:
            del env[old]
        env[entry] = value
    env[path] = replace(base, elem=elem)
    return NONE


def _move_self(ev, node: ast.Call, recv: SelfV, name: str) -> Value:
    """`self.to(device)` in a method of a module (`self = self.to(device)` too): where it moved is
    kept as the instance's `SELF_MOVED` attribute, which an instantiation reads after `__init__`
    (a move on some paths only joins to unknown; a module or parameter made after it drops it)."""
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, None, name, recv, args, kwargs)
    moves, dev, _ = to_target(ev, node, name, args, kwargs)
    path = ev.path_of(node.func.value)
    if moves and path is not None:
        ev.frame.env[path + "." + SELF_MOVED] = DeviceV(dev) if dev is not None else UNKNOWN
    return recv


def _move_mapping(ev, node: ast.Call, recv: DictV, name: str) -> Value:
    """`inputs.to(device)` on a mapping: a tokenizer's BatchEncoding moves its tensors in place and
    returns itself; any other mapping with a `.to` (a TensorDict returns a new one) is unknown after."""
    args, kwargs = ev.eval_args(node)
    moves, dev, _ = to_target(ev, node, name, args, kwargs)
    if not moves:
        return recv
    moved = EncodingV(TensorV(dev, origin=node, min_rank=1)) if isinstance(recv, EncodingV) and dev is not None else UNKNOWN
    path = ev.path_of(node.func.value)
    if path is not None:
        ev.frame.env[path] = moved
    return moved


def _grow_list(ev, node: ast.Call, lst: SeqV, name: str) -> Value:
    """`lst.append(x)`: the list now also holds x (its items are no longer known one by one)."""
    args, _ = ev.eval_args(node)
    added = args[-1] if args else UNKNOWN
    if name == "extend":
        added = added.element() if isinstance(added, SeqV) else UNKNOWN
    path = ev.path_of(node.func.value)
    grown = SeqV(None, lst.element().join(added), not_none=True)  # (None has no append)
    if path is not None:
        ev.frame.env[path] = grown
    elif node.func.value.__class__ is ast.Subscript:
        _grow_some_entry(ev, node.func.value.value, grown)
    return NONE


def _grow_some_entry(ev, container_node, grown: SeqV) -> None:
    """`history[phase].append(x)` under a key the analysis does not know: some entry of the dict now
    also holds x, so each entry is what it was or that grown list (joined); its stored entries too."""
    path = ev.path_of(container_node)
    container = ev.frame.env.get(path) if path is not None else None
    if container.__class__ is not DictV:
        return
    env = ev.frame.env
    for key in [k for k in env if k.startswith(path + "[") and k.endswith("]") and "[" not in k[len(path) + 1:]]:
        env[key] = env[key].join(grown)
    items = tuple((k, v.join(grown)) for k, v in container.items) if container.items is not None else None
    env[path] = DictV(container.elem.join(grown), items)


def _trace_module(ev, node: ast.Call, module: Value, example: Value) -> None:
    """`writer.add_graph(model, example)` (TensorBoard) runs `model(example)`."""
    call = ast.copy_location(ast.Call(func=node.args[0], args=[node.args[1]], keywords=[]), node)
    ast.copy_location(call, node)
    call.end_lineno, call.end_col_offset = node.end_lineno, node.end_col_offset
    module_call(ev, call, module.as_module() if isinstance(module, PlacedV) else module, evaluated=([example], {}))


def module_call(ev, node: ast.Call, module: ModuleV, evaluated=None, opaque: bool = False) -> Value:
    """`model(x)`: the input must be where the module's parameters are; a module class of the
    project is followed into its `forward` for this call.  `opaque`: the callee is an object of unknown
    kind moved with `.to()`/`.cuda()` (`torch.load`-ed, or made by code not read), whose output is taken
    for a tensor on its device, but each part unpacked from it may be any object (TensorV.opaque)."""
    args, kwargs = evaluated if evaluated is not None else ev.eval_args(node)
    conflict = module_input_conflicts(ev, node, module, args, kwargs)
    ev.emit("module_call", node, module, args, kwargs)
    if conflict:
        return UNKNOWN
    if module.torch_layer and not module.has_params:  # a loss, pooling, an activation: runs where its input is
        return stateless_module_output(ev, node, args)
    if module.dev is not None and module.dev.is_cpu and not _has_cpu_tensor(args, kwargs):
        if buffers_only(module, ev):
            # Its forward decides: a buffer may be moved to the input there (`self.w.to(x)`), or be 0-dim.
            followed = follow_forward(ev, node, module, args, kwargs)
            if followed is not None:
                return followed
        if module.cls is not None and not module.torch_layer and _no_tensor_input(args, kwargs):
            # Nothing the caller passes can be a tensor (`hnet(cond_id=0)`): what forward computes
            # from the module's own state is where the module is.
            followed = follow_forward(ev, node, module, args, kwargs)
            if followed is not None:
                return followed
        if not module.has_params and module.cls is not None and not module.torch_layer:
            # A module of the project without parameters runs where its input is: its forward is
            # followed with its own device unknown (its plain CPU attributes are still on the CPU).
            followed = follow_paramless_forward(ev, node, module, args, kwargs)
            if followed is not None:
                return followed
        # A module left on the CPU gives CPU results only where its input is known to be there
        # too: with an input of unknown device the call itself is what may fail.
        return TensorV(None, origin=node, grad=ev.frame.no_grad == 0, module_output=True)
    if module.cls is not None and not module.torch_layer:
        followed = follow_forward(ev, node, module, args, kwargs)
        if followed is None and module.dev is None:
            followed = follow_held_forward(ev, node, module, args, kwargs)
        if followed is not None:
            return followed
        if not module.has_params and module.dev is None:
            # A module of the project with no parameters known and its device unknown: what its own
            # `forward` (or the `__call__` it defines) returns decides, as for one left on the CPU
            # above (a sampler's `__call__` that returns `imgs.cpu().numpy()` gives no tensor).
            followed = follow_paramless_forward(ev, node, module, args, kwargs)
            if followed is not None:
                return followed
    if not module.has_params:  # a module without parameters: runs where its input is
        return stateless_module_output(ev, node, args)
    if not module.known_class and not any(isinstance(v, (TensorV, BatchV, PlacedV)) for v in list(args) + list(kwargs.values())):
        return UNKNOWN  # an object of unknown kind moved with .to() (a pipeline) called with no tensor: not known to give one
    return TensorV(module.dev, origin=node, grad=ev.frame.no_grad == 0, module_output=True, opaque=opaque)


def _no_tensor_input(args: list, kwargs: dict) -> bool:
    """Are all of a call's arguments known to be numbers or None (no tensor among them)?"""
    return all(isinstance(v, Number) or v is NONE for v in list(args) + list(kwargs.values()))


def _has_cpu_tensor(args: list, kwargs: dict) -> bool:
    return any(isinstance(v, BatchV) or isinstance(v, TensorV) and v.dev is not None and v.dev.is_cpu
               for v in list(args) + list(kwargs.values()))


def call_builtin(ev, node: ast.Call, name: str) -> Value:
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, name, None, None, args, kwargs)
    first = args[0] if args else UNKNOWN
    if name == "next":
        if isinstance(first, ParamsV):
            return first.element(node)
        if isinstance(first, SeqV):
            return first.element()
        if isinstance(first, LoaderV):
            return iteration_element(first, _FakeLoop(node))[0]
        step = next_value(ev, node.args[0], first) if node.args else None
        return UNKNOWN if step is None else step
    if name == "iter":
        if first.__class__ is LoaderV:
            check_shuffled_loader(ev, node, first, default_device(ev))
        return protocol_iterable(ev, node.args[0], first) if len(node.args) == 1 else first
    if name == "getattr" and type(first) is SelfV and len(node.args) == 2 and not isinstance(node.args[1], ast.Constant):
        return ev.frame.env.get(_named_buffer_key(ev, node.args[1]), UNKNOWN)
    if name == "enumerate":
        return EnumerateV(first)
    if name in ("len", "int", "float"):
        return NUMBER  # (`int(x)` is an int whatever x is, or raises)
    if name == "sum":
        return builtin_sum(node, args, kwargs)
    if name == "range":
        return SeqV(None, NUMBER)  # (its items are ints, whatever its arguments)
    if name == "zip":
        return ZipV(tuple(args))
    if name == "map" and len(args) == 2 and isinstance(first, FuncV) and isinstance(args[1], SeqV):
        return map_function(ev, node, first, args[1])
    if name == "dict" and not args and not any(key[:2] == "**" for key in kwargs):
        # `dict(prediction=out)`: the dict `{"prediction": out}` (its keys the keywords)
        return DictV(join_all(kwargs.values()) if kwargs else UNKNOWN, tuple(kwargs.items()))
    if name == "dict" and len(args) == 1 and not any(key[:2] == "**" for key in kwargs):
        if first.__class__ is ZipV and len(first.inner) == 2 and first.inner[1].__class__ is SeqV:
            return DictV(first.inner[1].element())  # `dict(zip(names, losses))`
        # `dict(batch)`, `dict(batch, labels=y)`: a copy, with the keywords stored over it
        return merged_mapping([(None, ev.stored_mapping(node.args[0], first))] + list(kwargs.items()))
    if name in ("list", "tuple", "sorted", "reversed"):
        if isinstance(first, SeqV):
            return SeqV(first.items if name in ("list", "tuple") else None, first.element())
        if isinstance(first, ItemsV):
            return SeqV(None, SeqV((UNKNOWN, first.inner)))
        if isinstance(first, ParamsV):
            return SeqV(None, first.element(node))
        return UNKNOWN
    if name not in PURE_BUILTINS:
        forget_moved_arguments(ev, node)
    return UNKNOWN


def _named_buffer_key(ev, name: ast.AST) -> str:
    """`self.register_buffer(pname, t)` then `getattr(self, pname)` (the same name expression, in the
    same loop): the tensor registered, as it was (a list filled so holds it, not the buffer `.to()`
    makes).  The key is no access path: it never leaves the frame as an attribute."""
    loops = ev.frame.loops
    return f"<buffer {id(loops[-1].node) if loops else 0} {ast.dump(name)}>"


class _FakeLoop:
    """`next(iter(loader))`: the call stands where a loop would (batches remember it)."""

    def __init__(self, node):
        self.iter = node
        self.target = None
        self.body = []

