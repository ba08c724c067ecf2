"""A simulated CUDA device for machines without a GPU (kernel side: stdlib + torch only).

Why: the probe must show the cross-device error a job would hit on the
cluster, on a laptop.  A tensor "on the simulated GPU" is a real CPU tensor of
the subclass `SimulatedCudaTensor`; while `simulation()` is active a
`TorchFunctionMode` makes it report `cuda:0` (`.device`, `.is_cuda`,
`get_device()`, `repr`) and checks every call's devices the way PyTorch does:

* all tensor arguments must share one device, except that a 0-dim CPU tensor
  may join tensors of another device (the rule of TensorIterator and of
  FakeTensor's device propagation);
* index tensors on the CPU may index a tensor on any device;
* `copy_` copies across devices; `.to()`/`.cuda()`/`.cpu()` move (copy);
* `nn.Module.to()/.cuda()/.cpu()` move parameters and buffers of every
  submodule in place, never plain tensor attributes;
* `.numpy()` / `np.asarray()` of a device tensor raise.

Values are computed on the CPU, so code that branches on values still runs
(FakeTensorMode cannot do that: it carries no values).  Autograd runs on the
CPU tensors, so `.backward()` and optimizers work; `.grad` of a simulated
tensor reports `cuda:0`.

Error messages are PyTorch's own wording (checked against FakeTensorMode and
the ATen sources of torch 2.13).
"""
from __future__ import annotations

import contextlib
import re
from typing import Any, Callable, Optional

import torch
from torch.overrides import TorchFunctionMode

CUDA0 = torch.device("cuda", 0)
CPU = torch.device("cpu")
SIMULATED_DEVICE_NAME = "simulated GPU (torchplace, values computed on the CPU)"

MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
INDEX_MISMATCH = "indices should be either on cpu or on the same device as the indexed tensor ({})"
NUMPY_ERROR = (
    "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first."
)
CONV_WEIGHT = (
    "Input type ({}) and weight type ({}) should be the same or input should be a MKLDNN tensor "
    "and weight is a dense tensor"
)
CONV_BIAS = "Input type ({}) and bias type ({}) should be the same"
BAD_ORDINAL = "CUDA error: invalid device ordinal"


class SimulatedCudaTensor(torch.Tensor):
    """A CPU tensor that plays a `cuda:0` tensor while `simulation()` is active."""

    __torch_function__ = torch._C._disabled_torch_function_impl


_TensorBase = torch._C.TensorBase
_Tensor = torch.Tensor


def to_simulated(t: torch.Tensor) -> torch.Tensor:
    """View `t` (no copy) as a simulated device tensor; a leaf stays a leaf."""
    if isinstance(t, SimulatedCudaTensor):
        return t
    if t.requires_grad and t.grad_fn is None:
        return torch.Tensor._make_subclass(SimulatedCudaTensor, t.detach(), True)
    return t.as_subclass(SimulatedCudaTensor)


def to_plain(t: torch.Tensor) -> torch.Tensor:
    if isinstance(t, SimulatedCudaTensor):
        return t.as_subclass(torch.Tensor)
    return t


def device_of(t: torch.Tensor) -> torch.device:
    """The device `t` reports under simulation (works whether or not the mode is active)."""
    if isinstance(t, SimulatedCudaTensor):
        return CUDA0
    with torch._C.DisableTorchFunction():
        return t.device


# --- device arguments -------------------------------------------------------

def parse_device(value: Any) -> Optional[torch.device]:
    """A device argument as a torch.device ('cuda' means cuda:0); None if not a device."""
    if value is None:
        return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        dev = torch.device("cuda", value)
    elif isinstance(value, str):
        dev = torch.device(value)
    elif isinstance(value, torch.device):
        dev = value
    else:
        return None
    if dev.type == "cuda":
        index = 0 if dev.index is None else dev.index
        if index != 0:
            raise RuntimeError(BAD_ORDINAL)
        return CUDA0
    return dev


def _wrap_output(out: Any, to_device: Callable[[torch.Tensor], torch.Tensor]) -> Any:
    if isinstance(out, torch.Tensor):
        return to_device(out)
    if isinstance(out, (tuple, list)) and any(isinstance(o, torch.Tensor) for o in out):
        items = [to_device(o) if isinstance(o, torch.Tensor) else o for o in out]
        if type(out) in (tuple, list):
            return type(out)(items)
        try:  # torch.return_types structseq / namedtuple
            return type(out)(items)
        except TypeError:
            return type(out)(*items)
    return out


