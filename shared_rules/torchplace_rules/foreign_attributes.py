"""Which parameters a function reads as some object other than a tensor.

`forward`'s un-annotated parameters are taken as tensors on the module's device (`flow.contexts`).
A body that reads an attribute or method `torch.Tensor` does not have from one (`graph.x`,
`batch.edge_index`, `data.is_inductive()`) says that the caller passes another object there (a
graph, a batch, a record): its `.to()` may work in place, its fields may be anywhere.
"""
from __future__ import annotations

import ast

from .tensor_attribute_names import TENSOR_ATTRIBUTES

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def read_as_another_object(func: ast.AST, name: str) -> bool:
    """Does `func`'s own body (not nested functions or classes) read a public attribute that no
    tensor has from `name`, a name it never rebinds?  Kept on the function node."""
    known = func.__dict__.get("_tp_foreign_reads")
    if known is None:
        known = func._tp_foreign_reads = _foreign_reads(func)
    return name in known


def _foreign_reads(func: ast.AST) -> frozenset:
    foreign, stored = set(), set()
    todo = list(func.body)
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and not node.attr.startswith("_") and node.attr not in TENSOR_ATTRIBUTES:
            foreign.add(node.value.id)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stored.add(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return frozenset(foreign - stored)
