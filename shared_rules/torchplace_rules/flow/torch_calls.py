"""Torch semantics, by qualified name: what `torch.*`, `torch.nn.functional.*`,
`torch.nn` layer classes, `DataLoader`/datasets and NumPy functions return,
and where their tensor arguments meet.  PyTorch's operators are read from the
table generated from torch (`operators.py`); the hand tables left are in
`torch_api.py`; methods of tensors and modules are in `torch_methods.py`.

Entry point: `call_qualified(ev, node, qual)` for a call of the torch/NumPy
object named `qual` (`"torch.zeros"`, `"torch.nn.Linear"`, `"numpy.asarray"`).
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import operators
from . import torch_api as api
from .autograd_results import AUTOGRAD_RESULTS, autograd_result
from .devices import ACCEL_KIND, CPU, RUNTIME, Dev, parse_device_string
from .pretrained_classes import is_encoder_class, is_model_class
from .ranks import FIXED_RANK, RETURN_FIELDS, SAME_RANK, einops_rank, factory_rank, floor, size_object, tuple_value
from .state import forget_moved_arguments
from .optimizers import make_optimizer, optimizer_class
from .torchvision_transforms import transform_call
from .default_device import check_random_split, is_tensor_type_default, tensor_type_default
from .distributions import OF_NUMBERS_ON_CPU, distribution, distribution_method, is_distribution
from .values import ACCELERATOR_AVAILABLE, AVAILABLE_BUT_NOT_ON_A_MAC, AVAILABLE_ON_A_MAC, NONE, Number, EncodingV, QualV, UNKNOWN, BatchV, DatasetV, DeviceV, LoaderV, ModuleV, NumpyV, ObjectV, PlacedV, SeqV, TensorV, Value, map_leaves

def kw_device(ev, node: ast.Call, kwargs: dict) -> tuple[bool, Optional[Dev]]:
    """(has a device= keyword, its device when known).  `device=None` is no device: the default,
    or the source tensor's device for `zeros_like` / `x.new_zeros`."""
    value = kwargs.get("device")
    if value is None or value is NONE:
        return False, None
    return True, value.dev if isinstance(value, DeviceV) else None


def default_device(ev) -> Optional[Dev]:
    """Where a factory without `device=` creates tensors: `torch.set_default_device` / `with torch.device(...)`
    (None: set to a device not known, or set on some paths only)."""
    value = _default_setting(ev)
    if value is None:
        return CPU
    return value.dev if isinstance(value, DeviceV) else None


def _default_setting(ev) -> Optional[Value]:
    """What the code last made the default device (a DeviceV, UNKNOWN), None where it set none."""
    return ev.frame.env.get("#default_device") or ev.module_value("#default_device")


# The legacy typed constructors: `torch.FloatTensor(...)` is on the CPU, `torch.cuda.FloatTensor(...)`
# on the current CUDA device.  They take no device= (a fix cannot add one).
LEGACY_TENSOR_TYPES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16",
                       "BFloat16Tensor": "bfloat16", "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16",
                       "CharTensor": "int8", "ByteTensor": "uint8", "BoolTensor": "bool", "Tensor": "float32"}


def legacy_tensor(ev, node: ast.Call, head: str, last: str, args: list) -> Value:
    if head == "torch.cuda":
        ev.targets_accelerator = True
        return TensorV(Dev(ACCEL_KIND, "cuda", '"cuda"', node), origin=node, dtype=LEGACY_TENSOR_TYPES[last])
    if last == "Tensor":
        # `torch.Tensor` is the default tensor type: `set_default_tensor_type(torch.cuda.FloatTensor)` makes it
        # a CUDA type (`set_default_device` does not: torch.Tensor stays on the CPU, checked with torch 2.13)
        setting = _default_setting(ev)
        if isinstance(setting, DeviceV):
            if is_tensor_type_default(setting.dev):
                return TensorV(setting.dev, origin=node, dtype="float32")
        elif setting is not None:
            return UNKNOWN  # (a default set to a device not known here)
    # a CPU tensor the code made here (a factory for TP202; it takes no device=, so no fix adds one)
    return TensorV(CPU, origin=node, dtype=LEGACY_TENSOR_TYPES[last], rank=_legacy_rank(node, args), factory=node)