def _tensors_in(values: Any, out: list) -> list:
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            for w in v:
                if isinstance(w, torch.Tensor):
                    out.append(w)
                elif isinstance(w, (list, tuple)):
                    _tensors_in(w, out)
    return out


def common_device(tensors: list) -> Optional[torch.device]:
    """The device an op on `tensors` runs on, or raise PyTorch's mismatch error.

    The first non-CPU device wins; a 0-dim CPU tensor may join another device.
    """
    common: Optional[torch.device] = None
    common_is_cpu_scalar = False
    for t in tensors:
        if isinstance(t, SimulatedCudaTensor):
            dev, cpu_scalar = CUDA0, False
        else:
            dev = t.device
            cpu_scalar = dev.type == "cpu" and t.dim() == 0
        if common is None:
            common, common_is_cpu_scalar = dev, cpu_scalar
        elif dev == common:
            if common_is_cpu_scalar:
                common_is_cpu_scalar = cpu_scalar
        elif cpu_scalar:
            continue
        elif common_is_cpu_scalar:
            common, common_is_cpu_scalar = dev, False
        else:
            first, second = (common, dev) if common.type != "cpu" else (dev, common)
            raise RuntimeError(MISMATCH.format(first, second))
    return common


def _type_string(t: torch.Tensor) -> str:
    names = {
        torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
        torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char",
        torch.uint8: "Byte", torch.bool: "Bool",
    }
    prefix = "torch.cuda." if isinstance(t, SimulatedCudaTensor) else "torch."
    return f"{prefix}{names.get(t.dtype, str(t.dtype))}Tensor"


# --- the moves (each records its copy through `transfer_hook`) ---------------

transfer_hook: Optional[Callable[[torch.device, torch.device, int], None]] = None


def _note_transfer(src: torch.device, dst: torch.device, t: torch.Tensor) -> None:
    if transfer_hook is not None and src != dst:
        transfer_hook(src, dst, t.numel() * t.element_size())


def move(t: torch.Tensor, dst: torch.device, dtype=None, copy=False, memory_format=None) -> torch.Tensor:
    """`t.to(dst, dtype)` under simulation; returns `t` itself when nothing changes."""
    src = CUDA0 if isinstance(t, SimulatedCudaTensor) else t.device
    plain = to_plain(t)
    kwargs = {}
    if dtype is not None:
        kwargs["dtype"] = dtype
    if memory_format is not None:
        kwargs["memory_format"] = memory_format
    if src == dst and not copy and (dtype is None or dtype == t.dtype) and memory_format is None:
        return t
    with torch._C.DisableTorchFunction():
        # The values always live on the CPU; only the reported device changes.
        result = plain.to(**kwargs, copy=True)
    _note_transfer(src, dst, t)
    return to_simulated(result) if dst.type == "cuda" else result


def _parse_to_args(args, kwargs):
    """(device, dtype, copy, memory_format) of a Tensor.to(...) call."""
    kwargs = dict(kwargs)
    copy = kwargs.pop("copy", False)
    kwargs.pop("non_blocking", None)
    memory_format = kwargs.pop("memory_format", None)
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    rest = list(args)
    if rest and isinstance(rest[0], torch.Tensor):
        other = rest.pop(0)
        device, dtype = device_of(other), other.dtype
    elif rest and not isinstance(rest[0], torch.dtype):
        device = rest.pop(0)
    if rest and isinstance(rest[0], torch.dtype):
        dtype = rest.pop(0)
    if rest and isinstance(rest[0], bool):  # non_blocking
        rest.pop(0)
        if rest and isinstance(rest[0], bool):
            copy = rest.pop(0)
    return parse_device(device), dtype, copy, memory_format


# --- special calls -----------------------------------------------------------

def _tensor_to(func, args, kwargs):
    self = args[0]
    dst, dtype, copy, memory_format = _parse_to_args(args[1:], kwargs)
    if dst is None:
        dst = device_of(self)
    return move(self, dst, dtype, copy, memory_format)


