"""One notion of "line" for the whole product.

Python's tokenizer and the Language Server Protocol end a line only at
`\\n`, `\\r\\n` or `\\r`.  `str.splitlines()` also splits at form feed, vertical
tab, `\\x1c`-`\\x1e`, `\\x85`, `\\u2028` and `\\u2029`, so positions computed with
it drift from the parser's and the editor's (fixes land on the wrong line).
Every module that splits source text into lines uses these helpers instead.
"""
from __future__ import annotations

import re

LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_WITH_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
# Where a text has none of these, `str.splitlines` breaks exactly where Python does (at `\n`).
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


def split_lines(text: str, keepends: bool = False) -> list[str]:
    """Like `str.splitlines`, but breaking only at `\\n`, `\\r\\n` and `\\r`.

    As with `splitlines`, a final line break does not start another (empty)
    line, and the empty text has no lines.
    """
    if not any(c in text for c in _OTHER_BREAKS):
        return text.splitlines(keepends)  # the same lines, without the regular expression (~25 % faster)
    lines = _LINE_WITH_END.findall(text)
    if keepends:
        return lines
    return [line.rstrip("\r\n") if line.endswith(("\n", "\r")) else line for line in lines]


def line_starts(text: str) -> list[int]:
    """Offsets where each line begins, LSP style: a text ending in a line
    break has one more (empty) line after it; the empty text has one line."""
    return [0] + [m.end() for m in LINE_BREAK.finditer(text)]


def line_ending(line: str) -> str:
    """The line break that ends `line` (`""` for a last line without one)."""
    if line.endswith("\r\n"):
        return "\r\n"
    if line.endswith(("\n", "\r")):
        return line[-1]
    return ""


def dominant_newline(text: str) -> str:
    """The most common line break of `text` (`\\n` when it has none)."""
    counts = {"\r\n": 0, "\n": 0, "\r": 0}
    for m in LINE_BREAK.finditer(text):
        counts[m.group()] += 1
    best = max(counts, key=lambda k: (counts[k], k == "\n"))
    return best if counts[best] else "\n"
