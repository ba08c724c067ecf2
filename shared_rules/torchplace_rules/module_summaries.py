"""What another module of the project defines, analysed once and cached.

A summary is the module-level environment the Analyzer builds for a project
file (classes as `ClassV`, functions as `FuncV` that remember their home
module, devices, loader factories), computed with no rules so it reports
nothing.  Its AST nodes are marked with their home, so that findings never land
at positions of another file: `Analyzer.report` drops them, and a fix whose
edits were computed from a foreign node is dropped (`GuardedSource`).
Summaries are valid while the file and everything it imported keep their
fingerprints (mtime+size on disk, a hash of unsaved editor text).
"""
from __future__ import annotations

import ast
from collections import OrderedDict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .config import Config
from .flow.cross_file import MAX_DEPTH, import_depth, is_foreign
from .flow.driver import Analyzer
from .flow.values import FuncV
from .source_text import SourceText
from .syntax_nodes import own_nodes

if TYPE_CHECKING:
    from .project_index import ProjectIndex


@dataclass(eq=False)
class ModuleSummary:
    path: Path
    fingerprint: tuple
    src: SourceText
    env: dict
    deps: dict  # path -> fingerprint, every project file this summary read (transitively)
    depth: int = 1


def _mark(tree: ast.AST, summary: ModuleSummary) -> None:
    """Tag every node of another file's tree with its home."""
    for node in own_nodes(tree):
        node._tp_home = summary


class SummaryCache:
    """Per-process cache of module summaries (least recently used first out)."""

    def __init__(self, index: "ProjectIndex", limit: int) -> None:
        self.index = index
        self.limit = limit
        self.entries: "OrderedDict[tuple[Path, int], ModuleSummary]" = OrderedDict()
        self.building: list[Path] = []

    def valid(self, summary: ModuleSummary) -> bool:
        if self.index.static:
            return True
        fp = self.index.fingerprint
        return fp(summary.path) == summary.fingerprint and all(fp(p) == f for p, f in summary.deps.items())

    def get(self, path: Path, ev=None, depth: Optional[int] = None) -> Optional[ModuleSummary]:
        """The summary of `path` (None: unreadable, unparsable or part of an import cycle)."""
        depth = depth or import_depth(ev)
        with self.index.lock:
            summary = self._get(path, depth)
            if ev is not None and summary is not None:
                deps = ev.__dict__.setdefault("cross_deps", {})
                deps[summary.path] = summary.fingerprint
                deps.update(summary.deps)
            return summary

    def _get(self, path: Path, depth: int) -> Optional[ModuleSummary]:
        key = (path, depth)
        summary = self.entries.get(key)
        if summary is None and depth == MAX_DEPTH:  # a fuller summary serves as well
            summary = self.entries.get((path, 1))
            key = (path, 1) if summary is not None else key
        if summary is not None and self.valid(summary):
            self.entries.move_to_end(key)
            return summary
        key = (path, depth)  # a stale fuller summary is rebuilt at the depth asked, under that depth
        if path in self.building or len(self.building) > 40:
            return None  # circular import (or absurdly deep chain): unknown
        fingerprint = self.index.fingerprint(path)
        text = self.index.read(path) if fingerprint is not None else None
        if text is None:
            self.entries.pop(key, None)
            return None
        self.building.append(path)
        try:
            summary = summarise(self.index, path, text, fingerprint, depth)
        finally:
            self.building.pop()
        self.entries[key] = summary
        self.entries.move_to_end(key)
        while len(self.entries) > self.limit:
            self.entries.popitem(last=False)
        return summary


def summarise(index: "ProjectIndex", path: Path, text: str, fingerprint: tuple, depth: int = 1) -> ModuleSummary:
    """Run the module body of `path` with no rules; anything odd leaves an empty summary."""
    src = SourceText(text)
    summary = ModuleSummary(path, fingerprint, src, {}, {}, depth)
    if "\x00" in text:
        return summary
    try:
        tree = ast.parse(text, filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return summary
    _mark(tree, summary)
    analyzer = Analyzer(tree, src, [], Config(), str(path), project=index if depth < MAX_DEPTH else None)
    analyzer.summary_depth = depth
    try:
        analyzer.exec_body(tree.body)
    except Exception:  # a bug or a pathological module: what it defines stays unknown
        return summary
    env = {}
    for name, value in analyzer.frame.env.items():
        if isinstance(value, FuncV) and value.home is None and is_foreign(value.node):
            value = replace(value, home=summary)
        env[name] = value
    summary.env = env
    summary.deps = dict(analyzer.__dict__.get("cross_deps", {}))
    summary.deps.pop(path, None)
    return summary
