"""Call semantics: torch/NumPy functions, tensor and module methods, builtins,
and functions and classes defined in the same file."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import torch_api as api
from .expressions import Conflict, parse_device_string
from .module_summaries import ProjectModuleV, foreign_result
from .values import (
    ACCEL_KIND, CPU, SELF_DEV, UNKNOWN, BatchV, ClassV, DatasetV, Dev, DeviceV, DictV, FuncV, LoaderV, ModuleV, NumpyV,
    ParamsV, PlacedV, QualV, SelfV, SeqV, TensorV, Value,
)

MODULE_SELF_METHODS = {"train", "eval", "requires_grad_", "half", "float", "double", "bfloat16", "share_memory", "apply",
                       "zero_grad_unused"}
PURE_BUILTINS = {"len", "isinstance", "issubclass", "print", "range", "int", "float", "str", "bool", "repr", "hasattr",
                 "getattr", "type", "id", "hash", "min", "max", "sum", "abs", "round", "format", "callable", "super",
                 "dict", "set", "frozenset", "open", "vars", "dir", "any", "all", "map", "filter"}

MAX_INLINE_DEPTH = 2  # calls followed into functions (in-file or another file's), nested
# Another file's function longer than this is not followed into (its result stays unknown): the
# helpers that move or create tensors are short, and following a 200-line mask builder costs more
# than the rest of the file.
FOREIGN_INLINE_MAX_LINES = 60


class EnumerateV(Value):
    __slots__ = ("inner",)

    def __init__(self, inner: Value) -> None:
        self.inner = inner

    def __eq__(self, other):
        return type(other) is type(self) and self.inner == other.inner

    def __hash__(self):
        return hash((type(self).__name__, self.inner))

    def join(self, other):
        return self if self == other else UNKNOWN


class ZipV(EnumerateV):
    """`zip(a, b, ...)`: `inner` is the tuple of iterables."""


class ItemsV(EnumerateV):
    """`d.items()`: `inner` is the value type."""


def dispatch_call(ev, node: ast.Call, recv: Optional[Value]) -> Value:
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
        eval_args(ev, node)
        return UNKNOWN
    if callee is UNKNOWN and isinstance(func, ast.Name):
        return call_builtin(ev, node, func.id)
    args, kwargs = eval_args(ev, node)
    invalidate_modules(ev, node)
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


def eval_args(ev, node: ast.Call) -> tuple[list, dict]:
    args = [ev.eval(a) for a in node.args]
    kwargs = {}
    for k in node.keywords:
        value = ev.eval(k.value)
        kwargs[k.arg if k.arg is not None else f"**{len(kwargs)}"] = value
    return args, kwargs


def invalidate_modules(ev, node: ast.Call) -> None:
    """An unknown callee may move a module it receives (`setup(model)`)."""
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


def kw_device(ev, node: ast.Call, kwargs: dict) -> tuple[bool, Optional[Dev]]:
    """(has a device= keyword, its device when known)."""
    if "device" not in kwargs:
        return False, None
    value = kwargs["device"]
    return True, value.dev if isinstance(value, DeviceV) else None


def default_device(ev) -> Dev:
    value = ev.frame.env.get("#default_device") or ev.module_value("#default_device")
    return value.dev if isinstance(value, DeviceV) else CPU


# -- torch / numpy functions ------------------------------------------------------
def call_qualified(ev, node: ast.Call, qual: str) -> Value:
    head, _, last = qual.rpartition(".")
    if qual in ("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm"):
        args, kwargs = eval_args(ev, node)
        return args[0] if args else UNKNOWN
    if head == "torch" and last in api.TORCH_FACTORIES or head == "torch" and last in api.LIKE_FACTORIES:
        return factory(ev, node, last)
    args, kwargs = eval_args(ev, node)
    ev.emit("call", node, qual, None, None, args, kwargs)
    if qual == "torch.device":
        return torch_device(node, args)
    if qual == "torch.from_numpy":
        arr = args[0] if args else UNKNOWN
        if isinstance(arr, NumpyV):
            return TensorV(CPU, origin=node, dtype=arr.dtype, rank=arr.rank)
        return TensorV(CPU, origin=node)
    if qual == "torch.set_default_device":
        if args and isinstance(args[0], DeviceV):
            ev.frame.env["#default_device"] = args[0]
        return UNKNOWN
    if qual in api.PARAMETER_CLASSES:
        t = args[0] if args else UNKNOWN
        return replace(t, grad=True, origin=node, factory=None) if isinstance(t, TensorV) else UNKNOWN
    if qual == "torch.compile":
        return args[0] if args and isinstance(args[0], (ModuleV, PlacedV)) else UNKNOWN
    if head in ("torch.utils.data", "torch.utils.data.dataloader") and last == "DataLoader":
        return data_loader(node, args, kwargs)
    if head in ("torch.utils.data", "torch.utils.data.dataset") and last == "TensorDataset":
        devs = {a.dev for a in args if isinstance(a, TensorV)}
        return DatasetV(devs.pop() if len(devs) == 1 else None)
    if api.is_torch_layer(qual):
        return layer(ev, node, last, args, kwargs)
    if qual.startswith("numpy."):
        return numpy_call(ev, node, qual, args, kwargs)
    if last == "from_pretrained" and ("Model" in head.rpartition(".")[2] or "For" in head.rpartition(".")[2]):
        return ModuleV(None if "device_map" in kwargs else CPU, True, None, None, known_class=False)
    if head.startswith("torchvision.datasets") and last[:1].isupper():
        return DatasetV(CPU)
    if head.startswith("torchvision.models") and last[:1].islower():
        return ModuleV(CPU, True, None, None, known_class=False)
    if head == "torch" or head in ("torch.nn.functional", "torch.linalg", "torch.special", "torch.fft"):
        if (head == "torch" and last in api.MIXING_FUNCTIONS) or (head == "torch.nn.functional" and last in api.MIXING_FUNCTIONAL):
            return mixing_call(ev, node, last, args, kwargs)
        first = next((a for a in args if isinstance(a, TensorV)), None)
        if first is not None:
            return TensorV(first.dev, origin=node, batch=first.batch, grad=first.grad)
        return UNKNOWN
    if not qual.startswith("torch.") and not qual.startswith("numpy."):
        invalidate_modules(ev, node)
    return UNKNOWN


def torch_device(node: ast.Call, args: list) -> Value:
    if not args:
        return UNKNOWN
    first = node.args[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        text = first.value
        if len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, int):
            text = f"{text}:{node.args[1].value}"
        dev = parse_device_string(text, node)
        return DeviceV(dev) if dev else UNKNOWN
    if isinstance(args[0], DeviceV):
        return args[0]
    return UNKNOWN


def factory(ev, node: ast.Call, name: str) -> Value:
    args, kwargs = eval_args(ev, node)
    ev.emit("call", node, "torch." + name, None, None, args, kwargs)
    has_kw, dev = kw_device(ev, node, kwargs)
    if name in api.LIKE_FACTORIES:
        src = args[0] if args else UNKNOWN
        if not has_kw:
            dev = src.dev if isinstance(src, TensorV) else None
        rank = src.rank if isinstance(src, TensorV) else None
        return TensorV(dev, origin=node, rank=rank, random=name in api.RANDOM_FACTORIES)
    if not has_kw:
        dev = default_device(ev)
    dtype = None
    if "dtype" in kwargs:
        dtype = dtype_of(node, "dtype")
    rank = factory_rank(node, name)
    if name in ("tensor", "as_tensor") and args:
        data, data_node = args[0], node.args[0]
        if isinstance(data, NumpyV):
            dtype = dtype or data.dtype
            rank = data.rank
        elif isinstance(data, TensorV):
            rank = data.rank
            if not has_kw:  # torch.tensor(t) / as_tensor(t) stay on t's device
                dev = data.dev
        elif not has_kw and not _literal_data(data_node) and not _host_sequence(data):
            dev = None  # maybe a tensor on any device: unknown
    return TensorV(dev, origin=node, rank=rank, dtype=dtype, factory=node, random=name in api.RANDOM_FACTORIES,
                   grad=_kw_true(node, "requires_grad"))


def factory_rank(node: ast.Call, name: str) -> Optional[int]:
    kind = api.TORCH_FACTORIES.get(name)
    args = node.args
    if kind == "args":
        if len(args) == 1 and isinstance(args[0], (ast.Tuple, ast.List)):
            return len(args[0].elts)
        if args and not any(isinstance(a, ast.Starred) for a in args):
            if len(args) == 1 and not isinstance(args[0], ast.Constant):
                return None  # torch.zeros(shape): a size object of unknown length
            return len(args)
        size = next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "first" and args and isinstance(args[0], (ast.Tuple, ast.List)):
        return len(args[0].elts)
    if kind == "randint":
        size = next((a for a in args if isinstance(a, (ast.Tuple, ast.List))), None)
        size = size or next((k.value for k in node.keywords if k.arg == "size"), None)
        return len(size.elts) if isinstance(size, (ast.Tuple, ast.List)) else None
    if kind == "rank1":
        return 1
    if kind == "rank2":
        return 2
    if kind == "rank0":
        return 0
    if kind == "data" and args:
        data = args[0]
        if isinstance(data, ast.Constant) and isinstance(data.value, (int, float, bool, complex)):
            return 0
        if isinstance(data, ast.UnaryOp) and isinstance(data.operand, ast.Constant):
            return 0
        if isinstance(data, (ast.List, ast.Tuple, ast.ListComp)):
            return 1
    return None


def _literal_data(node: ast.AST) -> bool:
    """Numbers, strings and (nested) lists/tuples of them: data that lives on the host."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _literal_data(node.operand)
    if isinstance(node, (ast.List, ast.Tuple)):
        return all(_literal_data(e) for e in node.elts)
    if isinstance(node, ast.ListComp):
        return True
    return False


