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

from .config import Config
from .flow.cross_file import MAX_CALLER_HOPS, MAX_DEPTH, import_depth, is_foreign
from .flow.driver import Analyzer
from .flow.values import UNKNOWN, ClassV, FuncV, QualV
from .lazy_bodies import parse_skeleton
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
    generic_contexts: dict = field(default_factory=dict)  # its functions analysed for callers passing nothing known
    # what its module code imports from elsewhere and hands on (see `cross_file.reexported`):
    reexports: dict = field(default_factory=dict)  # name -> (module, level, name | None for `import module`)
    stars: tuple = ()  # (module, level) of each `from module import *`
    run_stars: tuple = ()  # those that run with the module (not under `if TYPE_CHECKING:`)


@dataclass(eq=False)
class FileHome:
    """What a node of another file's tree says of that file (`cross_file.foreign_home`): its path and
    text.  One per parse: the summaries of one file at two depths share the tree and its home."""
    path: Path
    src: SourceText


def _mark(tree: ast.AST, home) -> None:
    """Tag every node of another file's tree with its home."""
    for node in own_nodes(tree):
        node._tp_home = home


class _FileCache:
    """A per-process cache of what was derived from one project file, kept (least recently used
    first out) while the file and every project file it read keep their fingerprints."""

    def __init__(self, index: "ProjectIndex", limit: int) -> None:
        self.index = index
        self.limit = limit
        self.entries: OrderedDict = OrderedDict()
        self.building: list[Path] = []

    def valid(self, entry) -> bool:
        if self.index.static:
            return True
        fp = self.index.fingerprint
        return fp(entry.path) == entry.fingerprint and all(fp(p) == f for p, f in entry.deps.items())

    @staticmethod
    def note_dependencies(ev, entry) -> None:
        """The analysis `ev` read `entry`: it depends on its file and what that file read."""
        if ev is not None and entry is not None:
            deps = ev.__dict__.setdefault("cross_deps", {})
            deps[entry.path] = entry.fingerprint
            deps.update(entry.deps)
            ev.cross_writes += 1  # (see `Analyzer.add_cross_deps`)

    def build(self, key, path: Path, make):
        """`make(text, fingerprint)` for `path`, kept under `key` (None: unreadable, or a cycle)."""
        if path in self.building or len(self.building) > 40:
            return None  # circular import (or absurdly deep chain): unknown
        fingerprint = self.index.fingerprint(path)
        text = self.index.read(path) if fingerprint is not None else None
        if text is None:
            self.entries.pop(key, None)
            return None
        self.building.append(path)
        try:
            entry = make(text, fingerprint)
        finally:
            self.building.pop()
        self.entries[key] = entry
        self.entries.move_to_end(key)
        while len(self.entries) > self.limit:
            self.entries.popitem(last=False)
        return entry


class SummaryCache(_FileCache):
    """Module summaries, by (file, depth).  A file summarised at two depths (imported by the checked
    file and by one of its imports) is parsed once: the depths share its tree (`trees`)."""

    def __init__(self, index: "ProjectIndex", limit: int) -> None:
        super().__init__(index, limit)
        self.trees: OrderedDict = OrderedDict()  # path -> (fingerprint, tree | None, FileHome)

    def parsed(self, path: Path, text: str, fingerprint: tuple) -> tuple:
        """(tree | None when it does not parse, its FileHome) of `path` at `fingerprint`."""
        known = self.trees.get(path)
        if known is not None and known[0] == fingerprint:
            self.trees.move_to_end(path)
            return known[1], known[2]
        home = FileHome(path, SourceText(text))
        tree = _parse_marked(path, text, home, lazy=True)
        self.trees[path] = (fingerprint, tree, home)
        while len(self.trees) > self.limit:
            self.trees.popitem(last=False)
        return tree, home

    def get(self, path: Path, ev=None, depth: Optional[int] = None) -> Optional[ModuleSummary]:
        """The summary of `path` (None: unreadable, unparsable or part of an import cycle)."""
        depth = depth or import_depth(ev)
        with self.index.lock:
            summary = self._get(path, depth)
            self.note_dependencies(ev, summary)
            return summary

    def _get(self, path: Path, depth: int) -> Optional[ModuleSummary]:
        key = (path, depth)
        summary = self.entries.get(key)
        if summary is not None and self.valid(summary):
            self.entries.move_to_end(key)
            return summary
        # (never a summary of another depth: what an analysis sees must not depend on what ran before it)
        return self.build(key, path, lambda text, fp: summarise(self.index, path, text, fp, depth,
                                                                 self.parsed(path, text, fp)))


