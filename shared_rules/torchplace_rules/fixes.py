"""Applying fixes: non-overlapping, idempotent, and never leaving broken code."""
from __future__ import annotations

import ast
from typing import Callable, Iterable, Optional

from .model import Edit, Finding, Fix
from .source_text import SourceText


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    src = SourceText(text)
    ordered = sorted(edits, key=lambda e: (e.span.start_line, e.span.start_col, e.span.end_line, e.span.end_col))
    out, pos = [], 0
    for edit in ordered:
        start = src.offset(edit.span.start_line, edit.span.start_col)
        end = src.offset(edit.span.end_line, edit.span.end_col)
        if start < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:start])
        out.append(edit.new_text)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def apply_fixes(text: str, findings: Iterable[Finding], unsafe: bool = False) -> tuple[str, int]:
    """Apply the fixes of `findings` (safe ones, or all with `unsafe`).

    Fixes whose edits overlap an already accepted fix are left for the next
    round (the CLI loops until nothing changes); a fix whose result does not
    parse is dropped.  Returns the new text and the number of fixes applied.
    """
    accepted: list[Fix] = []
    taken: list[tuple[int, int, int, int]] = []
    src = SourceText(text)
    for finding in sorted(findings, key=lambda f: f.sort_key):
        fix = finding.fix
        if fix is None or (not fix.is_safe and not unsafe):
            continue
        ranges = [
            (src.offset(e.span.start_line, e.span.start_col), src.offset(e.span.end_line, e.span.end_col))
            for e in fix.edits
        ]
        if any(_overlaps(r, t) for r in ranges for t in taken):
            continue
        candidate = apply_edits(text, [e for f in accepted for e in f.edits] + list(fix.edits))
        if not parses(candidate):
            continue
        accepted.append(fix)  # a second finding sharing this fix overlaps it and is skipped
        taken.extend(ranges)
    if not accepted:
        return text, 0
    return apply_edits(text, [e for f in accepted for e in f.edits]), len(accepted)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at the same point conflict too (their order would be arbitrary).
    if a[0] == a[1] == b[0] == b[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


def fix_until_stable(text: str, check: Callable[[str], list[Finding]], findings: Optional[list[Finding]] = None,
                     unsafe: bool = False, max_rounds: int = 8) -> tuple[str, list[Finding]]:
    """Apply fixes, re-check, repeat until nothing more applies (edits that overlapped wait a
    round).  `check(text)` gives a text's findings; `findings`, when given, are those of `text`
    (not checked again).  Returns the final text and its findings."""
    if findings is None:
        findings = check(text)
    for _ in range(max_rounds):
        new_text, applied = apply_fixes(text, findings, unsafe=unsafe)
        if not applied or new_text == text:
            break
        text = new_text
        findings = check(text)
    return text, findings
