"""The code one test runs, out of its test module: what "does this test name an accelerator" reads.

A test module often holds CPU tests next to tests that set up other machinery (a fixture for a
distributed or accelerator library, another test's helper).  pytest runs each test function with its
own fixtures: the test itself (decorators included, so `parametrize("device", ...)` counts), the
module's statements, its class's statements and non-test methods (`setUp`), the module's helper
functions and classes, the fixtures it requests by parameter or `usefixtures` (and those they request)
and the autouse ones.  Other test functions, and fixtures nobody of these requests, never run for it.
"""
from __future__ import annotations

import ast
from typing import Optional

from .scopes import enclosing

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def enclosing_test(parents: dict[int, ast.AST], node: ast.AST) -> Optional[ast.AST]:
    """The outermost function around `node` whose name marks it as a test (`test...`), at module level
    or in a class at module level; None when `node` is not inside one."""
    found, func = None, enclosing(parents, node, _DEFS)
    while func is not None:
        if func.name.startswith("test"):
            found = func
        func = enclosing(parents, func, _DEFS)
    if found is None:
        return None
    owner = parents.get(id(found))
    if isinstance(owner, ast.ClassDef):
        owner = parents.get(id(owner))
    return found if isinstance(owner, ast.Module) else None


def code_of_test(tree: ast.Module, parents: dict[int, ast.AST], test: ast.AST) -> list[ast.AST]:
    """The nodes `test` runs with: everything of the module except the other tests and the fixtures
    that neither it nor a fixture it uses requests (and that are not autouse)."""
    fixtures = {}
    for holder in [tree] + [s for s in tree.body if isinstance(s, ast.ClassDef)]:
        for stmt in holder.body:
            name = _fixture_name(stmt)
            if name is not None:
                fixtures.setdefault(name, []).append(stmt)
    owner = parents.get(id(test))
    wanted = _requested(test) | (_requested(owner) if isinstance(owner, ast.ClassDef) else set())
    for stmt in tree.body:  # `pytestmark = pytest.mark.usefixtures(...)`
        if not isinstance(stmt, (ast.ClassDef,) + _DEFS):
            wanted |= _marked(ast.walk(stmt))
    used, todo = set(), list(wanted)
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        for fixture in fixtures.get(name, ()):
            todo.extend(_requested(fixture))
    kept: list[ast.AST] = []
    for holder in [tree] + [s for s in tree.body if isinstance(s, ast.ClassDef)]:
        for stmt in holder.body:
            if isinstance(stmt, ast.ClassDef) and holder is tree:
                kept.extend(stmt.decorator_list + stmt.bases + stmt.keywords)
                continue
            if stmt is test or not isinstance(stmt, _DEFS):
                kept.append(stmt)
            elif _fixture_name(stmt) is not None:
                if _fixture_name(stmt) in used or _autouse(stmt):
                    kept.append(stmt)
            elif not stmt.name.startswith("test"):
                kept.append(stmt)
    return kept


def _fixture_name(stmt: ast.stmt) -> Optional[str]:
    """The name a pytest fixture is requested by (`@pytest.fixture(name=...)` or the function's)."""
    if not isinstance(stmt, _DEFS):
        return None
    for deco in stmt.decorator_list:
        call = deco if isinstance(deco, ast.Call) else None
        func = call.func if call is not None else deco
        if (func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)) == "fixture":
            named = [k.value.value for k in (call.keywords if call else ()) if k.arg == "name"
                     and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)]
            return named[0] if named else stmt.name
    return None


def _autouse(stmt: ast.AST) -> bool:
    return any(isinstance(d, ast.Call) and any(k.arg == "autouse" and not (
        isinstance(k.value, ast.Constant) and k.value.value is False) for k in d.keywords) for d in stmt.decorator_list)


def _requested(node: ast.AST) -> set[str]:
    """Fixture names `node` (a test, a fixture or a test class) asks for: its parameters and the
    strings of its `usefixtures(...)` marks."""
    names = set()
    if isinstance(node, _DEFS):
        names = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
    return names | _marked(getattr(node, "decorator_list", ()))


def _marked(nodes) -> set[str]:
    """The fixture names of the `usefixtures("a", "b")` calls among `nodes`."""
    return {a.value for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "usefixtures" for a in n.args if isinstance(a, ast.Constant) and isinstance(a.value, str)}
