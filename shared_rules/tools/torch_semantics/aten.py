"""ATen operator facts read from the installed torch's own `native_functions.yaml`.

torchgen (shipped in the torch wheel) parses the yaml exactly as PyTorch's build does.
From it we learn, per overload, how the generated CUDA wrapper checks devices:

- `exact`: the op has a CUDA kernel and the default `device_check: ExactSame`; torchgen's
  `RegisterDispatchKey.gen_device_check` then emits `check_and_update_common_device` for every
  positional tensor argument and `out=` (torchgen/dest/register_dispatch_key.py). That check
  has no 0-dim exemption: a 0-dim CPU tensor there raises like any other CPU tensor.
- `iterator`: a CUDA kernel with `device_check: NoCheck` whose structured kernel inherits
  `TensorIteratorBase`: TensorIterator's `compute_types` checks devices and lets one 0-dim
  CPU input through (`max_cpu_scalars_on_non_cpu`, aten/src/ATen/TensorIterator.cpp).
- `kernel`: a CUDA kernel with `NoCheck` that is not a TensorIterator: the kernel checks
  (hand-read entries in `contracts.py`, else unknown).
- `composite`: no CUDA kernel of its own; it runs other ops (derived by tracing, else unknown).
- `none`: neither a CUDA kernel nor a composite (CPU-only or other backends).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import torchgen
from torchgen.api.python import signature
from torchgen.gen import parse_native_yaml
from torchgen.model import BaseTy, BaseType, DeviceCheckType, DispatchKey, ListType, NativeFunction, OptionalType, Type

YAML_DIR = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")

# ATen argument base types -> the table's parameter kinds.
_BASE_KINDS = {
    BaseTy.Tensor: "tensor", BaseTy.Scalar: "scalar", BaseTy.int: "int", BaseTy.SymInt: "int",
    BaseTy.float: "float", BaseTy.bool: "bool", BaseTy.str: "str", BaseTy.ScalarType: "dtype",
    BaseTy.Device: "device", BaseTy.Layout: "layout", BaseTy.MemoryFormat: "memory_format",
    BaseTy.Generator: "generator", BaseTy.Storage: "storage", BaseTy.Stream: "stream", BaseTy.SymBool: "bool",
    BaseTy.DeviceIndex: "int",
}
_LIST_KINDS = {"tensor": "tensors", "int": "ints", "float": "floats", "bool": "bools", "dimname": "dimnames",
               "scalar": "scalars", "tensor?": "tensors?"}


def type_kind(t: Type) -> str:
    """`Tensor` -> tensor, `Tensor?` -> tensor?, `Tensor[]` -> tensors, `Tensor?[]` -> tensors?,
    `Scalar` -> scalar (a 0-dim tensor passed there is read as a number), `SymInt[]` -> ints ..."""
    if isinstance(t, OptionalType):
        inner = type_kind(t.elem)
        return "tensor?" if inner == "tensor" else inner
    if isinstance(t, ListType):
        return _LIST_KINDS.get(type_kind(t.elem), "other")
    if isinstance(t, BaseType):
        return _BASE_KINDS.get(t.name, "other")
    return "other"


def python_name(name: str, method: bool) -> str:
    """torch's Python binding calls a function's `self` `input` (a method's is the receiver)."""
    return "input" if name == "self" and not method else name


def default_role(check: str, kwarg_only: bool, is_out: bool, written: bool = False) -> str:
    """The role a tensor argument gets from its operator's check class (contracts.py).
    `written`: the op writes into it (`out=`, an in-place op's `Tensor(a!) self`)."""
    if check == "exact":  # the wrapper checks positional tensors and out=, not other kwargs
        return "s" if not kwarg_only or is_out else "?"
    if check == "iterator":
        # TensorIteratorBase::compute_types exempts a 0-dim CPU operand only when it is no output
        # (`!op.is_output`, aten/src/ATen/TensorIterator.cpp): `cpu_0dim.add_(cuda)` raises
        return "s" if is_out or written else "s1"
    return "?"


@dataclass(frozen=True)
class AtenOp:
    """One ATen overload (functional or in-place; `out=` overloads are folded into them)."""
    func: NativeFunction
    check: str  # exact | iterator | kernel | composite | none
    has_out: bool  # an `.out` overload with the same inputs exists: the Python binding takes out=

    @property
    def name(self) -> str:
        return str(self.func.func.name)

    @property
    def base(self) -> str:
        return str(self.func.func.name.name)

    def python_args(self, method: bool) -> list[tuple[str, str, bool, bool]]:
        """[(name, kind, keyword_only, has_default)] as torch's Python binding spells them
        (torchgen.api.python: `self` is `input` for functions; dtype/layout/device/pin_memory/
        requires_grad for factories)."""
        try:
            sig = signature(self.func, method=method)
        except ValueError:  # a hand-bound method such as requires_grad_: the schema as written
            return self._schema_args(method)
        out = []
        for a in sig.input_args:
            name = python_name(a.name, method) if type_kind(a.type) in ("tensor", "scalar") else a.name
            out.append((name, type_kind(a.type), False, a.default is not None))
        for a in sig.input_kwargs:
            out.append((a.name, type_kind(a.type), True, a.default is not None))
        for a in sig.tensor_options_args:
            kind = {"dtype": "dtype", "layout": "layout", "device": "device", "pin_memory": "bool",
                    "requires_grad": "bool"}.get(a.name, type_kind(a.type))
            out.append((a.name, kind, True, True))
        if self.has_out and self.func.func.kind().name == "functional":
            out.append(("out", "tensor?" if len(self.func.func.returns) == 1 else "tensors?", True, True))
        return out

    def _schema_args(self, method: bool) -> list[tuple[str, str, bool, bool]]:
        args = self.func.func.arguments
        out = []
        for a in args.flat_positional:
            if a.name == "self" and method:
                continue
            out.append((python_name(a.name, method), type_kind(a.type), False, a.default is not None))
        out += [(a.name, type_kind(a.type), True, a.default is not None) for a in args.flat_kwarg_only]
        return out

    def checked_positional(self) -> set[str]:
        """Names of the tensor arguments the generated CUDA wrapper checks (ExactSame)."""
        return {a.name for a in self.func.func.arguments.flat_positional if a.type.is_tensor_like()}

    def returns(self) -> str:
        """T: one tensor, T*: several tensors or a list, N: number, B: bool, -: nothing, ?: other."""
        rets = self.func.func.returns
        if not rets:
            return "-"
        kinds = [type_kind(r.type) for r in rets]
        if all(k in ("tensor", "tensor?") for k in kinds):
            return "T" if len(kinds) == 1 else "T*"
        if len(kinds) == 1 and kinds[0] in ("tensors", "tensors?"):
            return "T*"
        if len(kinds) == 1 and kinds[0] in ("scalar", "int", "float", "ints", "floats"):
            return "N"
        if kinds == ["bool"]:
            return "B"
        return "?"

    @property
    def inplace(self) -> bool:
        return self.func.func.name.name.inplace


_CHECKS: dict[str, str] = {}


def check(overload: str) -> str:
    """The CUDA device-check class of any ATen overload ("add.Tensor", "_log_softmax", "cat.out");
    "?" for operators that are not in native_functions.yaml."""
    load()
    return _CHECKS.get(overload, "?")


@lru_cache(maxsize=1)
def load() -> dict[str, list[AtenOp]]:
    """{python-visible base name (module-prefixed for nn/linalg/special/fft): [AtenOp]}."""
    parsed = parse_native_yaml(os.path.join(YAML_DIR, "native_functions.yaml"), os.path.join(YAML_DIR, "tags.yaml"))
    cuda = parsed.backend_indices[DispatchKey.CUDA]
    by_name = {str(f.func.name): f for f in parsed.native_functions}
    out_inputs = set()
    for f in parsed.native_functions:
        if f.func.kind().name == "out":
            non_out = tuple((a.name, str(a.type)) for a in f.func.arguments.flat_non_out)
            out_inputs.add((str(f.func.name.name.base), non_out))

    def delegate(f: NativeFunction) -> NativeFunction:
        return by_name[str(f.structured_delegate)] if f.structured_delegate is not None else f

    def check_of(f: NativeFunction) -> str:
        leaf = cuda.has_kernel(f) or (f.structured_delegate is not None and cuda.has_kernel(delegate(f)))
        if leaf:
            if f.device_check == DeviceCheckType.ExactSame:
                return "exact"
            return "iterator" if delegate(f).structured_inherits == "TensorIteratorBase" else "kernel"
        if f.has_composite_implicit_autograd_kernel or f.has_composite_explicit_autograd_kernel \
                or f.has_composite_explicit_autograd_non_functional_kernel:
            return "composite"
        return "none"

    _CHECKS.update({str(f.func.name): check_of(f) for f in parsed.native_functions})
    ops: dict[str, list[AtenOp]] = {}
    for f in parsed.native_functions:
        if f.func.kind().name == "out" or f.func.name.name.base.startswith("_"):
            continue
        non_out = tuple((a.name, str(a.type)) for a in f.func.arguments.flat_non_out)
        has_out = (str(f.func.name.name.base), non_out) in out_inputs
        key = str(f.func.name.name)
        if f.python_module is not None:
            key = f"{f.python_module}:{key}"
        ops.setdefault(key, []).append(AtenOp(f, check_of(f), has_out))
    return ops


def find(python_name: str, module: str | None, method: bool) -> list[AtenOp]:
    """The ATen overloads a Python builtin binds: `torch.add` (module None), `Tensor.add`
    (method), `torch._C._nn.linear` (module "nn"), `torch.linalg.norm` (`linalg_norm`)."""
    key = python_name if module is None else f"{module}:{python_name}"
    ops = load().get(key, [])
    variant = "method" if method else "function"
    return [op for op in ops if variant in {v.name for v in op.func.variants}]
