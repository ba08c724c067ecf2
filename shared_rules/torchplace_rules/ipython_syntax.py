"""IPython's special syntax in a notebook cell, rewritten as IPython itself rewrites it.

A cell may hold `%magic` and `!shell` lines, `files = !ls`, `x = %time f()`,
`?obj`, `obj?`, `,f a b`, `/f a b` and `%%cell magics`.  IPython turns each into
a plain call (`get_ipython().system('ls')`) before running the cell
(`IPython.core.inputtransformer2.TransformerManager`); this module does the same
in pure Python (the engine must not need IPython) and keeps the cell's line
count, so positions still map 1:1: a construct spread over backslash-continued
lines becomes one line followed by empty ones, and the text before it on its
line (indentation, `files = `) keeps its columns.  Names assigned from a magic
stay assigned, so later cells keep them.  IPython's clean-ups that move
columns (stripping `>>>`/`In [1]:` prompts, dedenting a wholly indented cell)
are not done: such a cell stays a syntax error.
`tests/engine/test_ipython_syntax.py` compares the result with IPython's.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from .text_lines import split_lines

ESCAPES = frozenset("!?%,;/")
_MAYBE_SPECIAL = re.compile(r"[%!?]|^[ \t\f]*[,;/]", re.MULTILINE)
_HELP_END = re.compile(r"(%{0,2}(?!\d)[\w*]+(\.(?!\d)[\w*]+|\[-?[0-9]+\])*)(\?\??)$")
_ASSIGN_PREFIX = "=!<>:+-*/%&|^@"  # a character before `=` that makes it another operator


def _help_call(target: str, esc: str) -> str:
    method = "pinfo2" if esc == "??" else "psearch" if "*" in target else "pinfo"
    return f"get_ipython().run_line_magic({method!r}, {target!r})"


def _magic_call(content: str) -> str:
    name, _, args = content.partition(" ")
    return f"get_ipython().run_line_magic({name!r}, {args!r})"


def _escaped_call(line: str) -> Optional[str]:
    """The call IPython makes of an escaped line (`!ls`, `%time x`, `?x`, `,f a b`), or
    None where IPython raises a SyntaxError."""
    esc = line[:2] if line[:2] in ("!!", "??") else line[:1]
    content = line[len(esc):]
    name, _, args = content.partition(" ")
    if esc == "!":
        return f"get_ipython().system({content!r})"
    if esc == "!!":
        return f"get_ipython().getoutput({content!r})"
    if esc in ("?", "??"):
        return _help_call(content, esc) if content else "get_ipython().show_usage()"
    if esc == "%":
        return _magic_call(content)
    if esc == ",":
        return '{}("{}")'.format(name, '", "'.join(args.split()))
    if esc == ";":
        return f'{name}("{args}")'
    if not name:  # "/"
        return None
    return "{}({})".format(name, ", ".join(args.split()))


def _continued_end(lines: list[str], start: int) -> int:
    """The last line of the backslash-continued run starting at `start`."""
    end = start
    while end + 1 < len(lines) and lines[end].endswith("\\"):
        end += 1
    return end


def _joined(lines: list[str], line: int, col: int, end: int) -> str:
    """Backslash-continued pieces as one line (IPython's `assemble_continued_line`)."""
    parts = [lines[line][col:]] + lines[line + 1:end + 1]
    return " ".join([p.rstrip()[:-1] for p in parts[:-1]] + [parts[-1].rstrip()])


class _LogicalLine:
    """Where one logical line of ordinary code ends and the IPython syntax it may carry."""

    __slots__ = ("end", "last", "assign")

    def __init__(self) -> None:
        self.end = 0
        self.last: Optional[tuple[int, int]] = None  # last character outside strings and comments
        self.assign: Optional[tuple[int, int]] = None  # the first `=` outside brackets


def _scan(lines: list[str], start: int) -> _LogicalLine:
    """A small tokenizer: brackets, strings (any prefix, triple quotes, escapes), comments and
    backslash continuations decide where the logical line starting at `start` ends."""
    found = _LogicalLine()
    depth, quote, i = 0, "", start
    while i < len(lines):
        text, j, n = lines[i], 0, len(lines[i])
        comment = False
        while j < n:
            c = text[j]
            if quote:
                if c == "\\":
                    j += 2
                    continue
                if text.startswith(quote, j):
                    j += len(quote)
                    quote = ""
                    continue
                j += 1
                continue
            if c == "#":
                comment = True
                break
            if c in "'\"":
                quote = c * 3 if text.startswith(c * 3, j) else c
                j += len(quote)
                continue
            if c in "([{":
                depth += 1
            elif c in ")]}":
                depth = max(depth - 1, 0)
            elif c == "=" and depth == 0 and found.assign is None and (j == 0 or text[j - 1] not in _ASSIGN_PREFIX) \
                    and text[j + 1:j + 2] != "=":
                found.assign = (i, j)
            if not c.isspace() and not (c == "\\" and j == n - 1):
                found.last = (i, j)
            j += 1
        continued = not comment and text.endswith("\\")
        if len(quote) == 1 and not continued:
            quote = ""  # an unterminated string ends with its line (the tokenizer's error)
        if not (depth or quote or continued):
            break
        i += 1
    found.end = min(i, len(lines) - 1)
    return found


def _help_end(lines: list[str], line: int, col: int, q_line: int) -> Optional[str]:
    content = "\n".join(lines[line:q_line + 1])[col:]
    m = _HELP_END.search(content)
    return _help_call(m.group(1), m.group(3)) if m else None


def _rewrite(lines: list[str], out: list[str], rewritten: set[int], line: int, col: int, end: int, call: str) -> None:
    out[line] = lines[line][:col] + call
    for k in range(line + 1, end + 1):
        out[k] = ""
    rewritten.update(range(line, end + 1))


def _cell_magic(lines: list[str]) -> Optional[list[str]]:
    first = next((k for k, ln in enumerate(lines) if ln.strip()), None)
    if first is None or not lines[first].lstrip().startswith("%%") or re.match(r"%%\w+\?", lines[first].lstrip()):
        return None
    name, _, args = lines[first].strip()[2:].partition(" ")
    body = "".join(ln + "\n" for ln in lines[first + 1:])
    out = [""] * len(lines)
    out[first] = f"get_ipython().run_cell_magic({name!r}, {args!r}, {body!r})"
    return out


@lru_cache(maxsize=2048)
def to_python(cell: str) -> tuple[str, bool, frozenset[int]]:
    """(the cell as IPython would run it, with the same lines; True for a `%%cell magic`;
    the 0-based lines that were rewritten).  Line breaks are kept as they were."""
    if not _MAYBE_SPECIAL.search(cell):
        return cell, False, frozenset()
    with_ends = split_lines(cell, keepends=True)
    lines = [ln.rstrip("\r\n") for ln in with_ends]
    ends = [ln[len(bare):] for ln, bare in zip(with_ends, lines)]
    magic = _cell_magic(lines)
    if magic is not None:
        return _assemble(magic, ends), True, frozenset(range(len(lines)))
    out, rewritten = list(lines), set()
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip(" \t\f")
        col = len(lines[i]) - len(stripped)
        if not stripped or stripped[0] == "#":
            i += 1
            continue
        if stripped[0] in ESCAPES:
            end = _continued_end(lines, i)
            joined = _joined(lines, i, col, end)
            call = None
            if joined.endswith("?") and "#" not in joined:
                call = _help_end(lines, i, col, end)
            call = call or _escaped_call(joined)
            if call is not None:
                _rewrite(lines, out, rewritten, i, col, end, call)
            i = end + 1
            continue
        scan = _scan(lines, i)
        call, where, end = None, (i, col), scan.end
        if scan.last is not None and lines[scan.last[0]][scan.last[1]] == "?":
            call, end = _help_end(lines, i, col, scan.last[0]), scan.last[0]
        if call is None and scan.assign is not None:
            call, where, end = _assigned_magic(lines, scan.assign)
        if call is None:
            i = scan.end + 1
            continue
        _rewrite(lines, out, rewritten, where[0], where[1], end, call)
        i = end + 1
    if not rewritten:
        return cell, False, frozenset()
    return _assemble(out, ends), False, frozenset(rewritten)


def _assemble(lines: list[str], ends: list[str]) -> str:
    """Lines and their breaks as text.  An emptied line keeps a space where it would vanish
    otherwise: after a lone `\r` (`\r` + `\n` reads as one break) or as the last line."""
    out = []
    for k, (line, end) in enumerate(zip(lines, ends)):
        if not line and k and (not end or (ends[k - 1] == "\r" and end.startswith("\n"))):
            line = " "
        out.append(line + end)
    return "".join(out)


def _assigned_magic(lines: list[str], assign: tuple[int, int]):
    """`x = %magic args` or `x = !cmd`: (call, (line, col) where it starts, last line)."""
    line, col = assign
    text = lines[line]
    k = col + 1
    while k < len(text) and text[k] in " \t\f":
        k += 1
    rest = text[k:]
    if rest[:1] == "%" and rest[1:2] and (rest[1].isalpha() or rest[1] == "_"):
        end = _continued_end(lines, line)
        return _magic_call(_joined(lines, line, k, end)[1:]), (line, k), end
    if rest[:1] == "!" and rest[1:2] != "=" and not text.lstrip().startswith("="):
        end = _continued_end(lines, line)
        return f"get_ipython().getoutput({_joined(lines, line, k, end)[1:]!r})", (line, k), end
    return None, assign, line
