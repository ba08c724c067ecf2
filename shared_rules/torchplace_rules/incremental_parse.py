"""Re-parse only the top-level statements an edit touched.

Parsing a 5,000-line module costs 50-100 ms; a keystroke changes a line or
two.  Given the previous text and its tree, `reparse` finds the changed lines
(common prefix and suffix), re-parses the top-level statements around them
(with the one before and the one after, which an edit can extend or attach
to), and keeps every other statement node as it was, moved by the change in
line count.  Keeping the nodes is what lets the analysis reuse its results for
the functions and classes the edit did not touch (`analysis_memo`).

Why this gives the same tree as a full parse: the text before the region ends
after a complete top-level statement, so the tokenizer starts the region in
the state a fresh parse starts in; the region must parse on its own (no open
bracket, string or block at its end), and the text after it starts with what
was a top-level statement, which cannot continue anything before it.  When
the region does not parse on its own, the whole text is parsed (which raises
the syntax error a full parse raises).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Optional

from .syntax_nodes import own_nodes


@dataclass(frozen=True)
class LineMap:
    """Where the lines of the old text are in the new one (0-based lines).

    Lines before `prefix` are unchanged; lines from `old_suffix` on are unchanged
    and moved by `delta`; the lines between were edited and have no image."""

    prefix: int
    old_suffix: int
    delta: int

    @property
    def identity(self) -> bool:
        return self.delta == 0 and self.prefix >= self.old_suffix

    def line(self, old: int) -> Optional[int]:
        if old < self.prefix:
            return old
        if old >= self.old_suffix:
            return old + self.delta
        return None


def split_lines(text: str) -> Optional[list[str]]:
    """Lines as the tokenizer counts them, or None when the text uses other line ends."""
    if "\r" in text:
        return None
    return text.split("\n")


def line_map(old_lines: list[str], new_lines: list[str]) -> LineMap:
    n = min(len(old_lines), len(new_lines))
    p = 0
    while p < n and old_lines[p] == new_lines[p]:
        p += 1
    s = 0
    while s < n - p and old_lines[-1 - s] == new_lines[-1 - s]:
        s += 1
    return LineMap(p, len(old_lines) - s, len(new_lines) - len(old_lines))


def _chunks(tree: ast.Module) -> list[tuple[int, int, int, int]]:
    """(first line, end line exclusive, first stmt index, end stmt index) per group of top-level
    statements that share no line with their neighbours (0-based lines)."""
    out: list[list[int]] = []
    for i, stmt in enumerate(tree.body):
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())]) - 1
        end = stmt.end_lineno
        if out and first < out[-1][1]:  # `a = 1; b = 2`
            out[-1][1] = max(out[-1][1], end)
            out[-1][3] = i + 1
        else:
            out.append([first, end, i, i + 1])
    return [tuple(c) for c in out]


def shift_lines(node: ast.AST, delta: int) -> None:
    """`ast.increment_lineno`, faster (it runs over most of a file)."""
    for n in own_nodes(node):
        if "lineno" in n._attributes:
            n.lineno += delta
            if getattr(n, "end_lineno", None) is not None:
                n.end_lineno += delta


def reparse(old_lines: list[str], old_tree: ast.Module, new_text: str, new_lines: list[str],
            filename: str) -> tuple[ast.Module, LineMap, int]:
    """The tree of `new_text`, reusing the old tree's untouched statements (moved in place).

    Returns (tree, line map from the old text, number of lines re-parsed).  Raises
    SyntaxError (and whatever `ast.parse` raises) as a full parse would."""
    mapping = line_map(old_lines, new_lines)
    if mapping.identity:
        return old_tree, mapping, 0
    chunks = _chunks(old_tree)
    if not chunks:
        return ast.parse(new_text, filename=filename), mapping, len(new_lines)
    changed_start, changed_end = mapping.prefix, mapping.old_suffix  # old lines [start, end) changed
    # First chunk to re-parse: the last one starting before the change (an edit can extend it).
    first = 0
    for k, (lo, _hi, _a, _b) in enumerate(chunks):
        if lo < changed_start:
            first = k
        else:
            break
    # Last chunk to re-parse: the first one starting at or after the changed lines (an edit can attach to it).
    last = len(chunks) - 1
    for k in range(first, len(chunks)):
        if chunks[k][0] >= changed_end:
            last = k
            break
    start_line = chunks[first][0] if first > 0 else 0
    stmt_from = chunks[first][2] if first > 0 else 0
    if last == len(chunks) - 1:
        end_old, stmt_to = len(old_lines), len(old_tree.body)
    else:
        end_old, stmt_to = chunks[last][1], chunks[last][3]
    end_new = end_old + mapping.delta  # >= the first changed line: the region covers the change
    region = "\n".join(new_lines[start_line:end_new])
    try:
        part = ast.parse(region, filename=filename)
    except SyntaxError:
        return ast.parse(new_text, filename=filename), mapping, len(new_lines)  # raises the real error
    if start_line:
        for stmt in part.body:
            shift_lines(stmt, start_line)
    after = old_tree.body[stmt_to:]
    if mapping.delta:
        for stmt in after:
            shift_lines(stmt, mapping.delta)
    tree = ast.Module(body=old_tree.body[:stmt_from] + part.body + after, type_ignores=[])
    return tree, mapping, end_new - start_line
