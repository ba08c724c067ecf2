"""Which parameters a function reads as some object other than a tensor.

`forward`'s un-annotated parameters are taken as tensors on the module's device (`flow.contexts`).
A body that reads an attribute or method `torch.Tensor` does not have from one (`graph.x`,
`batch.edge_index`, `data.is_inductive()`) says that the caller passes another object there (a
graph, a batch, a record): its `.to()` may work in place, its fields may be anywhere.  The same holds
for a helper method the assumed tensor is handed to (`self.reset_data(graph)`), and for the methods
of the same object that one hands it on to (`self.preprocessing(data)` reads `data.x`).
"""
from __future__ import annotations

import ast

from .syntax_nodes import own_nodes
from .tensor_attribute_names import TENSOR_ATTRIBUTES

# how many methods deep a parameter is followed where it is handed on (`self.a(x)` -> `self.b(x)`)
_HANDED_DEPTH = 3


def read_as_another_object(func: ast.AST, name: str) -> bool:
    """Does `func`'s body read a public attribute that no tensor has from `name`, a name it never
    rebinds?  Kept on the function node."""
    return name in _reads(func)[0]


def handed_as_another_object(func: ast.AST, name: str, cls, depth: int = _HANDED_DEPTH) -> bool:
    """Is parameter `name` of `func` read as another object by `func`, or by a method of the same
    object (`cls`, a ClassInfo, None for a plain function) that `func` hands it to unchanged
    (`self.prep(name)`, `self.prep(data=name)`), followed a few methods deep?"""
    foreign, handed = _reads(func)
    if name in foreign:
        return True
    if cls is None or depth <= 0:
        return False
    for method, key, arg in handed:
        if arg != name:
            continue
        found = cls.find_method(method)
        if found is None:
            continue
        param = _parameter_at(found[0], key)
        if param is not None and handed_as_another_object(found[0], param, cls, depth - 1):
            return True
    return False


def _parameter_at(method: ast.AST, key):
    """The parameter of `method` a call through `self` binds at position `key` (an int, after
    `self`) or keyword `key`; None when the signature does not say."""
    a = method.args
    names = [p.arg for p in a.posonlyargs + a.args]
    static = any(getattr(d, "id", None) == "staticmethod" for d in method.decorator_list)
    if not static:
        names = names[1:]
    if key.__class__ is int:
        return names[key] if key < len(names) else None
    return key if key in names or key in [p.arg for p in a.kwonlyargs] else None


def _reads(func: ast.AST) -> tuple:
    """(names read as another object, (method, position or keyword, name) of each name handed to a
    method of `self`); kept on the function node."""
    known = func.__dict__.get("_tp_foreign_reads")
    if known is None:
        known = func._tp_foreign_reads = _foreign_reads(func)
    return known


def _foreign_reads(func: ast.AST) -> tuple:
    """One fast walk (`own_nodes`, nested code included): a nested function's parameter of the same
    name, like any other binding, counts as rebinding it."""
    foreign, stored, handed = set(), set(), []
    params = func.args.posonlyargs + func.args.args
    own = set(map(id, params + func.args.kwonlyargs))
    receiver = params[0].arg if params else None
    for node in own_nodes(func):
        cls = node.__class__
        if cls is ast.Attribute:
            value = node.value
            if value.__class__ is ast.Name and node.attr[0] != "_" and node.attr not in TENSOR_ATTRIBUTES:
                foreign.add(value.id)
        elif cls is ast.Name:
            if node.ctx.__class__ is not ast.Load:
                stored.add(node.id)  # also a loop or `with` target, `+=`, `del`
        elif cls is ast.arg and id(node) not in own:
            stored.add(node.arg)
        elif cls is ast.Call and receiver is not None:
            callee = node.func
            if callee.__class__ is ast.Attribute and callee.value.__class__ is ast.Name and callee.value.id == receiver:
                handed.extend(_handed_names(node))
    return frozenset(foreign - stored), tuple(h for h in handed if h[2] not in stored)


def _handed_names(call: ast.Call) -> list:
    """(method, position or keyword, name) for each plain name `self.method(...)` passes."""
    out = []
    method = call.func.attr
    for i, arg in enumerate(call.args):
        if arg.__class__ is ast.Starred:
            break
        if arg.__class__ is ast.Name:
            out.append((method, i, arg.id))
    for kw in call.keywords:
        if kw.arg is not None and kw.value.__class__ is ast.Name:
            out.append((method, kw.arg, kw.value.id))
    return out