def _legacy_rank(node: ast.Call, args: list) -> int | None:
    """The rank of `torch.FloatTensor(...)`: sizes (`(n)`, `(n, m)`: one dimension each) or a sequence's
    data give a known rank; one array or tensor (which may be 0-dim) or an unknown value does not.  An
    empty `torch.Tensor()` (1-dim) is left unknown: a placeholder, mostly re-bound before it meets anything
    (MONAI's PNDMScheduler `cur_model_output`)."""
    if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
        return None
    if len(node.args) != 1:
        return len(node.args) or None
    data = args[0] if args else None
    return 1 if isinstance(data, Number) or isinstance(data, SeqV) or isinstance(node.args[0], (ast.List, ast.Tuple)) else None


# einops' rearrange/repeat/reduce of one tensor run torch's own reshape, permute, expand and
# reductions on it (einops/_backends.py, TorchBackend): the result is on the input's device
_EINOPS_RESHAPES = frozenset({"einops.rearrange", "einops.repeat", "einops.reduce"})


def call_qualified(ev, node: ast.Call, qual: str) -> Value:
    """The value of a call of the torch/NumPy (or other library) object `qual`."""
    head, _, last = qual.rpartition(".")
    if qual in ("tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm"):
        args, kwargs = ev.eval_args(node)
        return args[0] if args else UNKNOWN
    args, kwargs = ev.eval_args(node)
    ev.emit("call", node, qual, None, None, args, kwargs)
    if qual == "torch.device":
        return torch_device(node, args)
    if qual in api.CUDA_AVAILABILITY:
        mac = api.MAC_ANSWERS.get(qual)
        return ACCELERATOR_AVAILABLE if mac is None else AVAILABLE_ON_A_MAC if mac else AVAILABLE_BUT_NOT_ON_A_MAC
    if head in ("torch", "torch.cuda") and last in LEGACY_TENSOR_TYPES:
        return legacy_tensor(ev, node, head, last, args)
    if qual in ("torch.autograd.Variable", "torch.autograd.variable.Variable"):
        return args[0] if args and isinstance(args[0], (TensorV, BatchV)) else UNKNOWN  # Variable(x) is x
    if qual == "torch.from_numpy":
        arr = args[0] if args else UNKNOWN
        if isinstance(arr, NumpyV):
            return TensorV(CPU, origin=node, dtype=arr.dtype, rank=arr.rank)
        return TensorV(CPU, origin=node)
    if qual == "torch.set_default_device":
        # a device not known here makes the default unknown (`set_default_device(device)`, `device` a parameter)
        ev.frame.env["#default_device"] = args[0] if args and isinstance(args[0], DeviceV) else UNKNOWN
        return UNKNOWN
    if qual == "torch.set_default_tensor_type":
        ev.frame.env["#default_device"] = tensor_type_default(ev, node, args)
        return UNKNOWN
    if last == "random_split":
        check_random_split(ev, node, qual, kwargs, default_device(ev))
    if qual in api.PARAMETER_CLASSES:
        t = args[0] if args else UNKNOWN
        return replace(t, grad=True, origin=node, factory=None) if isinstance(t, TensorV) else UNKNOWN
    if qual in ("copy.deepcopy", "copy.copy") and len(args) == 1:
        # a copy where the original is; it moves nothing.  A deep copy's modules are other modules than
        # the original's (a move of one is no move of the other: `forget_aliases` tells them by identity)
        return map_leaves(args[0], lambda v: _copied(v, node), objects=True) if qual == "copy.deepcopy" else args[0]
    if qual == "torch.compile":
        return args[0] if args and isinstance(args[0], (ModuleV, PlacedV)) else UNKNOWN
    if head in ("torch.utils.data", "torch.utils.data.dataloader") and last == "DataLoader":
        return data_loader(node, args, kwargs)
    if head in ("torch.utils.data", "torch.utils.data.dataset") and last == "TensorDataset":
        devs = {a.dev for a in args if isinstance(a, TensorV)}
        return DatasetV(devs.pop() if len(devs) == 1 else None)
    if api.is_torch_layer(qual):
        return layer(ev, node, last, args, kwargs)
    if head.startswith("torch.optim") and optimizer_class(qual) is not None:
        return make_optimizer(ev, node, last, args, kwargs)
    if qual.startswith("numpy."):
        return numpy_call(ev, node, qual, args, kwargs)
    if qual in _EINOPS_RESHAPES:  # einops on a torch tensor: views and reductions of it, where it is
        t = args[0] if args else UNKNOWN
        if not isinstance(t, TensorV):
            return UNKNOWN
        rank, least = einops_rank(node)
        return TensorV(t.dev, origin=node, grad=t.grad, module_output=t.module_output, rank=rank, min_rank=least)
    if last == "from_pretrained" and is_model_class(head):
        return pretrained_model(args, kwargs, default_device(ev))
    if last == "from_pretrained" and is_encoder_class(head):
        return QualV(TOKENIZER)  # AutoTokenizer / BertTokenizerFast / AutoProcessor ... .from_pretrained(...)
    if qual == TOKENIZER or head == TOKENIZER:
        return tokenizer_call(node, "__call__" if qual == TOKENIZER else last)
    if qual.startswith("torchtext.") and (last in _TORCHTEXT_ITERATORS or last == "splits"
                                          and head.rpartition(".")[2] in _TORCHTEXT_ITERATORS):
        return torchtext_iterator(ev, node, kwargs, last == "splits")
    if qual.startswith("torchvision."):
        made = transform_call(node, qual, args)
        if made is not None:
            return made
    if head.startswith("torchvision.datasets") and last[:1].isupper():
        return DatasetV(CPU)
    if head.startswith("torchvision.models") and last[:1].islower():
        return ModuleV(CPU, True, None, None, known_class=False)
    if qual in AUTOGRAD_RESULTS:
        return autograd_result(node, qual, args, kwargs)
    if head == OF_NUMBERS_ON_CPU:
        return distribution_method(node, last)
    if is_distribution(head, last):
        return distribution(args, kwargs, default_device(ev))
    callable_ = operators.lookup_function(qual)
    if callable_ is not None:
        return operator_call(ev, node, last, callable_, args, kwargs)
    if head == "torch" or head in ("torch.nn.functional", "torch.linalg", "torch.special", "torch.fft", "torch.sparse"):
        return _first_tensor_device(node, args)
    placer = last in api.MESH_PLACERS and head.startswith("torch.distributed")
    if not qual.startswith("torch.") and not qual.startswith("numpy.") or placer:
        forget_moved_arguments(ev, node)
        if placer and args and args[0].__class__ is ModuleV:
            return replace(args[0], dev=None, placed_at=None)  # (the module it was handed, moved in place)
    return UNKNOWN


