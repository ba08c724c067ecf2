"""The device check a real CUDA build makes for one ATen op whose tensors sit on different devices.

Why: the simulated GPU must raise exactly where a GPU raises, with PyTorch's words,
and nowhere else.  Which check runs is read from PyTorch's registry (`op_registry`):

* `check_generated`: the generated CUDA wrapper's `check_and_update_common_device`
  (torchgen/dest/register_dispatch_key.py `gen_device_check`; message from
  aten/src/ATen/core/adaption.cpp `common_device_check_failure`): out arguments, then
  positional ones; a 0-dim CPU tensor is a mismatch like any other;
* `check_tensor_iterator`: TensorIteratorBase::compute_types
  (aten/src/ATen/TensorIterator.cpp): the common device is the first non-CPU operand;
  one 0-dim CPU *input* may join when the op's iterator allows CPU scalars (the binary
  and comparison builders do; unary, ternary and custom ones do not); outputs never;
* `KERNEL_RULES`: the `NoCheck` kernels that decide for themselves, and the
  CompositeExplicitAutograd ops whose first check is their own (each cites its source);
  those in `HOST_ARGUMENT_RULES` want an argument on the CPU (or return a CPU tensor),
  so they decide even when every tensor sits on one GPU.

Anything else (ops without a CUDA kernel, or outside `aten`) follows FakeTensor's
device propagation (torch/_subclasses/fake_tensor.py `_find_common_device`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple, Optional, Union

import torch

from . import op_registry

Result = Union[Optional[torch.device], list]
CPU = torch.device("cpu")

GENERATED = ("Expected all tensors to be on the same device, but got {name} is on {device}, different from other "
             "tensors on {common} (when checking argument in method {method})")
ITERATOR = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
TOO_MANY_SCALARS = "Trying to pass too many CPU scalars to non-CPU kernel!"
INDEX = "indices should be either on cpu or on the same device as the indexed tensor ({})"
MASK = "expected self and mask to be on the same device, but got mask on {} and self on {}"
VALUE = "expected device {} but got device {} for value tensor"
CONV = "Input type ({}) and {} type ({}) should be the same or input should be a MKLDNN tensor and {} is a dense tensor"
LENGTHS = "'lengths' argument should be a 1D CPU int64 tensor, but got {}D {} {} tensor"


class Operand(NamedTuple):
    """One tensor argument of an op call, with the device it has in the simulation."""

    name: str
    tensor: torch.Tensor
    device: torch.device
    output: bool  # an out= argument or an in-place self
    is_out: bool  # an out= argument (checked first by the generated wrapper)
    positional: bool  # not keyword-only (the generated wrapper checks only these)
    neutral: bool  # made inside an ATen composite from its input's options: on that input's device
    index: int  # position inside a Tensor[] argument (-1 for a plain Tensor)


def mismatch(message: str, operand: Operand, kind=RuntimeError, operands: Optional[list] = None) -> BaseException:
    """PyTorch's exception, carrying the operand it names (and the op's others) for the root cause."""
    exc = kind(message)
    exc.torchplace_operand = operand  # type: ignore[attr-defined]
    if operands is not None:
        exc.torchplace_operands = operands  # type: ignore[attr-defined]
    return exc


@lru_cache(maxsize=4096)
def _schema_plan(func) -> tuple:
    plan = []
    for position, arg in enumerate(func._schema.arguments):
        text = str(arg.type)
        if "Tensor" not in text:
            continue
        alias = arg.alias_info
        plan.append((position, arg.name, arg.kwarg_only, bool(arg.is_out), bool(alias and alias.is_write),
                     text.startswith("List[") or text.endswith("[]")))
    return tuple(plan)


def operands(func, args: tuple, kwargs: dict, device_of: Callable, is_neutral: Callable) -> list:
    """The op's tensor arguments in schema order."""
    found = []
    for position, name, kwarg_only, is_out, written, is_list in _schema_plan(func):
        if not kwarg_only and position < len(args):
            value = args[position]
        elif name in kwargs:
            value = kwargs[name]
        else:
            continue
        items = value if is_list and isinstance(value, (list, tuple)) else [value]
        for i, t in enumerate(items):
            if isinstance(t, torch.Tensor):
                found.append(Operand(name, t, device_of(t), is_out or written, is_out, not kwarg_only,
                                     is_neutral(t), i if is_list else -1))
    return found


def _info(func) -> Optional[op_registry.OpInfo]:
    return op_registry.lookup(func._schema.name, func._overloadname)


def check_generated(info: op_registry.OpInfo, ops: list, is_out_fn: bool) -> Result:
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    seq = [o for o in ops if o.is_out] + [o for o in ops if o.positional and not o.is_out]
    common: Optional[torch.device] = None
    for o in seq:
        if o.neutral:
            continue
        if common is None:
            common = o.device
        elif o.device != common:
            raise mismatch(GENERATED.format(name=o.name, device=o.device, common=common,
                                            method=info.cuda_wrapper_name(is_out_fn)), o, operands=ops)
    return common if common is not None else _fallback_device(ops)


