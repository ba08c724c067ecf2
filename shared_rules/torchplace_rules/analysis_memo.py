"""What one analysis of a document leaves for the next, so an edit re-analyses
only what it touched.

The analysis runs the module body, then one *group* per top-level function or
class (its functions, methods and the functions nested in them).  A group's
result depends on its own nodes, on the module-level names it reads, on what
`__init__` of other classes left in `init_values`, and on little else; the
analyzer records those reads while the group runs (`Recorder`).  On the next
version, `incremental_parse` keeps the nodes of untouched statements, and a
group whose nodes are the same objects and whose reads give equal values is
not run again: its findings (moved to the new line numbers) and side effects
are replayed.  Class scans (`scan_class`) are kept the same way.

Values compare by the identity of the nodes they came from, so anything
computed from a re-parsed statement differs and its readers run again.  A
group that raised an engine error, or read the module as a whole, is never
kept.  `tests/engine/test_incremental.py` checks, edit by edit on real files,
that the result always equals a fresh analysis.
"""
from __future__ import annotations

import ast
import threading
from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Optional

from .incremental_parse import LineMap, reparse, split_lines
from .model import Finding, Span


def same_read(a, b, depth: int = 0) -> bool:
    """Does a read give the same value as when the group ran?  Values' `==` leaves out the nodes
    they came from (`origin`, `factory`, `placed_at`: fields with compare=False, so that joins and
    caches treat equal devices as equal), but findings quote those nodes (TP202 reports at the
    factory, related locations point at the origin): a value made by another statement is another
    read.  Nodes compare by identity, so untouched statements (kept by `incremental_parse`) still
    compare equal."""
    if a is b:
        return True
    if type(a) is not type(b) or depth > 12:
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_read(x, y, depth + 1) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_read(a[k], b[k], depth + 1) for k in a)
    if is_dataclass(a) and not isinstance(a, type):
        for f in fields(a):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if not (same_read(x, y, depth + 1) if f.compare else x is y):
                return False
        return True
    return a == b


class Recorder:
    """The reads of one group (or class scan) while it runs: key -> value seen."""

    __slots__ = ("scan", "reads", "reported", "uncacheable")

    def __init__(self, scan: bool) -> None:
        self.scan = scan  # a class scan in the module body: every name read counts
        self.reads: dict = {}
        self.reported: list[Finding] = []  # what the group reported (also what another group reported first)
        self.uncacheable = False


@dataclass(eq=False)
class GroupRecord:
    owner: ast.AST  # the function or class node (kept alive: its id is the key)
    cls: object  # the ClassInfo the group ran with (None for a function)
    reads: dict
    findings: list[Finding]
    sets_accelerator: bool
    deferred: list
    cross_deps: dict
    init_values: Optional[dict]


@dataclass(eq=False)
class ContextRecord:
    """What analysing a body for one call context read and reported (see `Analyzer.run_context`)."""

    reads: dict
    reported: list
    sets_accelerator: bool
    deferred: list
    cross_deps: dict
    uncacheable: bool


@dataclass(eq=False)
class ScanRecord:
    node: ast.ClassDef
    info: object
    reads: dict


@dataclass(eq=False)
class AnalysisMemo:
    """Per-document state kept between analyses (one analysis at a time: `lock`)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    lines: Optional[list] = None  # the last text that parsed, split as the tokenizer counts lines
    tree: Optional[ast.Module] = None
    key: Optional[tuple] = None  # (path, config, rule codes, project): results hold only under the same
    groups: dict = field(default_factory=dict)  # id(owner) -> GroupRecord
    scans: dict = field(default_factory=dict)  # id(ClassDef) -> ScanRecord
    stats: Counter = field(default_factory=Counter)
    cross_deps: dict = field(default_factory=dict)  # other files the last analysis read (path -> fingerprint)

    def dependencies_current(self, project) -> bool:
        return all(project.fingerprint(p) == f for p, f in self.cross_deps.items())

    def parse(self, text: str, filename: str, key: tuple, stale: bool = False) -> ast.Module:
        """The tree of `text`, re-parsing only what changed since the last parse.  Raises as
        `ast.parse` does; the memo then keeps the last text that parsed."""
        if stale or key != self.key:
            self.groups.clear()
            self.scans.clear()
            self.cross_deps = {}
            self.key = key
        lines = split_lines(text)
        if lines is None or self.lines is None:
            tree = ast.parse(text, filename=filename)
            self.groups.clear()
            self.scans.clear()
            self.stats["full_parse"] += 1
        else:
            tree, mapping, reparsed = reparse(self.lines, self.tree, text, lines, filename)
            self.stats["reparsed_lines"] += reparsed
            if not mapping.identity:
                self._move_findings(mapping)
        self.lines, self.tree = lines, tree
        return tree

    def _move_findings(self, mapping: LineMap) -> None:
        for key, record in list(self.groups.items()):
            moved = []
            for finding in record.findings:
                f = move_finding(finding, mapping)
                if f is None:  # it touches an edited line: run the group again
                    del self.groups[key]
                    break
                moved.append(f)
            else:
                record.findings = moved

    def forget_unused(self, used_groups: set, used_scans: set) -> None:
        self.groups = {k: v for k, v in self.groups.items() if k in used_groups}
        self.scans = {k: v for k, v in self.scans.items() if k in used_scans}


def move_finding(f: Finding, mapping: LineMap) -> Optional[Finding]:
    """`f` in the new text's lines (None: it touches an edited line)."""
    span = move_span(f.span, mapping)
    related = _moved_all(f.related, mapping)
    edits = _moved_all(f.fix.edits, mapping) if f.fix is not None else ()
    if span is None or related is None or edits is None:
        return None
    fix = replace(f.fix, edits=tuple(edits)) if f.fix is not None else None
    return replace(f, span=span, related=related, fix=fix)


def _moved_all(items, mapping: LineMap) -> Optional[list]:
    """Related locations or edits (anything with a `span`), moved; None if one cannot be."""
    out = []
    for item in items:
        span = move_span(item.span, mapping)
        if span is None:
            return None
        out.append(replace(item, span=span))
    return out


def move_span(span: Span, mapping: LineMap) -> Optional[Span]:
    start = mapping.line(span.start_line)
    end = mapping.line(span.end_line)
    if start is None or end is None or end - start != span.end_line - span.start_line:
        return None
    if start == span.start_line:
        return span
    return Span(start, span.start_col, end, span.end_col)
