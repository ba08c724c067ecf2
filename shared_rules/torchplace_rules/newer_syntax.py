"""PEP 695 type parameters (Python 3.12) made parseable by an older interpreter.

`type Alias = ...`, `class C[T]:` and `def f[T: Bound](...)` are valid Python from 3.12 on; a
project that requires 3.12 uses them freely, but `ast.parse` of an older interpreter running
torchplace rejects the whole file, which TP001 then reports as a syntax error that Python
itself (the project's Python) never raises.  The type parameters carry no device information,
so they are blanked out and `type X = v` becomes `X = v`, keeping every other token at its line
and column: findings elsewhere in the file keep their positions.  The rewrite is tried only
after the original text failed to parse, and only on such an interpreter.
"""
from __future__ import annotations

import io
import re
import sys
import tokenize
from typing import Optional

NEEDED = sys.version_info < (3, 12)
# the only token runs the rewrite edits (`class C[`, `def f[`, `type X =`, `type X[`), their tokens apart
# by blanks or line continuations: a file without one is never tokenized (a syntax error while typing)
_MAY_HAVE_TYPE_PARAMS = re.compile(r"\b(?:class|def)(?:\s|\\)+\w+(?:\s|\\)*\[|\btype(?:\s|\\)+\w+(?:\s|\\)*[\[=]")
_OPENING, _CLOSING = frozenset("([{"), frozenset(")]}")


def _tokens(text: str) -> Optional[list]:
    try:
        return list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def _closing(tokens: list, i: int) -> Optional[int]:
    """Index of the `]` that closes the `[` at `tokens[i]`."""
    depth = 0
    for j in range(i, len(tokens)):
        s = tokens[j].string if tokens[j].type == tokenize.OP else ""
        depth += s in _OPENING
        depth -= s in _CLOSING
        if depth == 0:
            return j
    return None


def _statement_starts(tokens: list) -> set[int]:
    """Indices of the tokens that begin a logical line."""
    starts, expect = set(), True
    for i, tok in enumerate(tokens):
        if tok.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
            continue
        if expect:
            starts.add(i)
        expect = tok.type == tokenize.NEWLINE or (tok.type == tokenize.OP and tok.string == ";")
    return starts


def _type_param_spans(tokens: list) -> Optional[list[tuple]]:
    """Edits as (start, end, replacement-or-None): None blanks the span; a string replaces it."""
    edits = []
    starts = _statement_starts(tokens)
    for i, tok in enumerate(tokens[:-2]):
        nxt, after = tokens[i + 1], tokens[i + 2]
        if tok.type != tokenize.NAME or nxt.type != tokenize.NAME:
            continue
        bracket = after.type == tokenize.OP and after.string == "["
        if tok.string in ("class", "def") and bracket:
            end = _closing(tokens, i + 2)
            if end is None:
                return None
            edits.append((after.start, tokens[end].end, None))
        elif tok.string == "type" and i in starts and (bracket or (after.type == tokenize.OP and after.string == "=")):
            # `type X = v` -> `X    = v`: the name takes the keyword's place, the `=` keeps its column.
            if tok.start[0] != nxt.end[0]:
                return None
            edits.append((tok.start, nxt.end, nxt.string.ljust(nxt.end[1] - tok.start[1])))
            if bracket:
                end = _closing(tokens, i + 2)
                if end is None:
                    return None
                edits.append((after.start, tokens[end].end, None))
    return edits


def _blank(lines: list[str], start: tuple, end: tuple) -> bool:
    """Spaces over the span; a line break inside it is continued with a backslash."""
    (l0, c0), (l1, c1) = start, end
    for ln in range(l0, l1 + 1):
        line = lines[ln - 1]
        a = c0 if ln == l0 else 0
        body_end = len(line.rstrip("\r\n"))
        b = c1 if ln == l1 else body_end
        if ln == l1:
            lines[ln - 1] = line[:a] + " " * (b - a) + line[b:]
            continue
        if b <= a:
            return False  # an empty piece of a line inside the brackets: no room for the backslash
        lines[ln - 1] = line[:a] + " " * (b - a - 1) + "\\" + line[b:]
    return True


def without_type_params(text: str) -> Optional[str]:
    """`text` with PEP 695 type parameters and `type` statements rewritten for Python < 3.12,
    or None when there is nothing to rewrite (or it cannot be done keeping positions)."""
    if not NEEDED or _MAY_HAVE_TYPE_PARAMS.search(text) is None:
        return None
    tokens = _tokens(text)
    edits = _type_param_spans(tokens) if tokens else None
    if not edits:
        return None
    lines = io.StringIO(text).readlines()  # the lines `tokenize` numbered
    for start, end, replacement in edits:
        if replacement is None:
            if not _blank(lines, start, end):
                return None
            continue
        line = lines[start[0] - 1]
        lines[start[0] - 1] = line[:start[1]] + replacement + line[end[1]:]
    return "".join(lines)