def allows_cpu_scalars(func) -> bool:
    """Binary and comparison TensorIterator builders allow one CPU scalar; others do not."""
    inputs = [p for p in _schema_plan(func) if not p[3] and not p[5]]
    return len(inputs) == 2


def check_tensor_iterator(ops: list, allow_scalars: bool) -> Result:
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    order = [o for o in ops if o.output] + [o for o in ops if not o.is_out]
    live = [o for o in order if not o.neutral]
    common = next((o.device for o in live if o.device.type != "cpu"), CPU)
    scalars = 0
    for o in live:
        is_cpu_scalar = o.device.type == "cpu" and o.tensor.dim() == 0
        if common.type != "cpu" and allow_scalars and not o.output and is_cpu_scalar:
            scalars += 1
            if scalars > 1:
                raise mismatch(TOO_MANY_SCALARS, o)
            continue
        if o.device != common:
            raise mismatch(ITERATOR.format(common, o.device), o, operands=ops)
    return common


def check_fake_tensor_rule(ops: list) -> Result:
    """FakeTensor's propagation: one device, except that 0-dim CPU tensors defer to it."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    common, common_is_scalar = None, False
    for o in ops:
        if o.neutral:
            continue
        scalar = o.device.type == "cpu" and o.tensor.dim() == 0
        if common is None:
            common, common_is_scalar = o.device, scalar
        elif o.device == common:
            common_is_scalar = common_is_scalar and scalar
        elif scalar:
            continue
        elif common_is_scalar:
            common, common_is_scalar = o.device, False
        else:
            first, second = (common, o.device) if common.type != "cpu" else (o.device, common)
            raise mismatch(ITERATOR.format(first, second), o, operands=ops)
    return common if common is not None else _fallback_device(ops)


def _fallback_device(ops: list) -> Optional[torch.device]:
    return ops[0].device if ops else None


def _named(ops: list, name: str) -> list:
    return [o for o in ops if o.name == name]


def _first(ops: list, name: str) -> Optional[Operand]:
    found = _named(ops, name)
    return found[0] if found else None


# --- kernels that check devices themselves (NoCheck), and composites whose own check comes first ---

def _where(func, ops: list) -> Result:
    """TensorCompare.cpp `where` / `where_self_out`: the result goes to the first non-CPU operand's
    device; on a non-CPU device, 0-dim operands from elsewhere are moved there; the rest is a
    TensorIterator check (no CPU scalars)."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    out = [o for o in ops if o.is_out]
    device = out[0].device if out else next((o.device for o in ops if o.device.type != "cpu"), CPU)
    for o in ops:
        if o.neutral or o.device == device:
            continue
        if device.type != "cpu" and not o.is_out and o.tensor.dim() == 0:
            continue
        raise mismatch(ITERATOR.format(device, o.device), o)
    return device


def _check_indices(self_op: Operand, ops: list) -> None:
    """TensorAdvancedIndexing.cpp `check_indices_on_cpu_or_selfdevice`: CPU indices may index any tensor."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    for idx in _named(ops, "indices"):
        if not idx.neutral and idx.device.type != "cpu" and idx.device != self_op.device:
            raise mismatch(INDEX.format(self_op.device), idx, IndexError)


def _index(func, ops: list) -> Result:
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    self_op = _first(ops, "self")
    _check_indices(self_op, ops)
    return self_op.device


def _index_put(func, ops: list) -> Result:
    """TensorAdvancedIndexing.cpp `_index_put_impl_`: indices as for `index`; a 0-dim value is moved
    to self's device; with accumulate on CUDA the value must be there; otherwise TensorIterator's check."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    self_op = _first(ops, "self")
    _check_indices(self_op, ops)
    value = _first(ops, "values")
    if value is not None and not value.neutral and value.device != self_op.device:
        if value.tensor.dim() == 0 and value.tensor.numel() == 1:
            return self_op.device
        raise mismatch(ITERATOR.format(self_op.device, value.device), value)
    return self_op.device


def _masked_fill(func, ops: list) -> Result:
    """Indexing.cu / TensorAdvancedIndexing.cpp `masked_fill__cuda|cpu`: the mask must be on self's
    device; a value tensor is read as a number (`value.item()`), from any device."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    self_op, mask = _first(ops, "self"), _first(ops, "mask")
    if mask is not None and not mask.neutral and mask.device != self_op.device:
        raise mismatch(MASK.format(mask.device, self_op.device), mask)
    return self_op.device


def _index_fill(func, ops: list) -> Result:
    """TensorAdvancedIndexing.cpp `index_fill_`: the index joins a TensorIterator with self (no CPU
    scalars); a value tensor is read as a number."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    self_op = _first(ops, "self")
    return check_tensor_iterator([self_op] + _named(ops, "index"), allow_scalars=False)


def _keeps_self(func, ops: list) -> Result:
    """copy_ (Copy.cpp: copies between any devices): the destination keeps its device."""
    return ops[0].device


def _set(func, ops: list) -> Result:
    """`self.set_(source)` makes self a view of source's storage (storages: see sim_dispatch)."""
    source = _first(ops, "source")
    return source.device if source is not None else ops[0].device


