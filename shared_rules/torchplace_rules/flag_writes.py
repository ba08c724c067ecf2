"""May something rebind a module-level flag a function reads (`GPU = True` ... `def f(): if GPU:`)?

A function runs after the module's own code and after its importers ran theirs, so a flag bound to a
literal at module level decides the function's test only where no code may bind it again: a `global`
statement in the flag's module, an attribute write `mod.GPU = ...` (or `setattr`) in that module, the
checked file or a file that imports the module, or a local of the same name in the function.  Text
scans, cheap and on the cautious side (`self.GPU = ...` anywhere counts too).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Optional

_GLOBAL_STATEMENT = re.compile(r"^[ \t]*(?:[^#\n]*;[ \t]*)?global[ \t]", re.M)
MAX_IMPORTERS = 40  # importers read for writes; more: taken as rebinding it


def declares_global(text: str) -> bool:
    """Does a `global` statement appear in this source (a function that may rebind module names)?"""
    return "global" in text and _GLOBAL_STATEMENT.search(text) is not None


def binds_locally(func: Optional[ast.AST], name: str) -> bool:
    """Does `func` (or a function nested in it) bind `name` (a parameter, an assignment, a loop
    target, an import, `global`/`nonlocal`)?  Then its `name` need not be the module's."""
    if func is None:
        return True
    bound = getattr(func, "_tp_bound_names", None)
    if bound is None:
        bound = set()
        for node in ast.walk(func):
            if node.__class__ is ast.Name and node.ctx.__class__ is not ast.Load:
                bound.add(node.id)
            elif node.__class__ is ast.arg:
                bound.add(node.arg)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                bound.update(node.names)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                bound.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not func:
                bound.add(node.name)
        func._tp_bound_names = bound = frozenset(bound)
    return name in bound


def writes_attribute(text: str, name: str) -> bool:
    """Does `text` bind `<something>.name` (`settings.GPU = False`, `cfg.GPU |= x`) or call `setattr`
    with the name?"""
    if name not in text:
        return False
    pattern = re.compile(r"\.[ \t]*" + re.escape(name) + r"[ \t]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)")
    return pattern.search(text) is not None or re.search(r"setattr\([^)]*['\"]" + re.escape(name) + r"['\"]", text) is not None


def flag_may_be_rebound(project, home: Optional[Path], home_text: Optional[str], checked_text: str, name: str) -> bool:
    """The flag `name` of the module `home` (text `home_text`): may code other than its module-level
    binding rebind it before a function of the checked file reads it?"""
    if home_text is None or declares_global(home_text):
        return True
    if writes_attribute(home_text, name) or writes_attribute(checked_text, name):
        return True
    if project is None or home is None:
        return False  # (a file checked on its own: what no file shows is not guessed)
    importers = project.importers.importers_of(home)
    if len(importers) > MAX_IMPORTERS:
        return True
    for path in importers:
        text = project.read(path)
        if text is None or writes_attribute(text, name):
            return True
    return False
