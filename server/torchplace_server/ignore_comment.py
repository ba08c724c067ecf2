"""The "Ignore TPxxx for this line" edit: add or extend `# torchplace: ignore[...]`."""
from __future__ import annotations

import ast
import re
from typing import Optional

from torchplace_rules import Span
from torchplace_rules.text_lines import line_ending, split_lines

_EXISTING = re.compile(r"#\s*torchplace:\s*ignore\[([^\]]*)\]", re.IGNORECASE)


def ignore_edit(line_text: str, line: int, code: str) -> Optional[tuple[Span, str]]:
    """The edit suppressing `code` on `line`, or None when a comment cannot go there."""
    match = _EXISTING.search(line_text)
    if match:
        codes = [c.strip() for c in match.group(1).split(",") if c.strip()]
        if code in codes:
            return None
        new = f"# torchplace: ignore[{', '.join(codes + [code])}]"
        return Span(line, match.start(), line, match.end()), new
    body = line_text.rstrip()
    if body.endswith("\\"):
        return None  # a comment would break the line continuation
    return Span(line, len(body), line, len(line_text)), f"  # torchplace: ignore[{code}]"


def still_parses(text: str, span: Span, new_text: str) -> bool:
    """Whether `text` with the edit applied still parses (a comment inside a string would not be one)."""
    lines = split_lines(text, keepends=True)
    if span.start_line >= len(lines):
        return False
    line = lines[span.start_line]
    if '"""' not in line and "'''" not in line:
        # A finding starts on code, so the end of its line is inside a string only
        # when a triple-quoted string opens on that very line.
        return True
    ending = line_ending(line)
    body = line[: len(line) - len(ending)]
    lines[span.start_line] = body[: span.start_col] + new_text + body[span.end_col:] + ending
    try:
        ast.parse("".join(lines))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