# c10::ScalarType's names, as PyTorch's messages print a scalar type (c10/core/ScalarType.h)
SCALAR_TYPE_NAMES = {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
                     torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char",
                     torch.uint8: "Byte", torch.bool: "Bool", torch.complex64: "ComplexFloat",
                     torch.complex128: "ComplexDouble"}


def scalar_type_name(dtype: torch.dtype) -> str:
    return SCALAR_TYPE_NAMES.get(dtype, str(dtype).replace("torch.", "").title())


def _type_string(t: torch.Tensor, device: torch.device) -> str:
    prefix = "torch." if device.type == "cpu" else f"torch.{device.type}."
    return f"{prefix}{scalar_type_name(t.dtype)}Tensor"


def _convolution(func, ops: list) -> Result:
    """Convolution.cpp `check_input_same_type_as_parameters`, the first check of `_convolution`."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    inp, weight, bias = _first(ops, "input"), _first(ops, "weight"), _first(ops, "bias")
    for role, param in (("weight", weight), ("bias", bias)):
        if inp is not None and param is not None and not param.neutral and param.device != inp.device:
            raise mismatch(CONV.format(_type_string(inp.tensor, inp.device), role,
                                       _type_string(param.tensor, param.device), role), param, operands=ops)
    return check_fake_tensor_rule(ops)


def _pack_padded(func, ops: list) -> Result:
    """PackedSequence.cpp `_pack_padded_sequence`: `checkLongTensor(lengths)` wants a 1D CPU int64
    tensor whatever the input's device; data stays with the input, batch_sizes are made with the
    lengths' options (a CPU tensor)."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    inp, lengths = ops[0], ops[1]
    if lengths.device.type != "cpu":
        t = lengths.tensor
        raise mismatch(LENGTHS.format(t.dim(), lengths.device, scalar_type_name(t.dtype)), lengths)
    return [inp.device, CPU]


def _foreach(func, ops: list) -> Result:
    """ForeachUtils.h: mixed devices take the slow path, one op per index, each with its own check."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    lists = {}
    for o in ops:
        if o.index >= 0:
            lists.setdefault(o.name, []).append(o)
    scalars = [o for o in ops if o.index < 0]
    if func._schema.name.startswith("aten::_foreach_copy"):
        return [o.device for o in next(iter(lists.values()), [])]
    devices = []
    columns = list(lists.values())
    allow = len(columns) + len(scalars) == 2
    for row in zip(*columns):
        devices.append(check_tensor_iterator(list(row) + scalars, allow_scalars=allow))
    return devices


def _delegate(target: str, rename: dict) -> Callable:
    """A CompositeExplicitAutograd op whose device check is its first callee's generated one
    (`embedding` -> `index_select` in Embedding.cpp, `stack` -> `cat` in TensorShape.cpp)."""
    def rule(func, ops: list) -> Result:
        __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
        info = op_registry.registry().get(target)
        renamed = [o._replace(name=rename.get(o.name, o.name)) for o in ops]
        if info is None:
            return check_fake_tensor_rule(renamed)
        return check_generated(info, renamed, is_out_fn=False)
    return rule


KERNEL_RULES: dict = {
    "where": _where,
    "index": _index, "_unsafe_index": _index,
    "index_put": _index_put, "index_put_": _index_put, "_index_put_impl_": _index_put, "_unsafe_index_put": _index_put,
    "masked_fill": _masked_fill, "masked_fill_": _masked_fill,
    "index_fill": _index_fill, "index_fill_": _index_fill,
    "copy_": _keeps_self, "_copy_from": _keeps_self, "_copy_from_and_resize": _keeps_self, "set_": _set,
    "convolution": _convolution, "_convolution": _convolution, "convolution_overrideable": _convolution,
    "_pack_padded_sequence": _pack_padded,
    "embedding": _delegate("index_select", {"weight": "self", "indices": "index"}),
    "stack": _delegate("cat", {}),
}
# Kernels with an argument that must be on the CPU, or a CPU result: their rule decides even when
# every tensor of the call is on one GPU (a call with one device otherwise needs no check).
# (`_pad_packed_sequence` is CompositeImplicitAutograd: the dispatcher sees its `full`, `empty`
# and `copy_`, see sim_dispatch `_settle_neutral`.)
HOST_ARGUMENT_RULES = frozenset({"_pack_padded_sequence"})


def result_device(func, ops: list) -> Result:
    """The device of the op's result, or PyTorch's exception for these operands on a GPU."""
    __tracebackhide__ = True  # pytest shows the user's call, not the simulation's
    base = func._schema.name.split("::", 1)[-1]
    rule = KERNEL_RULES.get(base)
    if rule is not None:
        return rule(func, ops)
    if base.startswith("_foreach_"):
        return _foreach(func, ops)
    info = _info(func)
    if info is None or not any(o.device.type == "cuda" for o in ops):
        return check_fake_tensor_rule(ops)
    if info.cuda_kernel and info.exact_check:
        return check_generated(info, ops, is_out_fn=any(o.is_out for o in ops))
    if info.tensor_iterator:
        return check_tensor_iterator(ops, allows_cpu_scalars(func))
    return check_fake_tensor_rule(ops)