# A Hugging Face tokenizer, processor or feature extractor (made by `X.from_pretrained`): called, or
# its encoding methods, with `return_tensors="pt"` it gives CPU tensors.
TOKENIZER = "transformers.<tokenizer>"  # (not a name one can import: only `from_pretrained` makes it)
# `from_pretrained` arguments that may load the weights somewhere else than the CPU (accelerate's
# dispatch, bitsandbytes' quantized loading on the current GPU, a library's own `device=`)
_PLACING_KWARGS = frozenset({"device_map", "device", "load_in_8bit", "load_in_4bit", "quantization_config"})


def pretrained_model(args: list, kwargs: dict, default: Optional[Dev]) -> ModuleV:
    """`XModel.from_pretrained(name)` / `XForY.from_pretrained(name)`: a transformers model, an
    nn.Module with parameters whose forward does not move its inputs, loaded on the CPU.  Under a
    default device that is not the CPU (`with torch.device("cuda"):`, `set_default_device`) its device
    is not known: recent transformers make that device the `device_map`
    (`get_torch_context_manager_or_global_device`), older ones build the layers there and may load
    the weights onto the CPU.  Where an argument may place it (`device_map=`, 8-/4-bit loading,
    `**kwargs` of unknown keys) or a module may be handed in (peft's `PeftModel.from_pretrained(base,
    path)` wraps `base` where it is: more than the one positional name or path), the class is not
    known (and, with `device_map=`, the device)."""
    dev = CPU if default is not None and default.is_cpu else None
    if len(args) > 1 or not _PLACING_KWARGS.isdisjoint(kwargs) or any(k[:2] == "**" for k in kwargs) \
            or any(a.__class__ is ModuleV for a in args) or "model" in kwargs:
        return ModuleV(None if "device_map" in kwargs else dev, True, None, None, known_class=False, not_none=True)
    return ModuleV(dev, True, None, None, not_none=True)


_ENCODING_METHODS = {"__call__", "encode_plus", "batch_encode_plus", "pad"}