def _tensor_cuda(func, args, kwargs):
    device = args[1] if len(args) > 1 else kwargs.get("device")
    dst = parse_device("cuda" if device is None else device)
    return move(args[0], dst)


def _tensor_cpu(func, args, kwargs):
    return move(args[0], CPU)


def _numpy(func, args, kwargs):
    if isinstance(args[0], SimulatedCudaTensor):
        raise TypeError(NUMPY_ERROR.format(CUDA0))
    return func(*args, **kwargs)


def _copy_(func, args, kwargs):
    dst, src = args[0], args[1]
    _note_transfer(device_of(src), device_of(dst), src)
    func(*args, **kwargs)
    return dst


def _index(func, args, kwargs):
    self = args[0]
    dev = device_of(self)
    indices = _tensors_in(args[1:2], [])
    for idx in indices:
        idev = device_of(idx)
        if idev.type != "cpu" and idev != dev:
            raise IndexError(INDEX_MISMATCH.format(dev))
    out = func(*args, **kwargs)
    if func is _TensorBase.__setitem__:
        return out
    return _wrap_output(out, to_simulated) if dev.type == "cuda" else out


def _repr(func, args, kwargs):
    self = args[0]
    if not isinstance(self, SimulatedCudaTensor):
        return func(*args, **kwargs)
    with torch._C.DisableTorchFunction():
        plain = self.detach().as_subclass(torch.Tensor)
        grad_fn, requires_grad = self.grad_fn, self.requires_grad
    text = _add_device_suffix(func(plain, *args[1:], **kwargs))
    grad_fn = _user_node(grad_fn)
    if grad_fn is not None:
        text = text[:-1] + f", grad_fn=<{type(grad_fn).__name__}>)"
    elif requires_grad:
        text = text[:-1] + ", requires_grad=True)"
    if getattr(self, "_is_param", False):
        text = "Parameter containing:\n" + text
    return text


_SUFFIX = re.compile(r",\s+(?:size|dtype|grad_fn|requires_grad|layout)=")


def _add_device_suffix(text: str) -> str:
    """Insert `device='cuda:0'` where PyTorch puts it: right after the values."""
    closing = text.endswith(")")
    body = text[:-1] if closing else text
    cut = len(body)
    for match in _SUFFIX.finditer(body):
        if body[: match.start()].count("[") == body[: match.start()].count("]"):
            cut = match.start()
            break
    sep = body[cut:cut + 1] and _separator(body, cut)
    return body[:cut] + f", device='{CUDA0}'" + (sep + body[cut:].lstrip(", \n") if cut < len(body) else "") + (")" if closing else "")


def _separator(body: str, cut: int) -> str:
    match = re.match(r",\s+", body[cut:])
    return match.group(0) if match else ", "


def _conv(func, args, kwargs):
    tensors = _tensors_in(args[:3], [])
    inp = args[0] if args else kwargs.get("input")
    weight = args[1] if len(args) > 1 else kwargs.get("weight")
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    if isinstance(inp, torch.Tensor) and isinstance(weight, torch.Tensor):
        if device_of(inp) != device_of(weight):
            raise RuntimeError(CONV_WEIGHT.format(_type_string(inp), _type_string(weight)))
        if isinstance(bias, torch.Tensor) and device_of(inp) != device_of(bias):
            raise RuntimeError(CONV_BIAS.format(_type_string(inp), _type_string(bias)))
    return _generic(func, args, kwargs, tensors)


RNN_MISMATCH = "Input and {} tensors are not at the same device, found input tensor at {} and {} tensor at {}"


def _rnn(func, args, kwargs):
    """torch.lstm/gru/rnn_*: ATen checks hidden states, then parameters, against the input."""
    packed = len(args) > 3 and isinstance(args[1], torch.Tensor) and isinstance(args[3], (list, tuple))
    inp, hx, params = (args[0], args[2], args[3]) if packed else (args[0], args[1], args[2])
    dev = device_of(inp)
    hidden = [hx] if isinstance(hx, torch.Tensor) else list(hx or [])
    for name, group in (("hidden", hidden), ("parameter", list(params or []))):
        for t in group:
            if isinstance(t, torch.Tensor) and device_of(t) != dev:
                raise RuntimeError(RNN_MISMATCH.format(name, dev, name, device_of(t)))
    return _generic(func, args, kwargs)


