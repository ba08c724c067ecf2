"""Code that cannot run without a CUDA GPU because of a fixed device it names (review19a's S7).

`model.to(device)` with `device` a CUDA device written in the code (`"cuda:0"`, `torch.device("cuda")`,
or a name its scope binds only to one) raises on a machine without CUDA, as `.cuda()` does: a block
holding one unconditionally runs only with a GPU (`device_choice.before_an_unconditional_cuda_call`
reads `moves_to_fixed_cuda` next to `.cuda()`).  The body of a loop over `range(torch.cuda.device_count())`
(or over a name bound only to that count) runs no time without one.
"""
from __future__ import annotations

import ast
from typing import Optional

from .scopes import ancestors


_CONDITIONAL = (ast.IfExp, ast.BoolOp, ast.Lambda, ast.comprehension, ast.ListComp, ast.SetComp, ast.DictComp,
                ast.GeneratorExp)


def unconditional_calls(stmt: ast.AST):
    """The calls `stmt` makes whenever it runs (not under a conditional expression, a short-circuit, a lambda
    or a comprehension)."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, _CONDITIONAL):
            continue
        if node.__class__ is ast.Call:
            yield node
        stack.extend(ast.iter_child_nodes(node))


def moves_to_fixed_cuda(stmt: ast.AST, scope) -> bool:
    """Does `stmt` call `.to(d)` / `.to(device=d)` with `d` a fixed CUDA device whenever it runs?  `scope`: the
    `Scope` of the function (or module) holding `stmt`, for names (None: literals only)."""
    for call in unconditional_calls(stmt):
        if call.func.__class__ is ast.Attribute and call.func.attr == "to":
            target = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
            if target is not None and _fixed_cuda(target, scope):
                return True
    return False


def in_loop_over_cuda_devices(parents: dict, node: ast.AST, scope) -> bool:
    """Is `node` in the body of `for i in range(torch.cuda.device_count())` (or `range(n)`, `n` bound only
    to that count), within its function?"""
    child = node
    for parent in ancestors(parents, node):
        if parent.__class__ is ast.For and child is not parent.iter and child not in parent.orelse \
                and _range_of_cuda_count(parent.iter, scope):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        child = parent
    return False


def _fixed_cuda(node: ast.AST, scope) -> bool:
    if _cuda_literal(node):
        return True
    return node.__class__ is ast.Name and _bound_only_to(node.id, scope, _cuda_literal)


def _cuda_literal(node: ast.AST) -> bool:
    """`"cuda"`, `"cuda:0"`, `torch.device("cuda")`, `torch.device("cuda", 0)`."""
    if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == "device" \
            and node.func.value.__class__ is ast.Name and node.func.value.id == "torch" and node.args:
        node = node.args[0]
    return node.__class__ is ast.Constant and isinstance(node.value, str) \
        and (node.value == "cuda" or node.value.startswith("cuda:"))


def _range_of_cuda_count(iterable: ast.AST, scope) -> bool:
    if not (iterable.__class__ is ast.Call and iterable.func.__class__ is ast.Name and iterable.func.id == "range"
            and len(iterable.args) == 1 and not iterable.keywords):
        return False
    n = iterable.args[0]
    return _cuda_count(n) or n.__class__ is ast.Name and _bound_only_to(n.id, scope, _cuda_count)


def _cuda_count(node: ast.AST) -> bool:
    """`torch.cuda.device_count()`."""
    func = node.func if node.__class__ is ast.Call else None
    return func.__class__ is ast.Attribute and func.attr == "device_count" and func.value.__class__ is ast.Attribute \
        and func.value.attr == "cuda" and func.value.value.__class__ is ast.Name and func.value.value.id == "torch"


def _bound_only_to(name: str, scope: Optional[object], test) -> bool:
    """Does the scope bind `name` (not a parameter, no loop or `with` target) only to values `test` accepts?"""
    if scope is None or name in scope.params:
        return False
    values = scope.bindings.get(name)
    if not values or not all(test(value) for _, value in values):
        return False
    return not any(n.__class__ in (ast.For, ast.AsyncFor) and any(t.__class__ is ast.Name and t.id == name
                                                                  for t in ast.walk(n.target))
                   or n.__class__ is ast.AugAssign and n.target.__class__ is ast.Name and n.target.id == name
                   for n in scope.nodes)