def tokenizer_call(node: ast.Call, method: str) -> Value:
    """`tokenizer(text, return_tensors="pt")` is a BatchEncoding of CPU tensors (`.to()` moves it in
    place); `tokenizer.encode(text, return_tensors="pt")` a CPU tensor of token ids."""
    returns = next((k.value for k in node.keywords if k.arg == "return_tensors"), None)
    if not (isinstance(returns, ast.Constant) and returns.value == "pt"):
        return UNKNOWN  # lists, NumPy arrays, or a choice made at run time
    ids = TensorV(CPU, origin=node, min_rank=1)
    as_dict = any(k.arg == "return_dict" and isinstance(k.value, ast.Constant) and k.value.value is True
                  for k in node.keywords)
    if method in _ENCODING_METHODS or method == "apply_chat_template" and as_dict:
        return EncodingV(ids)
    if method in ("encode", "apply_chat_template"):
        return ids
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
        if dev is not None and len(node.args) > 1 and dev.label == "cuda":
            # `torch.device("cuda", local_rank)`: cuda:<local_rank>, an index chosen at run time
            return DeviceV(Dev(ACCEL_KIND, RUNTIME, None, node), True)
        return DeviceV(dev, True) if dev else UNKNOWN
    if isinstance(args[0], DeviceV):
        return DeviceV(args[0].dev, True)  # torch.device(...) returns a device or raises
    if isinstance(args[0], Number):
        return DeviceV(Dev(ACCEL_KIND, RUNTIME, None, node), True)  # `torch.device(args.gpu)`, an int: cuda:<gpu>
    return UNKNOWN


# factories whose other sizes are ints too (`torch.randperm(n)`, `torch.eye(n, m)`: a one-element integer tensor is
# read through `__index__`; `arange`/`linspace` take Numbers, which refuse a 1-D tensor: checked with torch 2.13)
_INT_SIZED = frozenset({"randperm", "eye"})


def _unbound_sized_factory(ev, node: ast.Call, name: str, kwargs: dict) -> Optional[TensorV]:
    """A sized factory the table cannot bind: `torch.rand(2, *shape)` (sizes through a star), or `torch.rand(n, 4)` /
    `torch.randint(0, n, (3,))` with `n` a one-element integer tensor, which PyTorch reads as an int through
    `__index__` (`torch.randint(1, 9, size=(1,))` is a 1-D tensor, so it is no 0-dim operand).  Sizes never
    place the result: it is on device= or the default device, not on a size tensor's device."""
    kind = api.TORCH_FACTORIES.get(name)
    if (kind not in ("args", "randint") and name not in _INT_SIZED) or "out" in kwargs \
            or any(k.arg is None for k in node.keywords):
        return None
    if kind == "randint" and any(isinstance(a, ast.Starred) for a in node.args):
        return None
    has_kw, dev = kw_device(ev, node, kwargs)
    rank = factory_rank(node, name)
    least = rank if rank is not None else sum(not isinstance(a, (ast.Starred, ast.Tuple, ast.List)) for a in node.args)
    if rank is None:  # `torch.rand(*x.shape)`
        rank, of_sizes = sizes_rank(ev, node, name)
        least = max(least, of_sizes)
    return TensorV(dev if has_kw else default_device(ev), origin=node, rank=rank, min_rank=least,
                   random=name in api.RANDOM_FACTORIES)


def sizes_rank(ev, node: ast.Call, name: str) -> tuple[Optional[int], int]:
    """(rank, least rank) of a factory given all of a tensor's sizes (`torch.zeros(x.shape)`,
    `torch.randint(1, 9, x.size())`: `ranks.size_object`): that tensor's; (None, 0) otherwise."""
    base = size_object(node, name)
    value = ev.lookup(base.id) if base is not None else None
    if value.__class__ is not TensorV:
        return None, 0
    return value.rank, floor(value)


def _first_tensor_device(node: ast.Call, args: list) -> Value:
    """A torch function the table cannot bind: its result is taken to follow its first tensor."""
    first = next((a for a in args if isinstance(a, TensorV)), None)
    if first is not None:
        return TensorV(first.dev, origin=node, batch=first.batch, grad=first.grad)
    return UNKNOWN


