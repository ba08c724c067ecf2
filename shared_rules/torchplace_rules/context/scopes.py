"""Where a node sits in the checked file: its enclosing function, class and block, whether the
file is a script or a test, and whether a piece of code mentions an accelerator at all.

Rules ask these questions only for the few findings they are about to report, so everything is
computed lazily, once per analysis (`FileContext` in `context/__init__.py` keeps the results).
"""
from __future__ import annotations

import ast
import os
from typing import Iterator, Optional

from ..flow.devices import ACCEL_TYPES
from ..syntax_nodes import child_fields, is_main_test
from ..syntax_nodes import scope_nodes as own_nodes  # noqa: F401  (the body walk context modules import from here)

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers")


def parent_map(tree: ast.AST) -> dict[int, ast.AST]:
    """id(child) -> parent, for every node of `tree` (breadth first, as `ast.walk` with
    `ast.iter_child_nodes`; fields that hold only names and numbers are never looked at, nor those
    that hold only the context and operator singletons every tree shares: `Load()` has no parent)."""
    parents: dict[int, ast.AST] = {}
    todo = [tree]
    push = todo.append
    for parent in todo:
        for name in child_fields(parent.__class__):
            value = getattr(parent, name, None)
            if value.__class__ is list:
                for child in value:
                    if isinstance(child, ast.AST):
                        parents[id(child)] = parent
                        push(child)
            elif isinstance(value, ast.AST):
                parents[id(value)] = parent
                push(value)
    return parents


def ancestors(parents: dict[int, ast.AST], node: ast.AST) -> Iterator[ast.AST]:
    current = parents.get(id(node))
    while current is not None:
        yield current
        current = parents.get(id(current))


def enclosing(parents: dict[int, ast.AST], node: ast.AST, kinds) -> Optional[ast.AST]:
    return next((a for a in ancestors(parents, node) if isinstance(a, kinds)), None)


def enclosing_statement(parents: dict[int, ast.AST], node: ast.AST) -> Optional[ast.stmt]:
    if isinstance(node, ast.stmt):
        return node
    return next((a for a in ancestors(parents, node) if isinstance(a, ast.stmt)), None)


def statement_blocks(tree: ast.AST) -> dict[int, list]:
    """id(statement) -> the statement list (`body`, `orelse`, `finalbody`) that holds it, for every
    statement of `tree`: what `containing_block` answers, without a parent map of every expression
    (statements sit only in such lists, of statements, `except` handlers and `case` clauses)."""
    blocks: dict[int, list] = {}
    todo = [tree]
    push = todo.append
    for node in todo:
        for name in _STATEMENT_LISTS:
            block = getattr(node, name, None)
            if block.__class__ is list:
                for stmt in block:
                    blocks[id(stmt)] = block
                    push(stmt)
        for clause in getattr(node, "handlers", None) or getattr(node, "cases", None) or ():
            push(clause)
    return blocks


_STATEMENT_LISTS = ("body", "orelse", "finalbody")


def containing_block(parents: dict[int, ast.AST], stmt: ast.stmt) -> Optional[list]:
    """The statement list (`body`, `orelse`, ...) that holds `stmt`."""
    owner = parents.get(id(stmt))
    if owner is None:
        return None
    for name in _BLOCK_FIELDS:
        block = getattr(owner, name, None)
        if isinstance(block, list) and any(s is stmt for s in block):
            return block
    return None


def top_level_functions(tree: ast.Module) -> dict:
    """The functions the module's body defines, by name (the last definition of a name; kept on the tree)."""
    known = tree.__dict__.get("_tp_top_functions")
    if known is None:
        known = tree._tp_top_functions = {s.name: s for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return known


def is_test_path(path: Optional[str]) -> bool:
    """A test module by pytest's and unittest's naming conventions."""
    if not path:
        return False
    name = os.path.basename(path)
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (alone or in a condition): the block that runs when the file is the program."""
    return isinstance(stmt, ast.If) and any(is_main_test(node) for node in ast.walk(stmt.test))


def is_script(tree: ast.Module) -> bool:
    """Code that runs as a program (a `__main__` guard, loops or calls at module level: scripts and
    notebooks, code that runs its own classes and functions at import) rather than a library of
    definitions that other code imports."""
    own = {s.name for s in tree.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    for stmt in tree.body:
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)) and stmt.value is not None and any(
                isinstance(n, ast.Call) and _root_name(n.func) in own for n in ast.walk(stmt.value)):
            return True
        if is_main_guard(stmt):
            return True
        if isinstance(stmt, (ast.For, ast.While, ast.AsyncFor, ast.With)):
            return True
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and _root_name(stmt.value.func) not in _LIBRARY_CALLS:
            return True
    return False


_LIBRARY_CALLS = {"warnings", "logging", "logger", "log", "os", "sys", "register", "__all__"}


def _root_name(func: ast.AST) -> Optional[str]:
    while isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)):
        func = func.value if not isinstance(func, ast.Call) else func.func
    return func.id if isinstance(func, ast.Name) else None


_ACCEL_WORDS = ("cuda", "gpu", "device", "accelerat")
_ACCEL_ATTRS = {"cuda", "mps", "xpu", "pin_memory"}


def mentions_accelerator(scope) -> bool:
    """Does this code (a node or a statement list) name an accelerator or a device at all: a device
    string, `.cuda()`, `.to(<not a dtype>)`, `device=`, `torch.cuda`, a name such as `device` or
    `use_gpu`?  Code without any of these never puts anything on a GPU itself."""
    nodes = ast.walk(scope) if isinstance(scope, ast.AST) else (n for s in scope for n in ast.walk(s))
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.split(":")[0].strip().lower() in ACCEL_TYPES:
                return True
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "to" and any(
                    not _is_dtype(a) for a in list(node.args) + [k.value for k in node.keywords if k.arg == "device"]):
                return True
        elif isinstance(node, ast.Attribute):
            if node.attr in _ACCEL_ATTRS or _has_accel_word(node.attr):
                return True
        elif isinstance(node, ast.Name):
            if _has_accel_word(node.id):
                return True
        elif isinstance(node, ast.keyword):
            if node.arg is not None and _has_accel_word(node.arg):
                return True
        elif isinstance(node, ast.arg):
            if _has_accel_word(node.arg):
                return True
    return False


def _is_dtype(node: ast.AST) -> bool:
    """`torch.float32`, `x.dtype`, `"cpu"`: arguments of `.to()` that do not name an accelerator."""
    if isinstance(node, ast.Attribute):
        return node.attr == "dtype" or (isinstance(node.value, ast.Name) and node.value.id in ("torch", "np", "numpy"))
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            return node.value.split(":")[0].strip().lower() not in ACCEL_TYPES
        return not isinstance(node.value, int) or isinstance(node.value, bool)  # `.to(0)` is cuda:0
    return False


def _has_accel_word(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _ACCEL_WORDS)