def _parse_marked(path: Path, text: str, home, lazy: bool = False) -> Optional[ast.Module]:
    """Another file's tree, every node tagged with its home (None: it does not parse); `lazy`:
    function bodies are parsed when first read (a summary reads few of them)."""
    if "\x00" in text:
        return None
    try:
        if lazy:
            return parse_skeleton(text, str(path), home)
        tree = ast.parse(text, filename=str(path))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    _mark(tree, home)
    return tree


def summarise(index: "ProjectIndex", path: Path, text: str, fingerprint: tuple, depth: int = 1,
              parsed: Optional[tuple] = None) -> ModuleSummary:
    """Run the module body of `path` with no rules; anything odd leaves an empty summary.
    `parsed`: (tree, FileHome) of the text when another depth parsed it already."""
    if parsed is None:
        home = FileHome(path, SourceText(text))
        parsed = _parse_marked(path, text, home, lazy=True), home
    tree, home = parsed
    summary = ModuleSummary(path, fingerprint, home.src, {}, {}, depth)
    if tree is None:
        return summary
    analyzer = Analyzer(tree, home.src, [], Config(), str(path), project=index if depth < MAX_DEPTH else None)
    analyzer.summary_depth = depth
    try:
        analyzer.exec_body(tree.body)
    except Exception:  # a bug or a pathological module: what it defines stays unknown
        return summary
    env = {}
    for name, value in analyzer.frame.env.items():
        if value.__class__ is FuncV and value.home is None and is_foreign(value.node):
            value = replace(value, home=summary)
        elif value.__class__ is ClassV and value.info.home is None and is_foreign(value.info.node):
            value.info.home = summary  # its methods run with this file's globals
        env[name] = value
    summary.env = env
    summary.deps = dict(analyzer.__dict__.get("cross_deps", {}))
    summary.deps.pop(path, None)
    # (named ones only where the depth left imports unresolved, and only for a package: what
    # `cross_file.reexported` reads there)
    if "import" in text and (depth == MAX_DEPTH or "*" in text):
        summary.reexports, summary.stars = _imports_handed_on(tree, env, depth == MAX_DEPTH)
        if summary.stars:
            summary.run_stars = tuple((s.module, s.level) for s in _module_statements(tree.body, run_only=True)
                                      if type(s) is ast.ImportFrom and s.names[0].name == "*")
    return summary


_BLOCKS = (ast.If, ast.Try, ast.With, getattr(ast, "TryStar", ast.Try))


def _module_statements(body: list, run_only: bool = False):
    """The statements run with the module (those in `if`, `try` and `with` blocks too; `run_only`:
    not those under `if TYPE_CHECKING:`, which never run)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, _BLOCKS):
            skip = run_only and type(stmt) is ast.If and _type_checking(stmt.test)
            for block in (() if skip else stmt.body, getattr(stmt, "orelse", ()), getattr(stmt, "finalbody", ())):
                yield from _module_statements(block, run_only)
            for handler in getattr(stmt, "handlers", ()):
                yield from _module_statements(handler.body, run_only)


def _type_checking(test: ast.expr) -> bool:
    """`TYPE_CHECKING`, `typing.TYPE_CHECKING`."""
    return (type(test) is ast.Name and test.id == "TYPE_CHECKING") \
        or (type(test) is ast.Attribute and test.attr == "TYPE_CHECKING")


def _imports_handed_on(tree: ast.Module, env: dict, unresolved: bool) -> tuple[dict, tuple]:
    """({name: (module, level, imported name)}, stars) of a module.  Names only where the summary
    did not resolve its imports (`unresolved`), each bound by that one import and nothing else
    (`from .a import f` then `f = wrap(f)` is not `a.f`), and still unknown to the summary."""
    if not unresolved:
        return {}, tuple((s.module, s.level) for s in _module_statements(tree.body)
                         if type(s) is ast.ImportFrom and s.names[0].name == "*")
    stars, imported, bound = [], {}, {}
    for stmt in _module_statements(tree.body):
        if isinstance(stmt, ast.ImportFrom):
            for alias in stmt.names:
                if alias.name == "*":
                    stars.append((stmt.module, stmt.level))
                else:
                    local = alias.asname or alias.name
                    imported[local] = (stmt.module, stmt.level, alias.name)
                    bound[local] = bound.get(local, 0) + 1
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                local = alias.asname or alias.name.split(".")[0]
                imported[local] = (alias.name if alias.asname else local, 0, None)
                bound[local] = bound.get(local, 0) + 1
        elif not isinstance(stmt, _BLOCKS):
            for name in _names_bound(stmt):
                bound[name] = bound.get(name, 0) + 1
    reexports = {name: spec for name, spec in imported.items()
                 if bound[name] == 1 and (env.get(name) is UNKNOWN or isinstance(env.get(name), QualV))}
    return reexports, tuple(stars)


def _names_bound(stmt: ast.stmt):
    """The names a module-level statement binds (over-approximated: `x[i] = v` binds `x` and `i`)."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
        return
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]
    for target in targets:
        if target is not None:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    yield node.id