def _host_sequence(value: Value) -> bool:
    """A list/tuple value holding no tensor that is off the CPU."""
    if not isinstance(value, SeqV):
        return False
    items = value.items if value.items is not None else (value.elem,)
    return all(not isinstance(v, TensorV) or (v.dev is not None and v.dev.is_cpu) for v in items)


def dtype_of(node: ast.Call, key: str) -> Optional[str]:
    for k in node.keywords:
        if k.arg == key and isinstance(k.value, ast.Attribute):
            return api.TORCH_DTYPES.get(k.value.attr) or api.NUMPY_DTYPES.get(k.value.attr)
    return None


def _kw_true(node: ast.Call, key: str) -> bool:
    return any(k.arg == key and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)


def data_loader(node: ast.Call, args: list, kwargs: dict) -> Value:
    pin = _kw_true(node, "pin_memory")
    dev: Optional[Dev] = CPU
    if "collate_fn" in kwargs or any(k.startswith("**") for k in kwargs):
        dev = None
    dataset = args[0] if args else kwargs.get("dataset", UNKNOWN)
    if isinstance(dataset, DatasetV):
        dev = dataset.dev if dev is not None else None
    return LoaderV(pin, dev, node)


def layer(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> Value:
    if name in api.UNKNOWN_DEVICE_WRAPPERS:
        return ModuleV(None, True, node)
    has_kw, dev = kw_device(ev, node, kwargs)
    if not has_kw:
        dev = default_device(ev)
    if name in api.CONTAINERS:
        children = [a for a in args if isinstance(a, ModuleV)]
        has_params = any(c.has_params for c in children) or len(children) < len(args) or not args
        child_devs = {c.dev for c in children}
        if len(children) == len(args) and len(child_devs) == 1 and args:
            dev = child_devs.pop()
        elif children and len(child_devs) > 1:
            dev = None
        return ModuleV(dev, has_params, node)
    if name in ("Parameter", "Buffer"):
        return UNKNOWN
    tensors = [v for v in list(args) + list(kwargs.values()) if isinstance(v, TensorV)]
    if tensors and not has_kw:  # e.g. CrossEntropyLoss(weight=t): its buffer is t
        devs = {t.dev for t in tensors}
        dev = devs.pop() if len(devs) == 1 else None
    elif not has_kw and any(v is UNKNOWN for v in list(args) + list(kwargs.values())) and name.endswith("Loss"):
        dev = None  # a loss weight of unknown device
    return ModuleV(dev, api.layer_has_params(name, node), node, torch_layer=True)


def mixing_call(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> Value:
    operands = []
    for value, arg in zip(args, node.args):
        if name in api.SEQUENCE_ARG_FUNCTIONS and isinstance(value, SeqV):
            elts = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg] * len(value.items or [value.elem])
            items = value.items if value.items is not None else [value.elem]
            operands.extend(zip(items, elts))
        else:
            operands.append((value, arg))
    for k in node.keywords:
        if k.arg in ("weight", "bias", "target", "other", "input", "mask", "running_mean", "running_var"):
            operands.append((kwargs[k.arg], k.value))
    return ev.combine(node, operands)


def numpy_call(ev, node: ast.Call, qual: str, args: list, kwargs: dict) -> Value:
    last = qual.rsplit(".", 1)[1]
    dtype = None
    for k in node.keywords:
        if k.arg == "dtype":
            attr = k.value.attr if isinstance(k.value, ast.Attribute) else getattr(k.value, "value", None)
            dtype = api.NUMPY_DTYPES.get(attr) if isinstance(attr, str) else None
            if dtype is None:
                return NumpyV(None)
    if qual.startswith("numpy.random.") and last in api.NUMPY_RANDOM_FLOAT64:
        rank = None
        if last in ("rand", "randn"):
            rank = len(node.args)
        else:
            size = next((k.value for k in node.keywords if k.arg == "size"), None)
            if isinstance(size, (ast.Tuple, ast.List)):
                rank = len(size.elts)
            elif isinstance(size, ast.Constant):
                rank = 1
        return NumpyV(dtype or "float64", rank)
    if qual == f"numpy.{last}" and last in api.NUMPY_FLOAT64_MAKERS:
        shape = node.args[0] if node.args else None
        rank = len(shape.elts) if isinstance(shape, (ast.Tuple, ast.List)) else (1 if isinstance(shape, ast.Constant) else None)
        return NumpyV(dtype or "float64", rank)
    if last in ("array", "asarray", "asanyarray", "ascontiguousarray"):
        data = args[0] if args else UNKNOWN
        if isinstance(data, TensorV):
            return NumpyV(dtype or data.dtype, data.rank)
        if node.args and isinstance(node.args[0], ast.List):
            return NumpyV(dtype or _literal_dtype(node.args[0]), 1)
        return NumpyV(dtype)
    return UNKNOWN


def _literal_dtype(node: ast.List) -> Optional[str]:
    kinds = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Constant):
            kinds.add(type(n.value))
    if float in kinds:
        return "float64"
    if kinds == {int}:
        return "int64"
    return None


