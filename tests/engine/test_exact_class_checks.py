"""The engine tests some types by identity (`x.__class__ is TensorV`, `node.__class__ in (ast.Tuple,
ast.List)`) where `isinstance` would cost a `__class__` lookup each time it answers no.  That is
the same answer only while the class has no subclass: this test finds every such comparison in
the engine's sources and fails when one names a class that has (or gains) a subclass anywhere in
the engine (`QualV`, `DictV` and `ast.FunctionDef`, which have, keep `isinstance`)."""
from __future__ import annotations

import ast
import builtins
import importlib
import pkgutil
from pathlib import Path

import torchplace_rules

ENGINE = Path(torchplace_rules.__file__).parent

# Comparisons that mean the exact class, its subclasses left out on purpose: (module, class name).
EXACT_ON_PURPOSE = {
    ("torchplace_rules.flow.driver", "QualV"),  # a library name, not a project module (ProjectModuleV)
    ("torchplace_rules.flow.expressions", "DictV"),  # `dict(...)` made a plain dict, not an encoding
    ("torchplace_rules.flow.statements", "DictV"),
    ("torchplace_rules.flow.calls", "DictV"),
    ("torchplace_rules.flow.class_model", "DictV"),  # modules a plain dict holds (an encoding holds tensors only)  # a list grown in some entry of a plain dict (not an encoding)
}
# Deprecated aliases that parsing never makes (`ast.Num(1)` itself returns a `Constant`).
NEVER_PARSED = {"Num", "Str", "Bytes", "NameConstant", "Ellipsis"}


def _engine_modules():
    for info in pkgutil.walk_packages([str(ENGINE)], "torchplace_rules."):
        yield importlib.import_module(info.name)


def _identity_checks():
    """(module, line, class) for each `<expr>.__class__ is|is not|in|not in <class or tuple>`."""
    for module in list(_engine_modules()):
        path = Path(module.__file__)
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute)
                    and node.left.attr == "__class__" and len(node.ops) == 1):
                continue
            right = node.comparators[0]
            names = right.elts if isinstance(right, ast.Tuple) else [right]
            for name in names:
                yield module, node.lineno, name


def _resolve(module, expr: ast.AST):
    if isinstance(expr, ast.Name):
        return module.__dict__.get(expr.id)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        owner = module.__dict__.get(expr.value.id)
        return getattr(owner, expr.attr, None)
    return None


def test_classes_compared_by_identity_have_no_subclasses():
    checks = list(_identity_checks())
    assert len(checks) > 50  # (the comparisons are there to be checked)
    bad = []
    for module, line, expr in checks:
        cls = _resolve(module, expr)
        if isinstance(cls, (frozenset, set, tuple)):  # a module-level set of classes
            classes = list(cls)
        elif isinstance(cls, type):
            classes = [cls]
        else:
            continue  # `x.__class__ is list`-style names of builtins or locals: see below
        for c in classes:
            if not isinstance(c, type) or (module.__name__, c.__name__) in EXACT_ON_PURPOSE:
                continue
            subclasses = [s for s in c.__subclasses__() if s.__name__ not in NEVER_PARSED or s.__module__ != "ast"]
            if subclasses:
                bad.append(f"{module.__name__}:{line} {c.__name__} has subclasses {subclasses}")
    assert not bad, "\n".join(bad)


def test_a_comparison_the_walk_cannot_resolve_is_a_builtin():
    """Every identity comparison names a class the test above could check, or a builtin type (`list`;
    `int, float` to leave out `bool`: exact on purpose)."""
    unresolved = [f"{m.__name__}:{line} {ast.unparse(e)}" for m, line, e in _identity_checks()
                  if _resolve(m, e) is None and not (isinstance(e, ast.Name) and isinstance(getattr(builtins, e.id, None), type))]
    assert not unresolved, "\n".join(unresolved)
