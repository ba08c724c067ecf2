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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .syntax_nodes import own_nodes
from .source_text import SourceText
from .values import UNKNOWN, DeviceV, Dev, FuncV, ModuleV, QualV, TensorV, Value

if TYPE_CHECKING:
    from .project_index import ProjectIndex

HOME_ATTR = "_tp_home"
#: Summaries of the checked file's imports resolve their own imports; those
#: (depth 2) do not: work per checked file stays bounded whatever the import graph.
MAX_DEPTH = 2


@dataclass(eq=False)
class ModuleSummary:
    path: Path
    fingerprint: tuple
    src: SourceText
    env: dict
    deps: dict  # path -> fingerprint, every project file this summary read (transitively)
    depth: int = 1


@dataclass(frozen=True)
class ProjectModuleV(QualV):
    """A module of the project (`import config`): attributes are its real values, summarised on first use."""

    file: Optional[Path] = field(default=None, compare=False, hash=False)
    depth: int = field(default=1, compare=False, hash=False)

    def member(self, ev, attr: str, node: Optional[ast.AST] = None) -> Optional[Value]:
        summary = ev.project.summaries.get(self.file, ev, self.depth) if self.file is not None else None
        value = resolved(ev, summary.env.get(attr)) if summary is not None else None
        if value is not None and value is not UNKNOWN and not (isinstance(value, QualV) and not isinstance(value, ProjectModuleV)):
            if isinstance(value, DeviceV) and node is not None:
                return DeviceV(replace(value.dev, expr=ev.src.segment(node)))
            return value
        if self.file is not None and self.file.name == "__init__.py":
            sub = ev.project.resolve(self.file, attr, 1)
            if sub is not None:
                return ProjectModuleV(f"{self.name}.{attr}", sub, self.depth)
        return None


class LazyImportV(Value):
    """`from module import name` of a project module, looked up when the name is first used
    (most imported names never matter, and summarising a module costs a parse)."""

    __slots__ = ("path", "module", "name", "depth", "fallback")

    def __init__(self, path: Path, module: Optional[str], name: str, depth: int, fallback: Value) -> None:
        self.path, self.module, self.name, self.depth, self.fallback = path, module, name, depth, fallback

    def resolve(self, ev) -> Value:
        summary = ev.project.summaries.get(self.path, ev, self.depth) if ev.project is not None else None
        value = resolved(ev, summary.env.get(self.name)) if summary is not None else None
        if value is not None and value is not UNKNOWN and not isinstance(value, QualV):
            return value
        if isinstance(value, ProjectModuleV):
            return value
        if self.path.name == "__init__.py" and ev.project is not None:
            sub = ev.project.resolve(self.path, self.name, 1)
            if sub is not None:
                return ProjectModuleV(f"{self.module or ''}.{self.name}".lstrip("."), sub, self.depth)
        return value if isinstance(value, QualV) else self.fallback


def resolved(ev, value):
    """`value`, with a lazy import looked up (unknown when that fails)."""
    if type(value) is LazyImportV:
        return value.resolve(ev)
    return value


def decorator_from_project(ev, node) -> bool:
    """`@auto_docstring`, `@utils.wraps(...)`: a decorator imported from the project, whose
    value never matters to device flow (evaluating it would summarise its module for nothing)."""
    while isinstance(node, (ast.Call, ast.Attribute)):
        node = node.func if isinstance(node, ast.Call) else node.value
    if not isinstance(node, ast.Name):
        return False
    value = ev.frame.env.get(node.id) or ev.module_raw(node.id)
    return type(value) is LazyImportV or isinstance(value, ProjectModuleV)


def _depth(ev) -> int:
    return min(getattr(ev, "summary_depth", 0) + 1, MAX_DEPTH)


def import_module(ev, module: str, asname: Optional[str]) -> Optional[Value]:
    """`import a.b` binds `a`; `import a.b as c` binds `a.b`."""
    bound = module if asname else module.split(".")[0]
    path = ev.project.resolve(ev.path, bound, 0)
    if path is None:
        return None
    return ProjectModuleV(bound, path, _depth(ev))


def import_from(ev, module: Optional[str], level: int, name: str, fallback: Value = UNKNOWN) -> Optional[Value]:
    """What `from module import name` binds: a lazy project import, or None when it is not one."""
    path = ev.project.resolve(ev.path, module, level)
    if path is None:
        return None
    return LazyImportV(path, module, name, _depth(ev), fallback)


def foreign_result(value: Value) -> Value:
    """A value coming back from another file's code: drop source text that names its variables."""
    if isinstance(value, (TensorV, ModuleV)) and value.dev is not None and value.dev.expr \
            and value.dev.expr[0] not in "\"'":
        return replace(value, dev=Dev(value.dev.kind, value.dev.label, None, None))
    return value


class GuardedSource(SourceText):
    """The checked file's text; notices positions asked for nodes of another file."""

    touched_foreign = False

    def span(self, node):
        if getattr(node, HOME_ATTR, None) is not None:
            self.touched_foreign = True
        return super().span(node)

    def start(self, node):
        if getattr(node, HOME_ATTR, None) is not None:
            self.touched_foreign = True
        return super().start(node)

    def end(self, node):
        if getattr(node, HOME_ATTR, None) is not None:
            self.touched_foreign = True
        return super().end(node)

    def segment(self, node):
        home = getattr(node, HOME_ATTR, None)
        if home is not None:
            return home.src.segment(node)
        return super().segment(node)


def _mark(tree: ast.AST, summary: ModuleSummary) -> None:
    """Tag every node of another file's tree with its home."""
    for node in own_nodes(tree):
        node._tp_home = summary


def is_foreign(node) -> bool:
    return getattr(node, HOME_ATTR, None) is not None


def foreign_home(node) -> Optional[ModuleSummary]:
    """The summary of the other file `node` belongs to (None: it is in the checked file)."""
    return getattr(node, HOME_ATTR, None)


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
        depth = depth or _depth(ev)
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
    from .analysis import Analyzer
    from .config import Config

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