# -- methods ---------------------------------------------------------------------
def call_method(ev, node: ast.Call, recv: Value, name: str) -> Value:
    if isinstance(recv, ModuleV):
        return module_method(ev, node, recv, name)
    if isinstance(recv, PlacedV) and name in ("to", "cuda", "cpu", "train", "eval", "parameters"):
        return module_method(ev, node, recv.as_module(), name, placed=True)
    if isinstance(recv, PlacedV):
        recv = recv.as_tensor()
    if isinstance(recv, (TensorV, BatchV)) or (recv is UNKNOWN and name in ("to", "cuda")):
        return tensor_method(ev, node, recv, name)
    if isinstance(recv, DictV) and name == "items":
        eval_args(ev, node)
        return ItemsV(recv.elem)
    if isinstance(recv, DictV) and name == "values":
        return SeqV(None, recv.elem)
    if isinstance(recv, NumpyV):
        args, kwargs = eval_args(ev, node)
        if name == "astype" and node.args:
            arg = node.args[0]
            attr = arg.attr if isinstance(arg, ast.Attribute) else getattr(arg, "value", None)
            return NumpyV(api.NUMPY_DTYPES.get(attr) if isinstance(attr, str) else None, recv.rank)
        if name in ("reshape", "transpose", "copy", "squeeze", "flatten", "ravel"):
            return NumpyV(recv.dtype)
        return UNKNOWN
    if isinstance(recv, ParamsV):
        eval_args(ev, node)
        return UNKNOWN
    args, kwargs = eval_args(ev, node)
    ev.emit("call", node, None, name, recv, args, kwargs)
    if not isinstance(recv, SelfV):
        invalidate_modules(ev, node)
    return UNKNOWN


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
        return True, Dev(ACCEL_KIND, "cuda", '"cuda"', node), None
    dtype = dtype_of(node, "dtype")
    target: Optional[Value] = kwargs.get("device")
    for arg_node, value in zip(node.args, args):
        if isinstance(value, (DeviceV, TensorV)) and target is None:
            target = value
        elif isinstance(arg_node, ast.Attribute) and arg_node.attr in api.TORCH_DTYPES:
            dtype = api.TORCH_DTYPES[arg_node.attr]
        elif value is UNKNOWN and target is None and not _looks_like_dtype(arg_node):
            target = UNKNOWN
    if target is None:
        return False, None, dtype
    if isinstance(target, DeviceV):
        return True, target.dev, dtype
    if isinstance(target, TensorV):
        return True, target.dev, dtype or target.dtype
    return True, None, dtype