def operator_call(ev, node: ast.Call, name: str, callable_, args: list, kwargs: dict) -> Value:
    """A torch function described by the table (torch_semantics): check where PyTorch checks,
    place the result where PyTorch puts it."""
    bound = operators.bind(callable_, node, args, kwargs)
    if bound is None:
        sized = _unbound_sized_factory(ev, node, name, kwargs)
        return sized if sized is not None else _first_tensor_device(node, args)
    overload, operands = bound
    result = overload.result
    if result in ("factory", "like", "data"):
        return factory(ev, node, name, args, kwargs, overload, operands)
    if result == "inputs":
        out = operators.tensor_result(ev, node, overload, operands)
        if name in RETURN_FIELDS and out.__class__ is TensorV:  # `torch.max(x, 1)`, `torch.where(cond)`: a tuple
            seq = _tuple_result(node, name, args, out.dev)
            if seq is not None:
                return seq
        if name == "meshgrid" and out.__class__ is TensorV:
            return _meshgrid_result(node, args, out)
        if isinstance(out, TensorV) and name in SAME_RANK:
            sources = [op.value for op in operands if op.param.name in overload.follows and isinstance(op.value, TensorV)]
            if len(sources) == 1 and out.rank is None:  # torch.clamp(x, 0, 1) keeps x's rank
                out = replace(out, rank=sources[0].rank, min_rank=sources[0].min_rank)
            if len(sources) == 1 and sources[0].factory is not None and out.dev is not None and out.dev.is_cpu:
                # `torch.roll(x, 1)` of a CPU factory's tensor, as `x.roll(1)`: a fix at the factory moves it too
                out = replace(out, factory=sources[0].factory, random=sources[0].random)
        elif isinstance(out, TensorV) and name in FIXED_RANK:  # torch.bmm(a, b): 3-D, as its inputs must be
            out = replace(out, rank=FIXED_RANK[name], min_rank=FIXED_RANK[name])
        elif out.__class__ is TensorV and out.rank is None and out.min_rank == 0 and name in _NEVER_0DIM:
            out = replace(out, min_rank=1)
        return out
    if operators.check(ev, node, operands):
        return UNKNOWN
    if result == "cpu":
        return TensorV(CPU, origin=node)
    if result == "receiver":  # torch.relu_(x): x itself
        return next((op.value for op in operands if isinstance(op.value, TensorV)), UNKNOWN)
    if result == "unknown":
        out = _first_tensor_device(node, args)
        if name in RETURN_FIELDS and out.__class__ is TensorV:  # `torch.unique(x, return_inverse=True)`
            return _tuple_result(node, name, args, out.dev) or out
        return out
    return UNKNOWN


def _tuple_result(node: ast.Call, name: str, args: list, dev) -> Optional[SeqV]:
    """`torch.<name>(x, ...)` of a tuple-returning op: its tensors, on `dev`, of the ranks x gives them."""
    first = operators._as_tensor(args[0], node.args[0]) if node.args and args else None
    return tuple_value(name, first, node, args, 1, dev) if first is not None else None


def _meshgrid_result(node: ast.Call, args: list, out: TensorV) -> SeqV:
    """`torch.meshgrid(a, b)` / `torch.meshgrid([a, b])`: a tuple of one grid per input, each with one
    dimension per input (the inputs are 0-D or 1-D), on the inputs' device; never 0-dim."""
    inputs = node.args
    if len(inputs) == 1 and isinstance(inputs[0], (ast.List, ast.Tuple)):
        inputs = inputs[0].elts
    elif len(inputs) == 1 and not isinstance(args[0], TensorV):
        inputs = None  # `torch.meshgrid(coords)`: a list of unknown length
    if not inputs or any(isinstance(a, ast.Starred) for a in inputs):
        return SeqV(None, replace(out, min_rank=1))
    grid = replace(out, rank=len(inputs), min_rank=len(inputs))
    return SeqV(tuple(grid for _ in inputs), UNKNOWN, True)


# `torch.cat` refuses 0-dim tensors ("zero-dimensional tensor (at position 0) cannot be concatenated"),
# `torch.stack` adds a dimension: never a 0-dim result
_NEVER_0DIM = frozenset({"cat", "concat", "concatenate", "stack"})