# -- callers in other files ---------------------------------------------------------------
def _calls_into(owner: ast.AST, names: set) -> bool:
    """Does `owner` call something bound to one of `names` (`Trainer(...)`, `utils.load(...)`), or use
    an attribute made from one (".attr" in `names`: `self.model(x)`, `net = self.model`)?"""
    for node in ast.walk(owner):
        if isinstance(node, ast.Call):
            func = node.func
            while isinstance(func, ast.Attribute):
                func = func.value
            if isinstance(func, ast.Name) and func.id in names:
                return True
        elif isinstance(node, ast.Attribute) and "." + node.attr in names:
            return True
    return False


def _names_from(index: "ProjectIndex", path: Path, tree: ast.Module, target: Path, handed_on: dict) -> set:
    """The names `path` binds to `target` or to what it defines (`from target import A`, `import target`),
    also through the packages that hand on its names (`handed_on`: {package __init__: names, "*": any})."""
    sources = {target: None, **handed_on}
    names = set()
    for node in _run_statements(tree):
        if isinstance(node, ast.ImportFrom):
            source = index.resolve(path, node.module, node.level)
            if source in sources:
                given = sources[source]
                names.update(a.asname or a.name for a in node.names if given is None or a.name in given or "*" in given)
                if any(a.name == "*" for a in node.names):
                    # (`from .utils import *` binds the module's public names: the calls to them call into it)
                    names.update(given if given is not None else
                                 (n for n in index.importers.names_of(source) if n and n[0] != "_"))
                continue
            for a in node.names:
                full = f"{node.module}.{a.name}" if node.module else a.name
                if index.resolve(path, full, node.level) in sources:
                    names.add(a.asname or a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if index.resolve(path, a.name, 0) in sources:
                    names.add(a.asname or a.name.split(".")[0])
    return names


def _never_calls_into(index: "ProjectIndex", path: Path, tree: ast.Module, target: Path, names: set, hop: int) -> bool:
    """Can running `path` call no function of `target` (so that its summary has no call for it)?
    Only where no code can reach one: every project module `path` imports is `target` itself (no
    other module whose code could call it, no package handing its names on), no star import, none
    of the names bound to it (`names`) is ever read, and no importer of `path` has calls to pass on
    (`incoming_calls` hands on what those importers' code passes `target`)."""
    for node in own_nodes(tree):
        kind = node.__class__
        if kind is ast.Name:
            if node.id in names:
                return False
        elif kind is ast.ImportFrom:
            if any(a.name == "*" for a in node.names) or index.resolve(path, node.module, node.level) not in (None, target):
                return False
            for a in node.names:
                if index.resolve(path, f"{node.module}.{a.name}" if node.module else a.name, node.level) not in (None, target):
                    return False
        elif kind is ast.Import:
            if any(index.resolve(path, a.name, 0) not in (None, target) for a in node.names):
                return False
    return hop >= MAX_CALLER_HOPS or not index.importers.importers_of(path)


def _run_statements(tree: ast.Module) -> list:
    """The statements of `tree` but those under `if TYPE_CHECKING:`, which never run: a package that
    star-imports its modules only for type checkers (and hands them on lazily) calls none of them.
    (Only statement lists are walked: the imports looked for are statements.)"""
    out = []
    todo = [tree]
    push = out.append
    while todo:
        node = todo.pop()
        if type(node) is ast.If and _type_checking(node.test):
            blocks = (node.orelse,)
        else:
            blocks = [getattr(node, name, None) for name in _STATEMENT_LISTS]
            for clause in getattr(node, "handlers", None) or getattr(node, "cases", None) or ():
                blocks.append(clause.body)
        for block in blocks:
            if block.__class__ is list:
                for stmt in block:
                    push(stmt)
                    todo.append(stmt)
    return out


_STATEMENT_LISTS = ("body", "orelse", "finalbody")


def _with_derived(tree: ast.Module, names: set) -> set:
    """`names` and what the module binds to values made from them: module names (`denormalize =
    Denormalize(...)`: a function that calls `denormalize(x)` calls into the file too) and, as
    ".attr", attributes (`self.model = Net()`: a method that calls `self.model(x)` does)."""
    module_level = {id(s) for s in _module_statements(tree.body)}
    bindings = []  # (names and ".attrs" an assignment reads, those it binds)
    for stmt in _all_statements(tree.body):
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            bound = set()
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                for n in ast.walk(target):
                    if isinstance(n, ast.Attribute):
                        bound.add("." + n.attr)
                    elif isinstance(n, ast.Name) and id(stmt) in module_level:
                        bound.add(n.id)
            if bound:
                bindings.append(({n.id if isinstance(n, ast.Name) else "." + n.attr for n in ast.walk(stmt.value)
                                  if isinstance(n, (ast.Name, ast.Attribute))}, bound))
    grown = True
    while grown:
        grown = False
        for read, bound in bindings:
            if not bound <= names and not read.isdisjoint(names):
                names |= bound
                grown = True
    return names


def _all_statements(body: list):
    """Every statement of `body`, those in nested blocks, functions and classes too."""
    for stmt in body:
        yield stmt
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(stmt, field_name, None)
            if isinstance(block, list):
                yield from _all_statements(block)
        for handler in getattr(stmt, "handlers", ()):
            yield from _all_statements(handler.body)
        for case in getattr(stmt, "cases", ()):
            yield from _all_statements(case.body)


class _CallFilter:
    """Does a group (or function) of the importer call into the file asked about?  The names made
    from the imported ones are looked for on the first question (most importers ask none)."""

    def __init__(self, tree: ast.Module, names: set) -> None:
        self.tree, self.names, self.derived = tree, names, None

    def __call__(self, owner: ast.AST) -> bool:
        if self.derived is None:
            self.derived = _with_derived(self.tree, set(self.names))
        return _calls_into(owner, self.derived)


@dataclass(eq=False)
class CallerSummary:
    """What one file's code passes when it calls functions and methods of other project files:
    {(callee file, "Class.method" or "function"): [IncomingCall, ...]}."""

    path: Path
    fingerprint: tuple
    outgoing: dict
    deps: dict


class CallerCache(_FileCache):
    """Caller summaries, by (importer, imported file, hop): the importer's module body and the functions
    and classes that call a name it imports from that file (or an object made from one: `_CallFilter`)
    are analysed once (no rules), recording
    the contexts of their calls into other project files.  Hop 1 (an importer of the checked file)
    also runs its functions for what *its* importers pass them (hop 2), so a value a script makes
    reaches the checked file through one module in between (script -> util -> checked file)."""

    def get(self, path: Path, target: Path, ev=None, hop: int = 1) -> Optional[CallerSummary]:
        with self.index.lock:
            key = (path, target, hop)
            entry = self.entries.get(key)
            if entry is not None and self.valid(entry):
                self.entries.move_to_end(key)
            else:
                entry = self.build(key, path, lambda text, fp: summarise_callers(self.index, path, text, fp, target, hop))
            self.note_dependencies(ev, entry)
            return entry


def summarise_callers(index: "ProjectIndex", path: Path, text: str, fingerprint: tuple, target: Path,
                      hop: int = 1) -> CallerSummary:
    """Run the parts of `path` that can call into `target` (no rules) and keep the contexts of
    their calls into other project files."""
    entry = CallerSummary(path, fingerprint, {}, {})
    home = FileHome(path, SourceText(text))
    tree = _parse_marked(path, text, home)
    if tree is None:
        return entry
    names = _names_from(index, path, tree, target, index.importers.reexports_of(target))
    if not names:
        return entry
    if index.static and _never_calls_into(index, path, tree, target, names, hop):
        return entry  # (what the run would find: no call into `target`; its dependencies matter in an editor only)
    analyzer = Analyzer(tree, home.src, [], Config(), str(path), project=index)
    analyzer.summary_depth = 1  # its own imports are summarised without theirs: the cost stays bounded
    analyzer.caller_target = target  # ... except the file asked about (see `import_depth`)
    analyzer.caller_hop = hop
    analyzer.outgoing = entry.outgoing
    analyzer.group_filter = _CallFilter(tree, names)
    try:
        analyzer.run()
    except Exception:  # a bug or a pathological module: no contexts from it
        entry.outgoing.clear()
    entry.deps = dict(analyzer.__dict__.get("cross_deps", {}))
    entry.deps.pop(path, None)
    return entry
