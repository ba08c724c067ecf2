"""Code whose failure a test expects: `with pytest.raises(...)`, `with self.assertRaises(...)` /
`assertRaisesRegex(...)` blocks (any exception type: tests often write `Exception`), and the
callable form `pytest.raises(E, f, *args)` / `self.assertRaises(E, f, *args)`.  A device mismatch
there is what the test checks for, not a bug."""
from __future__ import annotations

import ast

_RAISES = {"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp", "assert_raises", "assert_raises_regex"}


def may_expect_errors(text: str) -> bool:
    """Cheap test on the text before any tree walk: most files hold no such block."""
    return "aises" in text


def expected_error_lines(tree: ast.AST) -> list[tuple[int, int]]:
    """1-based inclusive line ranges of code whose exception a test expects."""
    ranges = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            if any(_is_raises(item.context_expr) for item in node.items) and node.body:
                ranges.append((node.body[0].lineno, node.end_lineno))
        elif isinstance(node, ast.Call) and _is_raises(node) and len(node.args) >= 2:
            ranges.append((node.args[1].lineno, node.end_lineno))
    return ranges


def _is_raises(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in _RAISES


def inside(ranges: list[tuple[int, int]], line: int) -> bool:
    return any(start <= line <= end for start, end in ranges)