def factory(ev, node: ast.Call, name: str, args: list, kwargs: dict, overload, operands) -> Value:
    """A tensor made by a factory: on device= if given, else on the default device (`factory`),
    on its source tensor's device (`like`: zeros_like, new_zeros), or where its data is (`data`)."""
    has_kw, dev = kw_device(ev, node, kwargs)
    if overload.result == "like":
        if operators.check(ev, node, operands):
            return UNKNOWN
        src = next((op.value for op in operands if op.param.name in overload.follows), UNKNOWN)
        if not has_kw:
            dev = src.dev if isinstance(src, TensorV) else None
        rank = src.rank if isinstance(src, TensorV) else None
        # `torch.zeros_like(x)` of a CPU factory's tensor: a fix at that factory moves both
        made = src.factory if not has_kw and isinstance(src, TensorV) and dev is not None and dev.is_cpu else None
        return TensorV(dev, origin=node, rank=rank, random=name in api.RANDOM_FACTORIES, factory=made)
    if not has_kw:
        dev = default_device(ev)
    dtype = None
    if "dtype" in kwargs:
        dtype = dtype_of(node, "dtype")
    rank = factory_rank(node, name)
    least = 0
    if rank is None and api.TORCH_FACTORIES.get(name) == "args" and len(args) == 1 and isinstance(args[0], Number):
        rank = 1  # torch.zeros(n) with n a number (a parameter bound to one in this call)
    elif rank is None:
        rank, least = sizes_rank(ev, node, name)  # torch.zeros(x.shape)
    if overload.result == "data" and args:
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
        if isinstance(data, Number):
            rank = 0  # torch.tensor(float(x)): one number makes a 0-dim tensor
    # A fix may add device= only where the overload takes it (not torch.normal(0, std)).  Made with a
    # tensor's own device (`device=x.device`) it is wherever `x` is: where that is the CPU, x's factory
    # (if any) is the one to fix, as for `torch.zeros_like(x)`.
    follows = kwargs.get("device")
    made_here, random = node if overload.takes_device else None, name in api.RANDOM_FACTORIES
    if isinstance(follows, DeviceV) and follows.of_tensor is not None:
        made_here, random = follows.of_tensor.factory, follows.of_tensor.random
    return TensorV(dev, origin=node, rank=rank, dtype=dtype, factory=made_here, random=random,
                   grad=_kw_true(node, "requires_grad"), min_rank=least)


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
    """A number, or a list/tuple value holding no tensor that is off the CPU."""
    if isinstance(value, Number):
        return True
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
    elif isinstance(dataset, (TensorV, SeqV)) and dev is not None:
        dev = _samples_device(dataset)
    elif isinstance(dataset, PlacedV):  # an object `.to(d)` moved (`idx.to(d)`): its samples may be on `d`
        dev = None
    return LoaderV(pin, dev, node, dataset=dataset, collate=kwargs.get("collate_fn"))


def _samples_device(dataset: Value) -> Optional[Dev]:
    """Where the default collate stacks the samples of a tensor (its rows) or a list (its items):
    where their tensors are (None where they differ); the CPU where they hold none."""
    devs: set = set()

    def leaf(v: Value) -> Value:
        if isinstance(v, TensorV):
            devs.add(v.dev)
        return v
    map_leaves(dataset.element() if isinstance(dataset, SeqV) else dataset, leaf)
    if not devs:
        return CPU
    return devs.pop() if len(devs) == 1 else None


def batched(call) -> bool:
    """`DataLoader(...)` that batches its samples: not `batch_size=None` (nor `**options`, which may say so)."""
    if not isinstance(call, ast.Call) or any(k.arg is None for k in call.keywords):
        return False
    size = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "batch_size"), None)
    return not (isinstance(size, ast.Constant) and size.value is None)


# torchtext's legacy iterators (torchtext.data / torchtext.legacy.data, torchtext 0.4-0.11)
_TORCHTEXT_ITERATORS = ("Iterator", "BucketIterator", "BPTTIterator")


def torchtext_iterator(ev, node: ast.Call, kwargs: dict, splits: bool) -> Value:
    """`BucketIterator(ds, device=d)` / `BucketIterator.splits((train, test), device=d)`: batches
    whose fields (`batch.text`, `batch.label`; `(text, lengths)` with include_lengths) are made on
    `device` ("If left as default, the tensors will be created on cpu")."""
    has_kw, dev = kw_device(ev, node, kwargs)
    if not has_kw:
        dev = CPU
    if dev is None or dev.is_cpu:
        loader = LoaderV(False, dev, node)
    else:  # a record of tensors on `dev`: each field read from it is one
        loader = LoaderV(False, dev, node, batch=TensorV(dev, origin=node, module_output=True))
    return SeqV(None, loader) if splits else loader


