"""The device-flow package imports one way: each module of `torchplace_rules.flow`
imports only the modules listed after it in `flow.LAYERS`, and never inside a
function (an import moved into a function to dodge a cycle is still a cycle)."""
from __future__ import annotations

import ast
from pathlib import Path

import torchplace_rules.flow as flow

FLOW_DIR = Path(flow.__file__).parent


def _flow_imports(tree: ast.Module) -> list[tuple[str, bool]]:
    """(flow module imported, at module level?) for every import of a sibling module."""
    top_level = {id(n) for n in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
            found.extend((name.split(".")[0], id(node) in top_level) for name in names)
    return found


def test_every_flow_module_is_placed_in_a_layer():
    modules = {p.stem for p in FLOW_DIR.glob("*.py") if p.stem != "__init__"}
    assert modules == set(flow.LAYERS)


def test_flow_modules_import_only_the_layers_below_them():
    for position, name in enumerate(flow.LAYERS):
        tree = ast.parse((FLOW_DIR / f"{name}.py").read_text(encoding="utf-8"))
        below = set(flow.LAYERS[position + 1:])
        for imported, at_top in _flow_imports(tree):
            assert at_top, f"flow/{name}.py imports {imported} inside a function"
            assert imported in below, f"flow/{name}.py imports {imported}, which is not below it in LAYERS"


def test_flow_modules_import_no_torch_and_nothing_inside_functions():
    for name in flow.LAYERS:
        tree = ast.parse((FLOW_DIR / f"{name}.py").read_text(encoding="utf-8"))
        top_level = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                assert id(node) in top_level, f"flow/{name}.py line {node.lineno}: import inside a function or class"
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                assert not any(m == "torch" or m.startswith("torch.") for m in modules), f"flow/{name}.py imports torch"