def _tensor_type(func, args, kwargs):
    if isinstance(args[0], SimulatedCudaTensor) and len(args) == 1 and not kwargs:
        return _type_string(args[0])  # x.type() -> 'torch.cuda.FloatTensor'
    return func(*args, **kwargs)


def _pin_memory(func, args, kwargs):
    return args[0]


def _is_pinned(func, args, kwargs):
    return False


def _generic(func, args, kwargs, tensors=None):
    if tensors is None:
        tensors = _tensors_in(args, [])
        _tensors_in(kwargs.values(), tensors)
    dev = common_device(tensors)
    out = func(*args, **kwargs)
    if dev is not None and dev.type == "cuda":
        return _wrap_output(out, to_simulated)
    return out


def _user_node(node):
    """Skip the AliasBackward0 nodes our own `as_subclass` views add to the graph."""
    while node is not None and type(node).__name__ == "AliasBackward0" and node.next_functions:
        node = node.next_functions[0][0]
    return node


def _getter_table() -> dict:
    def desc(name):
        return _TensorBase.__dict__.get(name) or _Tensor.__dict__.get(name)

    def sim_only(value):
        def getter(func, args, kwargs):
            return value if isinstance(args[0], SimulatedCudaTensor) else func(*args, **kwargs)
        return getter

    def grad(func, args, kwargs):
        g = func(*args, **kwargs)
        if isinstance(args[0], SimulatedCudaTensor) and g is not None:
            return to_simulated(g)
        return g

    def grad_fn(func, args, kwargs):
        node = func(*args, **kwargs)
        if isinstance(args[0], SimulatedCudaTensor):
            node = _user_node(node)
        return node

    table = {
        "device": sim_only(CUDA0), "is_cuda": sim_only(True), "is_cpu": sim_only(False), "grad": grad,
        "grad_fn": grad_fn,
    }
    return {desc(name): fn for name, fn in table.items() if desc(name) is not None}


_GETTERS = _getter_table()

_SPECIAL = {
    _TensorBase.to: _tensor_to,
    _TensorBase.cuda: _tensor_cuda,
    _TensorBase.cpu: _tensor_cpu,
    _TensorBase.numpy: _numpy,
    _Tensor.__array__: _numpy,
    _TensorBase.copy_: _copy_,
    _TensorBase.__getitem__: _index,
    _TensorBase.__setitem__: _index,
    _Tensor.__repr__: _repr,
    _TensorBase.pin_memory: _pin_memory,
    _TensorBase.type: _tensor_type,
    torch.lstm: _rnn,
    torch.gru: _rnn,
    torch.rnn_tanh: _rnn,
    torch.rnn_relu: _rnn,
    _TensorBase.is_pinned: _is_pinned,
    _TensorBase.get_device: lambda f, a, k: 0 if isinstance(a[0], SimulatedCudaTensor) else f(*a, **k),
    torch.nn.functional.conv1d: _conv,
    torch.nn.functional.conv2d: _conv,
    torch.nn.functional.conv3d: _conv,
    torch.conv1d: _conv,
    torch.conv2d: _conv,
    torch.conv3d: _conv,
    torch.nn.functional.conv_transpose1d: _conv,
    torch.nn.functional.conv_transpose2d: _conv,
    torch.nn.functional.conv_transpose3d: _conv,
}

_UNSET = object()
_MethodWrapper = type(_TensorBase.__dict__["device"].__get__)