def default_collate(sample: Value, at, depth: int = 0) -> Value:
    """What DataLoader's default collate makes of samples like `sample`: tensors stacked where
    they are, numbers and arrays as CPU tensors, tuples, lists and dicts item by item.  Python
    numbers become tensors only in batches: with `batch_size=None` (`default_convert`) they stay
    numbers."""
    numbers = batched(at)

    def leaf(v: Value) -> Value:
        if isinstance(v, TensorV):
            return TensorV(v.dev, origin=at, dtype=v.dtype)
        if isinstance(v, NumpyV):
            return TensorV(CPU, origin=at, dtype=v.dtype)
        if isinstance(v, Number) and numbers:
            return TensorV(CPU, origin=at, rank=1)
        return UNKNOWN
    return map_leaves(sample, leaf, depth, too_deep=UNKNOWN)


def layer(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> Value:
    if name in api.UNKNOWN_DEVICE_WRAPPERS:
        inner = args[0] if args else kwargs.get("module")
        # DataParallel(model): scatters its inputs to the devices of `model` and runs model's forward
        # (`layer` says so wherever it is called, of whatever class `model` is: `DataParallel(nn.Linear(...))`)
        wraps = inner if isinstance(inner, ModuleV) else None
        if wraps is not None and inner.cls is not None:
            return ModuleV(inner.dev, True, node, inner.cls, attrs=inner.attrs, layer=name, wraps=wraps)
        return ModuleV(None, True, node, layer=name, wraps=wraps)
    has_kw, dev = kw_device(ev, node, kwargs)
    if not has_kw:
        has_kw, dev = _positional_device(node, name, args)
    if not has_kw:
        dev = default_device(ev)
    if name in api.CONTAINERS:
        members = list(args)
        if len(args) == 1 and isinstance(args[0], SeqV):  # nn.ModuleList([...])
            members = list(args[0].items) if args[0].items is not None else [args[0].elem]
        children = [a for a in members if isinstance(a, ModuleV)]
        has_params = any(c.has_params for c in children) or len(children) < len(members) or not members
        child_devs = {c.dev for c in children}
        if len(children) == len(members) and len(child_devs) == 1 and members:
            dev = child_devs.pop()
        elif children and len(child_devs) > 1:
            dev = None
        elif len(children) < len(members) and not any(c.has_params for c in children):
            # (`nn.Sequential(*mods)` of a parameter: the weights it may hold are where their modules were
            # made, which is not known; no known member shows the default device either)
            dev = None
        items = None
        if children and len(children) == len(members):
            items = children[0]
            for child in children[1:]:
                items = items.join(child)
            if items.__class__ is ModuleV and items.cls is None and 1 < len(children) <= 8 \
                    and any(c.cls is not None for c in children):
                items = SeqV(tuple(children))  # members of different classes, one by one
        elif not members and not node.keywords:
            items = SeqV(())  # empty: what `.append` adds is what it holds
        # A container of stateless layers is stateless itself: it runs where its input is.
        return ModuleV(dev, has_params, node, torch_layer=not has_params, layer=name,
                       items=items if isinstance(items, (ModuleV, SeqV)) else None)
    if name in ("Parameter", "Buffer"):
        return UNKNOWN
    tensors = [v for v in list(args) + list(kwargs.values()) if isinstance(v, TensorV)]
    if tensors and not has_kw:  # e.g. CrossEntropyLoss(weight=t): its buffer is t
        devs = {t.dev for t in tensors}
        dev = devs.pop() if len(devs) == 1 else None
    elif not has_kw and any(v is UNKNOWN for v in list(args) + list(kwargs.values())) and name.endswith("Loss"):
        dev = None  # a loss weight of unknown device
    has_params = api.layer_has_params(name, node, _spread_keywords(node, kwargs))
    weights = list(args[:1]) + [kwargs[k] for k in ("weight", "pos_weight") if k in kwargs]
    if has_params and name.endswith("Loss") and weights and all(v is NONE for v in weights):
        has_params = False  # `CrossEntropyLoss(weight=w)` with w None: no weight buffer
    return ModuleV(dev, has_params, node, torch_layer=True, layer=name)


def _spread_keywords(node: ast.Call, kwargs: dict) -> Optional[dict]:
    """The keywords a call gets through `**` whose keys are known (`nn.CrossEntropyLoss(**kw)`,
    `kw = {"weight": w}`: eval_args puts its items among the keywords): None where given as None,
    True otherwise.  None: no `**` argument."""
    named = None
    for k in node.keywords:
        if k.arg is None:
            named = {k.arg for k in node.keywords}
            break
    if named is None:
        return None
    return {key: None if value is NONE else True for key, value in kwargs.items()
            if key not in named and not key.startswith("**")}


def _positional_device(node: ast.Call, name: str, args: list) -> tuple[bool, Optional[Dev]]:
    """`nn.Linear(k, n, False, device)`: the device handed at its position (as `kw_device` says of
    `device=`); not known past a `*args`."""
    at = operators.device_position(name)
    if at is None or len(node.args) <= at or any(a.__class__ is ast.Starred for a in node.args[:at + 1]):
        return False, None
    value = args[at]
    if value is NONE:
        return False, None
    return True, value.dev if isinstance(value, DeviceV) else None


def numpy_call(ev, node: ast.Call, qual: str, args: list, kwargs: dict) -> Value:
    last = qual.rsplit(".", 1)[1]
    dtype = None
    for k in node.keywords:
        if k.arg == "dtype":
            dtype = _numpy_dtype(k.value)
            if dtype is None:
                return NumpyV(None)
    position = _NUMPY_DTYPE_POSITION.get(last) if qual == f"numpy.{last}" else None
    if dtype is None and position is not None and len(node.args) > position:
        dtype = _numpy_dtype(node.args[position])  # `np.ones(n, np.float32)`: the dtype given by position
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
    if qual in ("numpy.arange", "numpy.random.permutation") and args and isinstance(args[0], Number):
        return NumpyV(dtype, 1)  # a vector of numbers (`for i in np.random.permutation(n)`: i is a number)
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
    return NumpyV(dtype) if _makes_host_data(qual, last) else UNKNOWN


# where NumPy's makers take `dtype` by position (numpy/_core/numeric.py, multiarray)
_NUMPY_DTYPE_POSITION = {"zeros": 1, "ones": 1, "empty": 1, "identity": 1, "full": 2, "eye": 3, "array": 1, "asarray": 1,
                         "ascontiguousarray": 1}
_BUILTIN_DTYPES = {"float": "float64", "int": "int64", "bool": "bool", "complex": "complex128"}


def _numpy_dtype(node: ast.AST) -> Optional[str]:
    """`np.float32`, `"float32"`, `float`/`int`: the dtype named (None: another or unknown)."""
    if isinstance(node, ast.Attribute):
        return api.NUMPY_DTYPES.get(node.attr)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return api.NUMPY_DTYPES.get(node.value)
    if isinstance(node, ast.Name):
        return _BUILTIN_DTYPES.get(node.id)
    return None


# numpy callables whose result is not host array data: objects, None, files, settings, booleans
_NUMPY_NOT_ARRAYS = ("numpy.random.default_rng", "numpy.random.RandomState", "numpy.random.Generator",
                     "numpy.testing.", "numpy.lib.", "numpy.ma.", "numpy.char.", "numpy.rec.", "numpy.ctypeslib.")
_NUMPY_NOT_ARRAY_NAMES = {"seed", "save", "savez", "savez_compressed", "savetxt", "load", "memmap", "errstate",
                          "set_printoptions", "get_printoptions", "printoptions", "seterr", "geterr", "iinfo", "finfo",
                          "dtype", "vectorize", "frompyfunc", "nditer", "ndindex", "ndenumerate", "broadcast",
                          "allclose", "array_equal", "array_equiv", "shape", "ndim", "size", "isscalar", "iterable",
                          "result_type", "promote_types", "can_cast", "issubdtype", "info", "source"}


def _makes_host_data(qual: str, last: str) -> bool:
    """Any other numpy function returns numpy arrays or scalars: host memory, never on a device."""
    return last not in _NUMPY_NOT_ARRAY_NAMES and not qual.startswith(_NUMPY_NOT_ARRAYS)


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


def _copied(value: Value, at: ast.Call) -> Value:
    """A module or object of `copy.deepcopy` (`at`): where the original is, but not it.  The copy is
    made at `at`, not where the original was made or last moved: a move of the original (which reaches
    what was read from it) does not reach the copy, nor a move of the copy the original."""
    if value.__class__ is ModuleV:
        at._tp_copy = True  # (not made of its argument: a move of the copy leaves the original, `_made_of`)
        return replace(value, placed_at=at)
    return replace(value) if value.__class__ in (PlacedV, ObjectV) else value