def _looks_like_dtype(node: ast.AST) -> bool:
    text = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "dtype" in text.lower() or text in api.TORCH_DTYPES


def tensor_method(ev, node: ast.Call, recv: Value, name: str) -> Value:
    args, kwargs = eval_args(ev, node)
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
            if ev.bare_call is node:  # `thing.to(device)` as a statement: a module moved in place
                path = ev.path_of(recv_node)
                if path is not None:
                    ev.frame.env[path] = PlacedV(dev, node)
            return PlacedV(dev, node)
        if isinstance(recv, BatchV):
            return TensorV(dev, origin=node)
        return TensorV(dev, origin=node, rank=recv.rank, dtype=dtype or recv.dtype, grad=recv.grad)
    if isinstance(recv, BatchV):
        if name == "items":
            return ItemsV(recv.element(node))
        if name in ("values",):
            return SeqV(None, recv.element(node))
        recv = recv.element(recv_node)
    if not isinstance(recv, TensorV):
        return UNKNOWN
    if name in ("item", "tolist"):
        return UNKNOWN
    if name == "numpy":
        return NumpyV(recv.dtype, recv.rank)
    if name == "type_as":  # converts to the other tensor's type, device included
        other = args[0] if args else UNKNOWN
        if isinstance(other, TensorV):
            return TensorV(other.dev, origin=node, rank=recv.rank, dtype=other.dtype, grad=recv.grad)
        return TensorV(None, origin=node, rank=recv.rank)
    if name in api.NEW_METHODS:
        has_kw, dev = kw_device(ev, node, kwargs)
        return TensorV(dev if has_kw else recv.dev, origin=node)
    if name in api.MIXING_METHODS:
        operands = [(recv, recv_node)] + list(zip(args, node.args))
        result = ev.combine(node, operands)
        if name.endswith("_"):
            return recv
        return result
    if name in ("split", "chunk", "unbind", "tensor_split"):
        return SeqV(None, TensorV(recv.dev, origin=node, batch=batch, grad=recv.grad))
    if name in api.DTYPE_METHODS:
        return replace(recv, origin=node, factory=None, dtype=api.DTYPE_METHODS[name])
    if name in api.PRESERVING_METHODS:
        rank = 0 if name in api.REDUCTIONS and not node.args and not node.keywords else (recv.rank if name in ("clone", "detach", "contiguous", "abs", "exp", "log", "sqrt", "sigmoid", "tanh", "relu", "neg") else None)
        grad = recv.grad and name != "detach"
        if name.endswith("_") or name in ("requires_grad_",):
            return replace(recv, grad=True if name == "requires_grad_" else recv.grad)
        keep = recv.dev is not None and recv.dev.is_cpu
        return TensorV(recv.dev, origin=node, rank=rank, dtype=recv.dtype, grad=grad, batch=batch, module_output=recv.module_output,
                       factory=recv.factory if keep else None, random=recv.random and keep)
    return UNKNOWN