class SimulatedGpuMode(TorchFunctionMode):
    """Routes every torch call through the simulated device's rules."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        special = _SPECIAL.get(func)
        if special is not None:
            return special(func, args, kwargs)
        if type(func) is _MethodWrapper:  # a property getter, e.g. Tensor.device.__get__
            getter = _GETTERS.get(func.__self__)
            if getter is not None:
                return getter(func, args, kwargs)
            # other getters (.T, .mT, .data, .real, ...) return tensors: the rules below apply
        device_arg = kwargs.get("device", _UNSET)
        if device_arg is not _UNSET and device_arg is not None:
            dst = parse_device(device_arg)
            if dst is not None and dst.type == "cuda":
                kwargs = dict(kwargs, device="cpu")
                out = func(*args, **kwargs)
                return _wrap_output(out, to_simulated)
            if dst is not None:
                return func(*args, **kwargs)
        tensors = _tensors_in(args, [])
        if kwargs:
            _tensors_in(kwargs.values(), tensors)
        for t in tensors:
            if isinstance(t, SimulatedCudaTensor):
                return _generic(func, args, kwargs, tensors)
        return func(*args, **kwargs)


# --- modules and torch.cuda --------------------------------------------------

_original_module_to = torch.nn.Module.to


def move_module(module: torch.nn.Module, dst: torch.device) -> torch.nn.Module:
    """Move parameters and buffers of every submodule in place (never plain attributes)."""
    for m in module.modules():
        for key, param in list(m._parameters.items()):
            if param is None or device_of(param) == dst:
                continue
            with torch.no_grad():
                moved = move(param.detach(), dst)
            new = torch.nn.Parameter(moved, param.requires_grad)
            if param.grad is not None:
                new.grad = move(param.grad, dst)
            m._parameters[key] = new
        for key, buf in list(m._buffers.items()):
            if buf is None or device_of(buf) == dst:
                continue
            m._buffers[key] = move(buf, dst)
    return module


def _module_to(self, *args, **kwargs):
    device, dtype, _non_blocking, _fmt = _parse_module_to(args, kwargs)
    if dtype is not None:
        _original_module_to(self, dtype)
    if device is not None:
        move_module(self, device)
    return self


def _parse_module_to(args, kwargs):
    device, dtype, _copy, _memory_format = _parse_to_args(args, kwargs)
    if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
        raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={dtype}")
    return device, dtype, None, None


def _module_cuda(self, device=None):
    return _module_to(self, "cuda" if device is None else device)


def _module_cpu(self):
    return _module_to(self, "cpu")


def _cuda_patches() -> dict:
    import torch.cuda as tc

    # Each stand-in is its own function object: torch._dynamo, when an optimizer
    # imports it under the simulation, indexes torch.cuda's functions by identity.
    def noop():
        def stand_in(*a, **k):
            return None
        return stand_in

    def name(device=None):
        return SIMULATED_DEVICE_NAME

    patches = {
        (tc, "is_available"): lambda: True,
        (tc, "device_count"): lambda: 1,
        (tc, "current_device"): lambda: 0,
        (tc, "get_device_name"): name,
        (tc, "synchronize"): noop(),
        (tc, "set_device"): noop(),
        (tc, "empty_cache"): noop(),
        (tc, "is_initialized"): lambda: True,
        (tc, "init"): noop(),
        (tc, "memory_allocated"): lambda device=None: 0,
        (tc, "max_memory_allocated"): lambda device=None: 0,
        (tc, "memory_reserved"): lambda device=None: 0,
        (tc, "reset_peak_memory_stats"): noop(),
        # Simulated CUDA tensors draw from the CPU generator.  (torch.manual_seed itself
        # calls torch.cuda.manual_seed_all, so these must not call it back.)
        (tc, "manual_seed"): lambda seed: torch.random.default_generator.manual_seed(int(seed)) and None,
        (tc, "manual_seed_all"): lambda seed: torch.random.default_generator.manual_seed(int(seed)) and None,
        (torch.backends.cudnn, "is_acceptable"): lambda tensor: False,  # no cuDNN behind the simulation
        (torch.nn.Module, "to"): _module_to,
        (torch.nn.Module, "cuda"): _module_cuda,
        (torch.nn.Module, "cpu"): _module_cpu,
    }
    # torch.accelerator is left alone: optimizers consult it and would then ask
    # the (absent) CUDA runtime for streams.
    return {k: v for k, v in patches.items() if hasattr(k[0], k[1])}


@contextlib.contextmanager
def simulation():
    """Run the body with a simulated `cuda:0` device."""
    patches = _cuda_patches()
    saved = {key: getattr(*key) for key in patches}
    for (owner, attr), value in patches.items():
        setattr(owner, attr, value)
    mode = SimulatedGpuMode()
    try:
        with mode:
            yield mode
    finally:
        for (owner, attr), value in saved.items():
            setattr(owner, attr, value)
