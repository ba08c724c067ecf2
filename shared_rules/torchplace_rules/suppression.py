"""`# torchplace: ignore[TP101]` and bare `# torchplace: ignore` comments."""
from __future__ import annotations

import re

from .text_lines import split_lines

_PATTERN = re.compile(r"#\s*torchplace:\s*ignore(?:\[([^\]]*)\])?", re.IGNORECASE)


def suppressions(text: str) -> dict[int, frozenset[str]]:
    """0-based line -> codes ignored there (`{"*"}` for a bare ignore)."""
    if "torchplace" not in text:
        return {}
    found: dict[int, frozenset[str]] = {}
    for lineno, line in enumerate(split_lines(text)):
        if "torchplace" not in line:
            continue
        codes: set[str] = set()
        for match in _PATTERN.finditer(line):
            if match.group(1) is None:
                codes.add("*")
            else:
                codes.update(c.strip().upper() for c in match.group(1).split(",") if c.strip())
        if codes:
            found[lineno] = frozenset(codes)
    return found


def is_suppressed(table: dict[int, frozenset[str]], line: int, code: str) -> bool:
    codes = table.get(line)
    return bool(codes) and ("*" in codes or code in codes)
