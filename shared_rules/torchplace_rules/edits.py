"""Building minimal text edits from `ast` positions (formatting and comments kept)."""
from __future__ import annotations

import ast
from typing import Optional

from .model import Applicability, Edit, Fix, Span
from .source_text import SourceText


def make_fix(title: str, safe: bool, *edits: Edit) -> Fix:
    return Fix(title, Applicability.SAFE if safe else Applicability.UNSAFE, tuple(edits))


def replace_node(src: SourceText, node: ast.AST, text: str) -> Edit:
    return Edit(src.span(node), text)


def insert_after(src: SourceText, node: ast.AST, text: str) -> Edit:
    return Edit(src.end(node), text)


def insert_before(src: SourceText, node: ast.AST, text: str) -> Edit:
    return Edit(src.start(node), text)


def insert_keyword(src: SourceText, call: ast.Call, text: str) -> Optional[Edit]:
    """Add `text` (e.g. `device=device`) as the call's last argument."""
    items = list(call.args) + list(call.keywords)
    if items:
        last = max(items, key=lambda n: (n.end_lineno, n.end_col_offset))
        end = src.end(last)
        return Edit(end, ", " + text)
    end = src.end(call)
    line = src.lines[end.start_line]
    if end.start_col == 0 or line[end.start_col - 1] != ")":
        return None
    pos = Span(end.start_line, end.start_col - 1, end.start_line, end.start_col - 1)
    return Edit(pos, text)


def statement_line_start(src: SourceText, stmt: ast.AST) -> Optional[int]:
    """The 0-based line where `stmt` starts, if nothing but indentation precedes it."""
    line = stmt.lineno - 1
    prefix = src.lines[line][: src.char_col(stmt.lineno, stmt.col_offset)]
    return line if prefix.strip() == "" else None


def insert_line_before(src: SourceText, stmt: ast.AST, code: str) -> Optional[Edit]:
    line = statement_line_start(src, stmt)
    if line is None:
        return None
    indent = src.indent_of(line)
    return Edit(Span(line, 0, line, 0), f"{indent}{code}{src.newline_of(line)}")


def is_assignable(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return is_assignable(node.value) or isinstance(node.value, ast.Name)
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and is_assignable(node.value)
    return False


def needs_parens(node: ast.AST) -> bool:
    """Would `<node>.method()` need parentheses around node?"""
    return not isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant, ast.List,
                                 ast.Tuple, ast.Dict, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp))


def method_suffix(src: SourceText, node: ast.AST, suffix: str) -> list[Edit]:
    """Edits turning `expr` into `expr<suffix>` (parenthesised when needed)."""
    if needs_parens(node):
        return [insert_before(src, node, "("), insert_after(src, node, ")" + suffix)]
    return [insert_after(src, node, suffix)]
