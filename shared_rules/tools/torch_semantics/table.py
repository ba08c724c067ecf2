"""The whole table: every public callable of the covered namespaces, the nn module model,
and the names left out with the reason why."""
from __future__ import annotations

import inspect

import torch
import torch.nn.functional  # noqa: F401 - a namespace the table covers

from . import bindings, modules
from .contracts import GENERATOR_RULE, PYTORCH

FORMAT = 1
NAMESPACES = ("torch", "torch.nn.functional", "torch.linalg", "torch.special", "torch.fft")
# Callables outside those namespaces with a contract of their own.
EXTRA_FUNCTIONS = ("torch.nn.utils.rnn.pack_padded_sequence", "torch.nn.utils.rnn.pad_sequence")
# Python operator methods of Tensor and the ATen method each runs.
DUNDERS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__rsub__": "rsub",
    "__isub__": "sub_", "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div",
    "__itruediv__": "div_", "__floordiv__": "floor_divide", "__ifloordiv__": "floor_divide_",
    "__mod__": "remainder", "__imod__": "remainder_", "__pow__": "pow", "__ipow__": "pow_", "__matmul__": "matmul",
    "__eq__": "eq", "__ne__": "ne", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge",
    "__and__": "__and__", "__or__": "__or__", "__xor__": "__xor__", "__iand__": "__iand__", "__ior__": "__ior__",
    "__ixor__": "__ixor__", "__lshift__": "__lshift__", "__rshift__": "__rshift__", "__neg__": "neg",
    "__abs__": "abs", "__invert__": "bitwise_not",
}
INDEXING = ("__getitem__", "__setitem__")
_NOT_OPERATORS = ("typing", "collections.abc", "builtins", "torch._jit_internal", "torch.overrides", "torch._C")


def _resolve(qual: str):
    module, _, name = qual.rpartition(".")
    obj = torch
    for part in module.split(".")[1:]:
        obj = getattr(obj, part)
    return getattr(obj, name)


def public_callables() -> tuple[dict[str, object], dict[str, object]]:
    """({qualified function name: object}, {Tensor method name: object}) the table must cover."""
    functions = {}
    for ns in NAMESPACES:
        space = _resolve(ns) if ns != "torch" else torch
        for name in dir(space):
            obj = getattr(space, name)
            if not name.startswith("_") and callable(obj):
                functions[f"{ns}.{name}"] = obj
    methods = {}
    for name in dir(torch.Tensor):
        obj = getattr(torch.Tensor, name)
        if callable(obj) and (not name.startswith("_") or name in DUNDERS or name in INDEXING):
            methods[name] = obj
    return functions, methods


def _exclusion(qual: str, obj) -> str | None:
    """Why a public name is not an operator the analysis needs (None: it is one)."""
    if isinstance(obj, type):
        if issubclass(obj, BaseException):
            return "an exception class"
        return f"a class ({obj.__module__}), not an operator"
    module = getattr(obj, "__module__", None) or ""
    if qual.startswith("torch.nn.functional.") and module in _NOT_OPERATORS:
        return f"a helper re-exported from {module}, not a functional"
    if type(obj).__name__ == "OpOverloadPacket":
        return "a TorchScript operator packet (torch.ops), not a Python API"
    return None


def _generator_record() -> list[dict]:
    # torch.Generator(device='cpu'): a generator lives on its device; see GENERATOR_RULE.
    return [{"params": [["device", "device", "o", ""]], "result": "generator", "returns": "?",
             "src": f"contract: {GENERATOR_RULE}"}]


def build() -> dict:
    torch.manual_seed(0)  # sample values are random; the same seed gives the same table
    functions_in, methods_in = public_callables()
    functions, methods, excluded = {}, {}, {}
    for qual, obj in sorted(functions_in.items()):
        if qual == "torch.Generator":
            functions[qual] = _generator_record()
            continue
        reason = _exclusion(qual, obj)
        records = None if reason else bindings.records_for(qual, obj, method=False)
        if records:
            functions[qual] = records
        else:
            excluded[qual] = reason or "no schema, stub or signature describes it"
    for qual in EXTRA_FUNCTIONS:
        functions[qual] = bindings.records_for(qual, _resolve(qual), method=False)
    for name, obj in sorted(methods_in.items()):
        records = _method_records(name, obj)
        if records:
            methods[name] = records
        else:
            excluded[f"Tensor.{name}"] = "no schema, stub or signature describes it"
    return {
        "format": FORMAT,
        "torch": torch.__version__.split("+")[0],
        "source": PYTORCH,
        "functions": functions,
        "methods": methods,
        "modules": modules.build_modules(),
        "excluded": excluded,
    }


def _method_records(name: str, obj) -> list[dict] | None:
    qual = f"Tensor.{name}"
    if name in DUNDERS:
        aten_name = DUNDERS[name]
        target = getattr(torch.Tensor, aten_name, None)
        records = bindings.records_for(f"Tensor.{aten_name}", target, method=True) if target is not None else None
        return records
    if inspect.isfunction(obj) or inspect.ismethoddescriptor(obj) or inspect.isbuiltin(obj) \
            or type(obj).__name__ in ("method_descriptor", "wrapper_descriptor"):
        return bindings.records_for(qual, obj, method=True)
    return None