def module_method(ev, node: ast.Call, module: ModuleV, name: str, placed: bool = False) -> Value:
    if name in ("to", "cuda", "cpu"):
        args, kwargs = eval_args(ev, node)
        ev.emit("call", node, None, name, module, args, kwargs)
        moves, dev, _ = to_target(ev, node, name, args, kwargs)
        if not moves:
            return module
        moved = replace(module, dev=dev, placed_at=node)
        path = ev.path_of(node.func.value)
        if path is not None:  # Module.to() moves the module in place
            ev.frame.env[path] = PlacedV(dev, node) if placed and dev is not None else moved
        return moved
    args, kwargs = eval_args(ev, node)
    ev.emit("call", node, None, name, module, args, kwargs)
    if name == "parameters":
        return ParamsV(module.dev)
    if name == "forward":
        return module_call(ev, node, module, evaluated=(args, kwargs))
    if name in MODULE_SELF_METHODS:
        return module
    return UNKNOWN


def module_call(ev, node: ast.Call, module: ModuleV, evaluated=None) -> Value:
    args, kwargs = evaluated if evaluated is not None else eval_args(ev, node)
    arg_nodes = list(node.args) + [k.value for k in node.keywords]
    conflict = False
    if module.dev is not None and module.has_params:
        for value, arg in zip(list(args) + list(kwargs.values()), arg_nodes):
            for tensor in _tensors_in(value, arg):
                if tensor.dev is None or tensor.rank == 0:
                    continue
                if tensor.dev.is_cpu and not module.dev.is_cpu and (module.dev.kind == ACCEL_KIND or module.torch_layer):
                    # Every CPU input is an event (each factory is its own TP202);
                    # rules reporting at the call keep one finding per call.
                    ev.emit("conflict", Conflict(node, "module_input", tensor, arg, module, node.func, module.dev))
                    conflict = conflict or module.dev.kind == ACCEL_KIND
                    continue
                in_method = ev.frame.cls is not None and ev.frame.cls.is_module
                if module.dev.is_cpu and module.known_class and (tensor.dev.kind == ACCEL_KIND or (tensor.dev.kind == "self" and in_method and module.torch_layer)):
                    cpu_side = TensorV(CPU, origin=module.placed_at)
                    ev.emit("conflict", Conflict(node, "module_reverse", cpu_side, node.func, tensor, arg, tensor.dev))
                    conflict = True
                    break
    ev.emit("module_call", node, module, args, kwargs)
    if conflict:
        return UNKNOWN
    if module.dev is not None and module.dev.kind == "self" and not module.torch_layer:
        inlined = inline_forward(ev, node, module, args, kwargs)
        if inlined is not None:
            return inlined
    return TensorV(module.dev, origin=node, grad=ev.frame.no_grad == 0, module_output=True)


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
        frame = ev.analyze_function(forward, None, info, args=bound, depth=ev.frame.inline_depth + 1)
    finally:
        ev.inline_stack.discard(id(forward))
    result = frame.returns
    return result if result is not None else UNKNOWN


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
    return []


