"""Torch semantics, by method name: `Tensor.*` methods (moves with `.to()`,
`.cuda()`, `.cpu()`; ops that keep the device or combine tensors),
`nn.Module` methods (`.to()` moves a module in place), what calling a module
requires of its input, and methods of NumPy arrays.

Entry points: `tensor_method`, `module_method`, `module_input_conflicts` and
`numpy_method`, called from `calls.py`.
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import operators
from . import torch_api as api
from .cross_file import resolved
from .devices import ACCEL_KIND, CPU, CPU_KIND, RUNTIME, SELF_KIND, Dev, devices_conflict, mac_conflict
from .events import Conflict
from .ranks import FIXED_RANK, RETURN_FIELDS, SAME_RANK, floor, method_rank, tuple_value
from .state import follow_move, forget_aliases, held_values
from .torch_calls import dtype_of, kw_device
from .values import (
    NONE, NUMBER, IntV, Number, UNKNOWN, BatchV, DeviceV, DictV, FuncV, ItemsV, ModuleV, NumpyV, ParamsV, PlacedV, QualV, SeqV, TensorV, TextV, Value,
    join_members,
)

MODULE_SELF_METHODS = {"train", "eval", "requires_grad_", "half", "float", "double", "bfloat16", "share_memory", "apply",
                       "zero_grad_unused"}


def to_target(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> tuple[bool, Optional[Dev], Optional[str]]:
    """(moves between devices?, target device when known, new dtype)."""
    moves, dev, dtype = _to_target(ev, node, name, args, kwargs)
    if dev is not None and dev.kind == ACCEL_KIND:
        ev.targets_accelerator = True
    return moves, dev, dtype


def _to_target(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> tuple[bool, Optional[Dev], Optional[str]]:
    if name == "cpu":
        return True, CPU, None
    if name == "cuda":
        index = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "device"), None)
        if isinstance(index, ast.Constant) and isinstance(index.value, int):
            return True, Dev(ACCEL_KIND, f"cuda:{index.value}", f'"cuda:{index.value}"', node), None
        if args and isinstance(args[0], DeviceV):
            return True, args[0].dev, None
        if index is not None and not (isinstance(index, ast.Constant) and index.value is None):
            # `.cuda(gpu)`: cuda:<gpu>, an index chosen at run time when gpu is a number; some accelerator
            # otherwise (not the current device)
            label = RUNTIME if args and isinstance(args[0], Number) else "target"
            return True, Dev(ACCEL_KIND, label, ev.src.segment(index), node), None
        return True, Dev(ACCEL_KIND, "cuda", '"cuda"', node), None
    dtype = dtype_of(node, "dtype")
    target: Optional[Value] = kwargs.get("device")
    for arg_node, value in zip(node.args, args):
        if isinstance(value, (DeviceV, TensorV)) and target is None:
            target = value
        elif isinstance(arg_node, ast.Attribute) and arg_node.attr in api.TORCH_DTYPES:
            dtype = api.TORCH_DTYPES[arg_node.attr]
        elif (value is NUMBER or value.__class__ is IntV) and target is None and isinstance(arg_node, ast.Constant):
            target = DeviceV(Dev(ACCEL_KIND, f"cuda:{arg_node.value}", f'"cuda:{arg_node.value}"', node))  # x.to(0)
        elif (value is NUMBER or value.__class__ is IntV) and target is None and isinstance(arg_node, ast.Name):
            # `x.to(gpu)` with gpu a number: an int is a CUDA device index (aten's Device(int)), which
            # one is chosen at run time (no index is proven)
            target = DeviceV(Dev(ACCEL_KIND, RUNTIME, arg_node.id, node))
        elif (value is UNKNOWN or value is NUMBER or value.__class__ is IntV or value.__class__ is TextV or _opaque_name(value)) and target is None \
                and not api.looks_like_dtype(arg_node):
            target = UNKNOWN
    if target is None:
        return False, None, dtype
    if isinstance(target, DeviceV):
        return True, target.dev, dtype
    if isinstance(target, TensorV):
        return True, target.dev, dtype or target.dtype
    return True, None, dtype


def _opaque_name(value: Value) -> bool:
    """A name imported from a module the analysis did not read (`from constants import DEVICE`,
    a project module outside the checked file): `.to()` takes a device, a dtype or a tensor first
    (aten::to's overloads), so it may well be a device.  No name torch or NumPy defines is a
    device object (`tests/engine/test_false_errors_review.py` checks both against torch)."""
    return isinstance(value, QualV) and not value.name.startswith(("torch.", "numpy."))


def _typed(ev, node: ast.Call, recv: TensorV, args: list) -> Value:
    """`x.type()` names x's type (`'torch.cuda.FloatTensor'`); `x.type(t)` converts to the type t
    names, on the current CUDA device for a `torch.cuda.*` type and on the CPU for a `torch.*` one."""
    if not args:
        if recv.dev is not None and (recv.dev.is_cpu or recv.dev.label.startswith("cuda")):
            return QualV("torch.cuda.FloatTensor" if recv.dev.is_accel else "torch.FloatTensor")
        return UNKNOWN
    target = args[0]
    name = target.name if isinstance(target, QualV) else (node.args[0].value if node.args and isinstance(
        node.args[0], ast.Constant) and isinstance(node.args[0].value, str) else None)
    if name is None and not isinstance(target, QualV):
        # `x.type(Tensor)` with `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`:
        # a type of unknown device (a dtype would be known)
        return replace(recv, dev=None, origin=node, factory=None, batch=None)
    if name is None or not name.startswith("torch."):
        return replace(recv, origin=node, factory=None)  # a dtype: the device stays
    if name.startswith("torch.cuda."):
        ev.targets_accelerator = True
        return TensorV(Dev(ACCEL_KIND, "cuda", '"cuda"', node), origin=node, rank=recv.rank, grad=recv.grad)
    if name.rsplit(".", 1)[1].endswith("Tensor"):
        return TensorV(CPU, origin=node, rank=recv.rank, grad=recv.grad)
    return replace(recv, origin=node, factory=None)


_RANK_OF_ARGUMENT = frozenset({"expand_as", "view_as", "reshape_as"})  # (the argument's rank, not the receiver's)


def _handed_a_module(ev, recv_node: ast.AST) -> bool:
    """Is the unknown thing being moved the result of a call handed a module by a local name
    (`pipe_class(model, chunks=2).cuda()`)?  Such a call may return a wrapper of that module."""
    if recv_node.__class__ is not ast.Call:
        return False
    env = ev.frame.env
    return any(a.__class__ is ast.Name and env.get(a.id).__class__ is ModuleV
               for a in (*recv_node.args, *(k.value for k in recv_node.keywords)))


def tensor_method(ev, node: ast.Call, recv: Value, name: str) -> Value:
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, None, name, recv, args, kwargs)
    recv_node = node.func.value
    batch = recv.info if isinstance(recv, BatchV) else getattr(recv, "batch", None)
    if name in ("to", "cuda", "cpu"):
        moves, dev, dtype = to_target(ev, node, name, args, kwargs)
        if not moves:
            if isinstance(recv, TensorV):
                return replace(recv, origin=node, factory=None, dtype=dtype or recv.dtype)
            return recv
        ev.emit("transfer", node, recv, recv_node, dev, name)
        if recv is UNKNOWN:
            if dev is None:
                return UNKNOWN
            wrapper = _handed_a_module(ev, recv_node)
            if ev.bare_call is node:  # `thing.to(device)` as a statement: a module moved in place
                path = ev.path_of(recv_node)
                if path is not None:
                    ev.frame.env[path] = PlacedV(dev, node, wrapper)
            return PlacedV(dev, node, wrapper)
        if isinstance(recv, BatchV):
            return TensorV(dev, origin=node)
        return TensorV(dev, origin=node, rank=recv.rank, dtype=dtype or recv.dtype, grad=recv.grad, min_rank=recv.min_rank)
    if recv.__class__ is BatchV:
        if name == "items":
            return ItemsV(recv.element(node))
        if name in ("values",):
            return SeqV(None, recv.element(node))
        recv = recv.element(recv_node)
    if name == "type" and isinstance(recv, TensorV):  # also a batch: `imgs.type(torch.cuda.FloatTensor)`
        return _typed(ev, node, recv, args)
    if not isinstance(recv, TensorV):
        return UNKNOWN
    if name in ("item", "tolist"):
        return UNKNOWN
    if name == "numpy":
        return NumpyV(recv.dtype, recv.rank)
    if name == "type_as":  # converts to the other tensor's type, device included
        other = args[0] if args else UNKNOWN
        if isinstance(other, TensorV) and other.dev is not None and other.dev == recv.dev and recv.dev.is_cpu:
            # (on the CPU already, as `fake.type_as(fake)`: still the tensor made where it was made)
            return replace(recv, origin=node, dtype=other.dtype)
        if isinstance(other, TensorV):
            return TensorV(other.dev, origin=node, rank=recv.rank, dtype=other.dtype, grad=recv.grad)
        return TensorV(None, origin=node, rank=recv.rank)
    method = operators.lookup_method(name)
    bound = operators.bind(method, node, args, kwargs, receiver=(recv, recv_node)) if method is not None else None
    if bound is not None:
        overload, operands = bound
        if overload.result == "like":  # new_zeros, new_tensor ...: on self's device unless device=
            has_kw, dev = kw_device(ev, node, kwargs)
            return TensorV(dev if has_kw else recv.dev, origin=node)
        if overload.result == "inputs" and any(f != "self" for f in overload.follows):
            out = operators.tensor_result(ev, node, overload, operands)  # x.add(y): their common device
            if name in FIXED_RANK and isinstance(out, TensorV):  # x.bmm(y): 3-D, as its operands must be
                out = replace(out, rank=FIXED_RANK[name], min_rank=FIXED_RANK[name])
            elif name in SAME_RANK and out.__class__ is TensorV and out.rank is None and floor(recv) > out.min_rank \
                    and name not in _RANK_OF_ARGUMENT:  # x.masked_fill(m, v), x.mul(y): broadcast, never fewer dims than x
                out = replace(out, min_rank=floor(recv))
            return out
        if operators.check(ev, node, operands):
            return UNKNOWN
        if overload.result == "receiver":  # in-place ops never move the receiver
            return recv
        if overload.result == "none":
            return UNKNOWN
    if name in RETURN_FIELDS:  # `values, idx = x.topk(k)`, `x.max(1)`, `x.split(n)`: a tuple of tensors
        out = tuple_value(name, recv if batch is recv.batch else replace(recv, batch=batch), node, args, 0, recv.dev)
        if out is not None:
            return out
    if name in api.DTYPE_METHODS:
        return replace(recv, origin=node, factory=None, dtype=api.DTYPE_METHODS[name])
    if name in api.PRESERVING_METHODS or bound is not None and bound[0].result == "inputs":
        if name in api.REDUCTIONS and not node.args and not node.keywords:
            rank, least = 0, 0
        else:
            rank, least = method_rank(name, recv, node, args)
        grad = recv.grad and name != "detach"
        if name.endswith("_") or name in ("requires_grad_",):
            return replace(recv, grad=True if name == "requires_grad_" else recv.grad)
        keep = recv.dev is not None and recv.dev.is_cpu
        # (a plain attribute's tensor, reshaped or mapped element-wise and never to fewer dimensions, is still
        # what `.to()` left behind: `self.noise.clamp(...)`, `self.weight.unsqueeze(0)`)
        plain = recv.plain_attr if keep and (name in SAME_RANK or name == "unsqueeze") else None
        # (what a model returns may be a tuple or a mapping; a method only tensors have proves it was one)
        output = recv.module_output and name in _ALSO_ON_OTHER_OUTPUTS
        return TensorV(recv.dev, origin=node, rank=rank, dtype=recv.dtype, grad=grad, batch=batch, module_output=output,
                       factory=recv.factory if keep else None, random=recv.random and keep, plain_attr=plain, min_rank=least)
    return UNKNOWN


# Tensor methods that other things a module may return also have (PackedSequence, torch_geometric's Data):
# their result is whatever the receiver was, so it is still "a model's output" (maybe no tensor).
_ALSO_ON_OTHER_OUTPUTS = frozenset({"clone", "detach", "contiguous", "pin_memory", "requires_grad_"})


def module_method(ev, node: ast.Call, module: ModuleV, name: str, placed: bool = False) -> Value:
    if name in ("to", "cuda", "cpu"):
        args, kwargs = ev.eval_args(node)
        ev.emit("call", node, None, name, module, args, kwargs)
        moves, dev, _ = to_target(ev, node, name, args, kwargs)
        if not moves:
            return module
        moved = replace(module, dev=dev, placed_at=node)
        receiver = node.func.value
        while receiver.__class__ is ast.Call and receiver.func.__class__ is ast.Attribute \
                and receiver.func.attr in _RETURN_SELF:  # `model.eval().cuda()`: `eval()` returned `model`
            receiver = receiver.func.value
        path = ev.path_of(receiver)
        if path is not None:  # Module.to() moves the module in place
            env = ev.frame.env
            # (`m = model; m.cuda()`: what `model` names moved too, and the modules it was made of)
            made = module.placed_at
            owner = env.get(path.rpartition(".")[0]) if "." in path else None
            if owner.__class__ is ModuleV and owner.placed_at is made:
                made = None  # (a submodule read from its owner, `m.model`: no module made with the owner moves)
            forget_aliases(env, [module] + _made_of(ev, made) + _wrapped(module), path, made)
            env[path] = PlacedV(dev, node) if placed and dev is not None else moved
            prefix = path + "."
            for key in [k for k, v in env.items() if isinstance(v, ModuleV) and k.startswith(prefix)]:
                env[key] = replace(env[key], dev=dev, placed_at=node)  # its submodules moved with it
            follow_move(ev, path, dev, node)  # its parameters, not the state an optimizer loaded for them
        elif node.func.value.__class__ is ast.Subscript:
            container = ev.path_of(node.func.value.value)
            if container is not None:  # `models[k].to(device)`: one of its modules moved, which one is not known
                env = ev.frame.env
                forget_aliases(env, held_values(env.get(container, UNKNOWN)), container)
                env[container] = UNKNOWN
                ev.frame.released.add(container)
        else:  # a module a call gave (`next(iter(models)).cuda()`): the names holding it
            forget_aliases(ev.frame.env, [module])
        return moved
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, None, name, module, args, kwargs)
    if name in ("parameters", "buffers"):
        return ParamsV(module.dev, name == "parameters", ev.path_of(node.func.value), ev.frame.func)
    if name in ("named_parameters", "named_buffers"):
        return ItemsV(TensorV(module.dev, origin=node, grad=name == "named_parameters"))
    if name == "state_dict" and not args and not kwargs:
        return DictV(TensorV(module.dev, origin=node))  # parameters and buffers, where the module is
    if name == "append" and module.layer == "ModuleList" and module.items is not None:
        path = ev.path_of(node.func.value)
        if path is not None:  # `layers.append(block)`: what it holds joins block
            added = args[0] if len(args) == 1 and not kwargs and isinstance(args[0], ModuleV) else None
            items = join_members(module.items, added)
            ev.frame.env[path] = replace(module, items=items if isinstance(items, (ModuleV, SeqV)) else None)
        return NONE
    if name in MODULE_SELF_METHODS:
        return module
    if module.dev is not None and module.dev.is_cpu and module.known_class and module.cls is None \
            and not module.torch_layer and name not in _KEEPS_PLACE:
        # a library model left on the CPU (`from_pretrained`) and one of its own methods (transformers'
        # `model.parallelize()` spreads it over the GPUs): where it is afterwards is not known
        path = ev.path_of(node.func.value)
        if path is not None:
            ev.frame.env[path] = replace(module, dev=None, placed_at=None)
    return UNKNOWN


_RETURN_SELF = frozenset(MODULE_SELF_METHODS) | {"to", "cuda", "cpu"}  # nn.Module methods that return the module


def _made_of(ev, made) -> list:
    """The values of the names a module was made of (`Head(encoder)`, `nn.Sequential(a, b)`,
    `nn.ModuleList([a, b])`, `nn.DataParallel(net)`): its submodules, which move with it."""
    if made.__class__ is not ast.Call or not made.args and not made.keywords or getattr(made, "_tp_copy", False):
        return []  # (a deep copy holds copies of its argument's modules, not them)
    env = ev.frame.env
    out = []
    for arg in made.args + [k.value for k in made.keywords]:
        for part in arg.elts if arg.__class__ in (ast.List, ast.Tuple) else (arg,):
            path = ev.path_of(part.value if part.__class__ is ast.Starred else part)
            if path is not None and path in env:
                out.append(env[path])
    return out


def _wrapped(module: ModuleV) -> list:
    """The modules a wrapper holds (`DataParallel(DataParallel(m))`: both): `.to()` of the wrapper moves
    them in place, also where the wrapper was bound to their name (`self.m = DataParallel(self.m)`), which
    `_made_of` can no longer read."""
    out = []
    inner = module.wraps
    while inner.__class__ is ModuleV and len(out) < 4:
        out.append(inner)
        inner = inner.wraps
    return out


# nn.Module methods that leave the parameters where they are
_KEEPS_PLACE = frozenset({"load_state_dict", "zero_grad", "modules", "named_modules", "children", "named_children",
                          "register_buffer", "register_parameter", "register_forward_hook", "register_forward_pre_hook",
                          "register_full_backward_hook", "forward", "extra_repr", "get_submodule", "get_parameter"})


def buffers_only(module: "ModuleV", ev=None) -> bool:
    """A module class of the project whose only state is buffers, which its `forward` moves where it
    uses them (`self.w.to(x)`: MONAI's losses), or hands to a function or method that moves them
    (`filter2d(x, self.kernel)` doing `kernel.to(x.device)`: kornia's filters; found with `ev`): the call
    is no evidence, `forward` is followed and decides (a buffer it uses unmoved still makes the call a
    TP102)."""
    info = module.cls
    if info is None or module.torch_layer or not info.buffers or info.params or any(info.submodules.values()):
        return False
    known = info.__dict__.get("_tp_forward_moves_buffer")  # (the class's `forward` is read once)
    if known is None:
        forward = info.methods.get("forward")
        known = info._tp_forward_moves_buffer = forward is not None and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _BUFFER_MOVES
            and _own_buffer(n.func.value, info) for n in ast.walk(forward))
    if known or ev is None:
        return known
    handed = info.__dict__.get("_tp_forward_hands_buffer_to_a_move")
    if handed is None:
        forward = info.methods.get("forward")
        handed = info._tp_forward_hands_buffer_to_a_move = forward is not None and any(
            _moved_by_callee(ev, n, info) for n in ast.walk(forward) if n.__class__ is ast.Call)
    return handed


def _own_buffer(node: ast.AST, info) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in info.buffers and isinstance(node.value, ast.Name) \
        and node.value.id == "self"


def _moved_by_callee(ev, call: ast.Call, info) -> bool:
    """`f(..., self.buf, ...)` or `self.m(..., self.buf, ...)` where the function or method moves the
    parameter the buffer binds (`p.to(...)`, `p.flip(-1)[None].to(device=x.device)`, `.cuda()`, `.type_as()`),
    or where `f` is a name bound to what the analysis cannot read (an import resolved no deeper than the
    cross-file depth): what it does with the buffer is unknown, so the call is no evidence either."""
    callee, skip = None, 0
    func = call.func
    if func.__class__ is ast.Name:
        env = info.home.env if info.home is not None else ev.own_env
        value = resolved(ev, env.get(func.id)) if env is not None else None
        if value is UNKNOWN:
            return any(_own_buffer(a, info) for a in call.args) or any(_own_buffer(k.value, info) for k in call.keywords)
        if value.__class__ is FuncV and value.owner is None and isinstance(value.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            callee = value.node
    elif func.__class__ is ast.Attribute and func.value.__class__ is ast.Name and func.value.id == "self":
        callee = info.methods.get(func.attr)
        skip = 0 if callee is None or any(isinstance(d, ast.Name) and d.id == "staticmethod"
                                          for d in callee.decorator_list) else 1
    if callee is None:
        return False
    positional = [a.arg for a in callee.args.posonlyargs + callee.args.args][skip:]
    params = [positional[i] for i, a in enumerate(call.args) if i < len(positional) and _own_buffer(a, info)]
    params += [k.arg for k in call.keywords if k.arg is not None and _own_buffer(k.value, info)]
    return bool(params) and any(
        n.__class__ is ast.Call and n.func.__class__ is ast.Attribute and n.func.attr in _BUFFER_MOVES
        and _root_name(n.func.value) in params for n in ast.walk(callee))


def _root_name(node: ast.AST) -> Optional[str]:
    """The name a chain of methods, indexing and attributes starts from (`k.flip(0)[:, None]` -> `k`)."""
    while node.__class__ in (ast.Subscript, ast.Call, ast.Attribute):
        node = node.value if node.__class__ is not ast.Call else node.func
    return node.id if node.__class__ is ast.Name else None


_BUFFER_MOVES = frozenset({"to", "cuda", "type_as"})


def module_input_conflicts(ev, node: ast.Call, module: ModuleV, args: list, kwargs: dict) -> bool:
    """Emit a conflict for each input of `module(...)` on another device than its
    parameters, and between the inputs of a loss; True when the call would raise (its
    result is then unknown)."""
    arg_nodes = list(node.args) + [k.value for k in node.keywords]
    if module.layer in api.UNKNOWN_DEVICE_WRAPPERS:
        return False  # it moves its inputs to the devices of the module it wraps
    if module.torch_layer and module.loss and not module.has_params:
        # A loss runs where its inputs are, and they must agree (`criterion(output, target)`).
        if ev.check_operands(node, [(v, n) for v, n in zip(list(args) + list(kwargs.values()), arg_nodes)]):
            return True
    conflict = False
    on_cpu = module.dev is not None and module.dev.kind == SELF_KIND and ev.frame.self_dev is not None \
        and ev.frame.self_dev.is_cpu and ev.instance_on_cpu()
    if on_cpu:  # a layer of an instance this call context has on the CPU: its input on "the module's device" is there too
        module = replace(module, dev=ev.frame.self_dev)
    host = module.cls.host_inputs() if module.cls is not None and not module.torch_layer else ()
    host = (*host, *_forwarded_extras(ev, node, module, kwargs))
    keys = list(range(len(args))) + list(kwargs)
    if module.dev is not None and module.has_params and not buffers_only(module, ev):
        for key, value, arg in zip(keys, list(args) + list(kwargs.values()), arg_nodes):
            if key in host or (host and isinstance(arg, ast.Starred)):
                continue  # forward reads it on the host (lengths) or moves it itself
            if not module.known_class and isinstance(value, DictV):
                continue  # an object of unknown kind reads a mapping itself (a pipeline's `{"waveform": w}`,
                #           a detector's batch dict) and may move what it takes from it
            for tensor in _tensors_in(value, arg):
                if tensor.dev is None or tensor.rank == 0 or on_cpu and tensor.dev.kind == SELF_KIND:
                    continue
                if tensor.dev.kind == SELF_KIND and ev.frame.self_dev is not None and (
                        module.dev.kind == ACCEL_KIND and ev.frame.self_dev.is_cpu
                        or module.dev.is_cpu and ev.frame.self_dev.kind == ACCEL_KIND):
                    # on "the module's device", which this context knows is the CPU (a submodule the caller
                    # placed on the accelerator apart from the instance: `m.model.to("cuda"); m.run(x)`), or
                    # the accelerator (layers a plain object holds, which `model.to("cuda")` left on the CPU)
                    tensor = replace(tensor, dev=ev.frame.self_dev)
                if tensor.dev.is_cpu and not module.dev.is_cpu and (module.dev.kind == ACCEL_KIND or module.torch_layer
                                                                    or runs_torch_layers_only(module)):
                    # Every CPU input is an event (each factory is its own TP202);
                    # rules reporting at the call keep one finding per call.
                    ev.emit("conflict", Conflict(node, "module_input", tensor, arg, module, node.func, module.dev))
                    conflict = conflict or module.dev.kind == ACCEL_KIND
                    continue
                if tensor.dev.kind == ACCEL_KIND and module.dev.kind != CPU_KIND \
                        and accel_input_conflict(ev, node, module, tensor, arg):
                    conflict = True
                    break  # (one finding per call)
                if (tensor.dev.mac is not None or module.dev.mac is not None) and tensor.dev.kind == ACCEL_KIND \
                        and module.dev.kind == ACCEL_KIND and mac_conflict(tensor.dev, module.dev):
                    # the same accelerator on a CUDA machine; on one with MPS and no CUDA one is the CPU
                    ev.emit("conflict", Conflict(node, "module_mac", tensor, arg, module, node.func, module.dev))
                    break
                # (an input on "the module's device" meets a layer made on the CPU in a method only where
                # this call context placed the module: unmoved, both are on the CPU and the call runs)
                if module.dev.is_cpu and module.known_class and tensor.dev.kind == ACCEL_KIND:
                    cpu_side = TensorV(CPU, origin=module.placed_at)
                    ev.emit("conflict", Conflict(node, "module_reverse", cpu_side, node.func, tensor, arg, tensor.dev))
                    conflict = True
                    break
    return conflict


def _forwarded_extras(ev, node: ast.Call, module: ModuleV, kwargs: dict) -> tuple:
    """`model(images, **kwargs)` in a function taking `**kwargs`, the model of unknown kind (an object
    `.to()`-ed and called): what the function's own keyword extras bring are options next to the
    input, which that `forward` may take and ignore (`forward(self, x, **kwargs)`): no evidence.
    Their keys in `kwargs`; () where the call has no positional input or other `**` mappings."""
    if module.known_class or not node.args or any(a.__class__ is ast.Starred for a in node.args):
        return ()
    extra = getattr(getattr(ev.frame.func, "args", None), "kwarg", None)
    stars = [k.value for k in node.keywords if k.arg is None]
    if extra is None or len(stars) != 1 or stars[0].__class__ is not ast.Name or stars[0].id != extra.arg:
        return ()
    named = {k.arg for k in node.keywords if k.arg is not None}
    return tuple(key for key in kwargs if key not in named)


def accel_input_conflict(ev, node: ast.Call, module: ModuleV, tensor: TensorV, arg) -> bool:
    """An input on one accelerator into a module on another of known index (`model.to("cuda:1")`
    called with `x.cuda()`, cuda:0 where the program never picks the current device): the call
    raises "Expected all tensors to be on the same device".  The module's device is the one this
    call context placed the instance on where it is "the module's device" (`self.encoder(x)` in a
    method of a model moved to cuda:1).  (An index chosen at run time against a known one is not
    reported here: a parameter bound to a literal int reads as such an index.)  Only a module of
    known class: an object of unknown kind moved with `.cuda(i)` may move its inputs itself
    (`DataParallel` scatters them from any device, a pipeline moves them to its own), and a batch
    object's own `.cuda()` need not go where a tensor's does."""
    if not module.known_class:
        return False
    dev = module.dev
    if dev.kind == SELF_KIND:
        dev = ev.frame.self_dev
        if dev is None or dev.kind != ACCEL_KIND:
            return False
    elif dev.kind != ACCEL_KIND:
        return False
    zero = ev.current_cuda_is_zero and not ev.named_where_current_is_picked(dev, tensor.dev)
    if not devices_conflict(dev, tensor.dev, zero):
        return False
    ev.emit("conflict", Conflict(node, "module_device", tensor, arg, module, node.func, dev))
    return True


def runs_torch_layers_only(module: ModuleV) -> bool:
    """An `nn.Sequential` whose members are all torch.nn layers: its forward runs them in turn and
    none moves its input, so an input on another device meets the first member holding parameters
    (a project module among them may move it: not known)."""
    if module.layer != "Sequential" or not module.has_params:
        return False
    items = module.items
    members = items.items if items.__class__ is SeqV else (items,) if items.__class__ is ModuleV else None
    return bool(members) and all(m.__class__ is ModuleV and m.torch_layer and m.cls is None and m.known_class
                                 and m.layer not in api.UNKNOWN_DEVICE_WRAPPERS for m in members)


def setitem_conflicts(ev, target: ast.Subscript, base: TensorV, index: Value, value: Value, value_node) -> bool:
    """`x[key] = value` with an advanced key (a tensor or list of indices, a mask) runs `index_put_`:
    indices on any device (make_info moves them to x's; only a read checks them), a 0-dim value on
    any device, any other value on x's device (the table's `Tensor.__setitem__`).  A basic key (ints, slices, `...`, None) runs `copy_` into a
    view of x (`at::indexing::set_item`/`copy_to` in ATen/TensorIndexing.h), and `copy_` copies
    across devices: nothing to check.  A key not known to be advanced proves no mismatch."""
    method = operators.lookup_method("__setitem__")
    overload = method.overloads[0] if method is not None else None
    if overload is None or value_node is None or not _advanced_key(target.slice, index):
        return False
    operands = [operators.Operand(overload.param("self"), base, target.value)]
    operands += operators.operands_of(overload.param("indices"), index, target.slice)
    operands += operators.operands_of(overload.param("value"), value, value_node)
    return operators.check(ev, target, operands)


def _advanced_key(key: ast.AST, value: Value) -> bool:
    """Is `x[key]` surely advanced indexing?  A tensor index of rank >= 1 (or a batch of them), a
    mask, a list of indices, a loader batch or a Python bool make it so; a 0-dim integer tensor is read as an int
    (a select), and a name of unknown kind may be an int."""
    parts, values = (key,), (value,)
    if isinstance(key, ast.Tuple):  # x[i, :, idx]: the tuple's items, as the subscript evaluated them
        parts = key.elts
        values = value.items if isinstance(value, SeqV) and value.items is not None and len(value.items) == len(parts) \
            else (UNKNOWN,) * len(parts)
    for part, part_value in zip(parts, values):
        if isinstance(part, (ast.List, ast.ListComp)) or (isinstance(part, ast.Constant) and isinstance(part.value, bool)):
            return True
        if isinstance(part_value, (BatchV, SeqV)):
            return True
        if isinstance(part_value, TensorV) and (part_value.rank not in (0, None) or part_value.dtype == "bool"
                                                or part_value.batch is not None):  # a collated batch has a batch dim
            return True
    return False


def stateless_module_output(ev, node: ast.Call, args: list) -> Value:
    """A torch layer without parameters or buffers (a loss without weights, pooling, an
    activation) runs wherever its input is: its output is on its inputs' device."""
    tensors = [t for value, arg in zip(args, node.args) for t in _tensors_in(value, arg)]
    return TensorV(operators.common_device(tensors), origin=node, grad=ev.frame.no_grad == 0, module_output=True)


def _tensors_in(value: Value, node) -> list:
    if isinstance(value, TensorV):
        return [value]
    if isinstance(value, BatchV):
        return [value.element(node)]
    if isinstance(value, PlacedV):  # an object moved with `.to(dev)` (a graph batch): its tensors are on dev
        return [value.as_tensor()]
    if isinstance(value, DictV) and isinstance(value.elem, TensorV):
        return [value.elem]
    if isinstance(value, SeqV) and value.items is not None:
        return [v for v in value.items if isinstance(v, TensorV)]
    if isinstance(value, SeqV) and isinstance(node, ast.Starred) and isinstance(value.elem, TensorV):
        return [value.elem]  # `model(*inputs)`: each input is an item of the list
    return []


def numpy_method(ev, node: ast.Call, recv: NumpyV, name: str) -> Value:
    """`arr.astype(np.float32)`, `arr.reshape(...)`: NumPy arrays keep (or set) their dtype."""
    args, kwargs = ev.eval_args(node)
    if name == "astype" and node.args:
        arg = node.args[0]
        attr = arg.attr if isinstance(arg, ast.Attribute) else getattr(arg, "value", None)
        return NumpyV(api.NUMPY_DTYPES.get(attr) if isinstance(attr, str) else None, recv.rank)
    if name in ("reshape", "transpose", "copy", "squeeze", "flatten", "ravel"):
        return NumpyV(recv.dtype)
    return UNKNOWN
