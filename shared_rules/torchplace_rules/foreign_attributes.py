"""Which parameters a function reads as some object other than a tensor.

`forward`'s un-annotated parameters are taken as tensors on the module's device (`flow.contexts`).
A body that reads an attribute or method `torch.Tensor` does not have from one (`graph.x`,
`batch.edge_index`, `data.is_inductive()`) says that the caller passes another object there (a
graph, a batch, a record): its `.to()` may work in place, its fields may be anywhere.
"""
from __future__ import annotations

import ast

from .syntax_nodes import own_nodes
from .tensor_attribute_names import TENSOR_ATTRIBUTES


def read_as_another_object(func: ast.AST, name: str) -> bool:
    """Does `func`'s body read a public attribute that no tensor has from `name`, a name it never
    rebinds?  Kept on the function node."""
    known = func.__dict__.get("_tp_foreign_reads")
    if known is None:
        known = func._tp_foreign_reads = _foreign_reads(func)
    return name in known


def _foreign_reads(func: ast.AST) -> frozenset:
    """One fast walk (`own_nodes`, nested code included): a nested function's parameter of the same
    name, like any other binding, counts as rebinding it."""
    foreign, stored = set(), set()
    own = set(map(id, func.args.posonlyargs + func.args.args + func.args.kwonlyargs))
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
    return frozenset(foreign - stored)