# -- builtins and in-file callables -----------------------------------------------
def call_builtin(ev, node: ast.Call, name: str) -> Value:
    args, kwargs = eval_args(ev, node)
    ev.emit("call", node, name, None, None, args, kwargs)
    first = args[0] if args else UNKNOWN
    if name == "next":
        if isinstance(first, ParamsV):
            return TensorV(first.dev, origin=node, grad=True)
        if isinstance(first, SeqV):
            return first.element()
        if isinstance(first, LoaderV):
            return ev.iteration_element(first, _FakeLoop(node))[0]
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
        invalidate_modules(ev, node)
    return UNKNOWN


class _FakeLoop:
    def __init__(self, node):
        self.iter = node
        self.target = None


def call_function(ev, node: ast.Call, func: FuncV) -> Value:
    args, kwargs = eval_args(ev, node)
    fnode = func.node
    if ev.frame.inline_depth >= MAX_INLINE_DEPTH or id(fnode) in ev.inline_stack or isinstance(fnode, ast.AsyncFunctionDef) \
            or _is_generator(fnode) or func.owner is not None \
            or (func.home is not None and fnode.end_lineno - fnode.lineno > FOREIGN_INLINE_MAX_LINES):
        invalidate_modules(ev, node)
        return UNKNOWN
    bound = bind_call(fnode, node, args, kwargs)
    if bound is None:
        invalidate_modules(ev, node)
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
            frame = ev.analyze_function(fnode, ev.module_env, None, args=bound, depth=ev.frame.inline_depth + 1)
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
    args, kwargs = eval_args(ev, node)
    info = cls.info
    if not info.is_module:
        invalidate_modules(ev, node)
        return UNKNOWN
    dev = None if info.moves_self else default_device(ev)
    return ModuleV(dev, info.has_params, node, info)
