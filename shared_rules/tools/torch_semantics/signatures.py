"""Python-level parameter lists for callables that are not plain ATen bindings.

Python functions (torch.functional, torch.nn.functional, Tensor methods in torch/_tensor.py)
give theirs through `inspect.signature` and their annotations; hand-bound builtins (`torch.tensor`,
`Tensor.to`, `Tensor.__getitem__` ...) through torch's own `.pyi` stubs, read with `ast`.
Both become [(name, kind, keyword_only, has_default)] with the kinds of aten.type_kind; a
`*args` parameter keeps its star in the name.
"""
from __future__ import annotations

import ast
import inspect
import os
import re
from functools import lru_cache

import torch

_TORCH_DIR = os.path.dirname(torch.__file__)
STUBS = {"torch": "_C/_VariableFunctions.pyi", "Tensor": "_C/__init__.pyi", "nn": "_C/_nn.pyi"}


def annotation_kind(text: str, name: str = "") -> str:
    """Map an annotation ("Tensor | None", "list[Tensor]", "BroadcastingList2[int]", "_float") to a kind."""
    t = text.replace("typing.", "").replace("torch.", "").replace(" ", "")
    if not t or t in ("Any", "inspect._empty", "<class'inspect._empty'>"):
        return "other"
    is_seq = bool(re.search(r"(list|List|Sequence|tuple|Tuple|Iterable)\[", t))
    if "Tensor" in _top_level(t):  # `Tensor | list[int]`: a tensor is one of the choices
        return "tensor?" if "None" in _top_level(t) else "tensor"
    if "Tensor" in t and "TensorOrTensors" not in t:
        if is_seq:
            return "tensors"
        return "tensor?" if ("None" in t or "Optional" in t) else "tensor"
    if "TensorOrTensors" in t:
        return "tensors"
    if re.search(r"(BroadcastingList\d|_size|Size)", t) or (is_seq and "int" in t):
        return "ints"
    if is_seq and "float" in t:
        return "floats"
    if re.search(r"\b_?dtype\b|DType", t):
        return "dtype"
    if re.search(r"[Dd]evice", t):
        return "device"
    if "Generator" in t:
        return "generator"
    if re.search(r"Number|_complex|complex", t) or ("int" in t and "float" in t):
        return "scalar"
    core = t.replace("|None", "").replace("Optional[", "").rstrip("]")
    simple = {"float": "float", "_float": "float", "int": "int", "_int": "int", "SymInt": "int", "bool": "bool",
              "_bool": "bool", "str": "str", "layout": "layout", "_layout": "layout", "memory_format": "memory_format"}
    return simple.get(core, "other")


def _top_level(annotation: str) -> set[str]:
    """The alternatives of a union at the top level: "Tensor|list[int]" -> {"Tensor", "list[int]"}."""
    parts, depth, current = set(), 0, ""
    for ch in annotation:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.add(current)
            current = ""
        else:
            current += ch
    parts.add(current)
    if len(parts) == 1 and annotation.startswith(("Optional[", "Union[")):
        return {p.strip() for p in annotation[annotation.index("[") + 1:-1].split(",")} | {"None"} \
            if annotation.startswith("Optional[") else {p.strip() for p in annotation[6:-1].split(",")}
    return parts


def from_signature(func) -> list[tuple[str, str, bool, bool]] | None:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            continue
        ann = p.annotation if isinstance(p.annotation, str) else inspect.formatannotation(p.annotation)
        kind = annotation_kind(ann, p.name)
        if p.kind is p.VAR_POSITIONAL:  # `*tensors`: the name keeps the star
            params.append(("*" + p.name, "tensors" if kind in ("tensor", "tensors", "other") else kind, False, True))
            continue
        params.append((p.name, kind, p.kind is p.KEYWORD_ONLY, p.default is not p.empty))
    return params


@lru_cache(maxsize=None)
def _stub_defs(stub: str) -> dict[str, list[ast.FunctionDef]]:
    """{name: [def, ...]} of the top-level functions (or TensorBase methods) of a stub file."""
    tree = ast.parse(open(os.path.join(_TORCH_DIR, STUBS[stub]), encoding="utf-8").read())
    body = tree.body
    if stub == "Tensor":
        body = next(n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "TensorBase")
    defs: dict[str, list[ast.FunctionDef]] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef):
            defs.setdefault(node.name, []).append(node)
    return defs


def from_stub(stub: str, name: str, method: bool) -> list[list[tuple[str, str, bool, bool]]]:
    """One parameter list per overload that the stub declares for `name`."""
    overloads = []
    for node in _stub_defs(stub).get(name, []):
        a = node.args
        positional = a.posonlyargs + a.args
        if method and positional and positional[0].arg == "self":
            positional = positional[1:]
        defaults = [None] * (len(a.posonlyargs + a.args) - len(a.defaults)) + list(a.defaults)
        defaults = defaults[len(a.posonlyargs + a.args) - len(positional):]
        params = [(p.arg, annotation_kind(ast.unparse(p.annotation) if p.annotation else "", p.arg), False, d is not None)
                  for p, d in zip(positional, defaults)]
        if a.vararg is not None:
            ann = ast.unparse(a.vararg.annotation) if a.vararg.annotation else ""
            kind = annotation_kind(ann)
            params.append(("*" + a.vararg.arg, "tensors" if kind in ("tensor", "tensors") else kind, False, True))
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            params.append((p.arg, annotation_kind(ast.unparse(p.annotation) if p.annotation else "", p.arg), True, d is not None))
        overloads.append(params)
    return overloads
