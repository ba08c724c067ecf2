"""Applying fixes: non-overlapping, idempotent, and never leaving broken code."""
from __future__ import annotations

import ast
import bisect
import gc
from typing import Callable, Iterable, NamedTuple, Optional

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
    """Does `text` parse?  (The cyclic collector is paused meanwhile: a large tree's many new
    nodes otherwise trigger collections that cost a third of the parse.)"""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    finally:
        if was_enabled:
            gc.enable()
    return True


def apply_fixes(text: str, findings: Iterable[Finding], unsafe: bool = False) -> tuple[str, int]:
    """Apply the fixes of `findings` (safe ones, or all with `unsafe`).

    Fixes whose edits overlap an already accepted fix are left for the next
    round (the CLI loops until nothing changes); a fix whose result does not
    parse is dropped.  Returns the new text and the number of fixes applied.

    Linear in the number of fixes: sorted once, overlaps found by bisection in
    the accepted ranges, the text rebuilt in one pass and parsed once (a result
    that does not parse is narrowed down by halves to the fixes that break it).
    """
    src = SourceText(text)
    accepted: list[tuple[Fix, list[tuple[int, int]]]] = []
    taken: list[tuple[int, int]] = []  # accepted edit ranges (offsets), sorted
    for finding in sorted(findings, key=lambda f: f.sort_key):
        fix = finding.fix
        if fix is None or (not fix.is_safe and not unsafe):
            continue
        ranges = [
            (src.offset(e.span.start_line, e.span.start_col), src.offset(e.span.end_line, e.span.end_col))
            for e in fix.edits
        ]
        if any(_overlaps_taken(r, taken) for r in ranges):
            continue  # a second finding sharing this fix overlaps it and is skipped
        for r in ranges:
            bisect.insort(taken, r)
        accepted.append((fix, ranges))
    good, new_text = _parsing_subset(text, [fix for fix, _ in accepted])
    if not good:
        return text, 0
    return new_text, len(good)


def _apply(text: str, fixes: list[Fix]) -> str:
    return apply_edits(text, [e for f in fixes for e in f.edits])


def _parsing_subset(text: str, fixes: list[Fix]) -> tuple[list[Fix], str]:
    """(`fixes`, the text with them) if together they leave code that parses; else the largest
    halves that do (a fix that breaks the code alone is dropped, one that clashes waits)."""
    if not fixes:
        return [], text
    new_text = _apply(text, fixes)
    if parses(new_text):
        return fixes, new_text
    if len(fixes) == 1:
        return [], text
    mid = len(fixes) // 2
    left, left_text = _parsing_subset(text, fixes[:mid])
    right, _ = _parsing_subset(text, fixes[mid:])
    if not right:
        return left, left_text
    if not left:
        return right, _apply(text, right)
    both_text = _apply(text, left + right)
    return (left + right, both_text) if parses(both_text) else (left, left_text)


def _overlaps_taken(r: tuple[int, int], taken: list[tuple[int, int]]) -> bool:
    """Does `r` overlap one of the sorted, pairwise non-overlapping ranges `taken`?
    Only the neighbours where `r` would be inserted can (two before it: an insertion
    may sit at the start of a replacement; those after it that start before `r` ends)."""
    i = bisect.bisect_left(taken, r)
    for j in range(max(0, i - 2), i):
        if _overlaps(r, taken[j]):
            return True
    for j in range(i, len(taken)):
        if taken[j][0] > r[1]:
            break
        if _overlaps(r, taken[j]):
            return True
    return False


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    # Two insertions at the same point conflict too (their order would be arbitrary).
    if a[0] == a[1] == b[0] == b[1]:
        return True
    return a[0] < b[1] and b[0] < a[1]


class FixResult(NamedTuple):
    text: str
    findings: list[Finding]  # of `text`
    applied: int  # fixes applied over all rounds


def fix_until_stable(text: str, check: Callable[[str], list[Finding]], findings: Optional[list[Finding]] = None,
                     unsafe: bool = False, max_rounds: int = 8) -> FixResult:
    """Apply fixes, re-check, repeat until nothing more applies (edits that overlapped wait a
    round).  `check(text)` gives a text's findings; `findings`, when given, are those of `text`
    (not checked again).  Returns the final text, its findings and how many fixes applied."""
    if findings is None:
        findings = check(text)
    total = 0
    for _ in range(max_rounds):
        new_text, applied = apply_fixes(text, findings, unsafe=unsafe)
        if not applied or new_text == text:
            break
        text = new_text
        total += applied
        findings = check(text)
    return FixResult(text, findings, total)
