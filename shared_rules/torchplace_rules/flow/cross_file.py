"""The checked file's view of the project's other modules (cross-file analysis).

`import config` and `from models.net import Net` of the project's own code bind
values that look into another module's *summary*: its module-level
environment, analysed once with no rules (`module_summaries.py`, reached here
through `ev.project.summaries`).  Nodes of another file carry their home
(`HOME_ATTR`) so that nothing is reported at positions of another file:
`Analyzer.report` drops such findings and `GuardedSource` notices when a fix
was computed from a foreign node.
"""
from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Optional

from ..model import Span
from ..source_text import SourceText
from .devices import Dev
from .values import Number, UNKNOWN, ClassV, DeviceV, ModuleV, ObjectV, QualV, SelfV, SeqV, TensorV, Value

HOME_ATTR = "_tp_home"
#: Summaries of the checked file's imports resolve their own imports; those
#: (depth 2) do not: work per checked file stays bounded whatever the import graph.
MAX_DEPTH = 2


@dataclass(frozen=True)
class ProjectModuleV(QualV):
    """A module of the project (`import config`): attributes are its real values, summarised on first use."""

    file: Optional[Path] = field(default=None, compare=False, hash=False)
    depth: int = field(default=1, compare=False, hash=False)

    def member(self, ev, attr: str, node: Optional[ast.AST] = None) -> Optional[Value]:
        written = ev.module_writes.get((self.file, attr)) if ev.module_writes else None
        if written is not None:  # rebound by the program before this runs: `flair.device = ...`
            if ev.recorder is not None:
                ev.recorder.uncacheable = True  # (not a read the memo can check)
            value = written
        else:
            summary = ev.project.summaries.get(self.file, ev, self.depth) if self.file is not None else None
            value = resolved(ev, summary.env.get(attr)) if summary is not None else None
        if value is not None and value is not UNKNOWN and not (isinstance(value, QualV) and not isinstance(value, ProjectModuleV)):
            if isinstance(value, DeviceV) and node is not None:
                return DeviceV(replace(value.dev, expr=ev.src.segment(node)))
            return value
        if written is not None:
            return value
        if summary is not None and (summary.reexports or summary.stars):
            value = reexported(ev, summary, attr, 0)
            if value is not None:
                return value
        if self.file is not None and self.file.name == "__init__.py":
            sub = ev.project.resolve(self.file, attr, 1)
            if sub is not None:
                return ProjectModuleV(f"{self.name}.{attr}", sub, depth_of(ev, sub, self.depth))
        return None


class LazyImportV(Value):
    """`from module import name` of a project module, looked up when the name is first used
    (most imported names never matter, and summarising a module costs a parse)."""

    __slots__ = ("path", "module", "name", "depth", "fallback", "hops")

    def __init__(self, path: Path, module: Optional[str], name: str, depth: int, fallback: Value, hops: int = 0) -> None:
        self.path, self.module, self.name, self.depth, self.fallback = path, module, name, depth, fallback
        self.hops = hops  # re-exports followed to get here (`reexported`)

    def resolve(self, ev) -> Value:
        summary = ev.project.summaries.get(self.path, ev, self.depth) if ev.project is not None else None
        value = resolved(ev, summary.env.get(self.name)) if summary is not None else None
        if value is not None and value is not UNKNOWN and not isinstance(value, QualV):
            return value
        if isinstance(value, ProjectModuleV):
            return value
        if summary is not None and (summary.reexports or summary.stars):
            found = reexported(ev, summary, self.name, self.hops)
            if found is not None:
                return found
        if self.path.name == "__init__.py" and ev.project is not None:
            sub = ev.project.resolve(self.path, self.name, 1)
            if sub is not None:
                return ProjectModuleV(f"{self.module or ''}.{self.name}".lstrip("."), sub, depth_of(ev, sub, self.depth))
        return value if isinstance(value, QualV) else self.fallback


MAX_REEXPORT_HOPS = 3  # `from pkg import X` followed through at most this many modules that import X themselves
MAX_STAR_IMPORTS = 8  # a module with more `from m import *` is not searched for the names it does not bind


def reexported(ev, summary, name: str, hops: int) -> Optional[Value]:
    """While an importer of the checked file is summarised: what `name` of one of the checked file's
    packages is when the package imports it from another project module and its summary does not
    hold it (`from pkg import KNN`, `pkg.partial`): a star import (`from .agent import *`) binds
    nothing, and a summary of the last depth resolves no import.  The import is followed as if the
    name had been imported from where it is defined, at the summary's depth (None: unknown).  Only
    those packages are followed: resolving the re-exports of every module costs what the depth
    limit saves (and a star-imported name of a library index, like `AutoModel`, pulls in code that
    tells nothing)."""
    if hops >= MAX_REEXPORT_HOPS:
        return None
    target = getattr(ev, "caller_target", None)
    stars = summary.stars
    if target is None:
        # the checked file's own import of a package that star-imports the name (`from pkg import
        # HCNN`, `pkg.HCNN` with `from .hcnn import *` in pkg/__init__.py): as `from pkg.hcnn import *`
        # in the checked file would bind it (`import_star`); not through star imports under `if
        # TYPE_CHECKING:` (a lazily loaded library index: they never run)
        stars = summary.run_stars
        if summary.depth != 1 or not stars or ev.outgoing is not None or getattr(ev, "summary_depth", 0):
            return None
    elif summary.path not in ev.project.importers.reexports_of(target):
        return None
    spec = summary.reexports.get(name)
    if spec is not None:
        sources = [spec]
    elif len(stars) > MAX_STAR_IMPORTS:  # an index of a whole library: not searched
        return None
    else:
        sources = [(module, level, name) for module, level in stars]
    for module, level, original in sources:
        path = ev.project.resolve(summary.path, module, level)
        if path is None or path == summary.path or spec is None and not ev.project.importers.may_bind(path, name):
            continue
        depth = depth_of(ev, path, summary.depth)
        if original is None:  # `import a.b as c`
            return ProjectModuleV(module, path, depth)
        value = LazyImportV(path, module, original, depth, UNKNOWN, hops + 1).resolve(ev)
        if value is not UNKNOWN and not (isinstance(value, QualV) and not isinstance(value, ProjectModuleV)):
            return value
    return None


def checked_file_import(ev, home, name: str) -> Optional[Value]:
    """While an importer of the checked file is summarised: what `name` is in the code of `home`, a
    summary of the last depth (its imports unresolved), when `home` imports it from the checked
    file (`from nanofold.frame import Frame` in a module between the importer and the checked file).
    Only imports of the checked file are followed: the depth limit holds for every other one."""
    memo = ev.__dict__.setdefault("_checked_file_imports", {})
    key = (id(home), name)
    if key in memo:
        return memo[key]
    found = None
    spec = home.reexports.get(name)
    if spec is not None and ev.project is not None:
        module, level, original = spec
        if original is None:
            path = ev.project.resolve(home.path, module, level)
            if path is not None and path == ev.caller_target:
                found = ProjectModuleV(module, path, 1)
        else:
            path = ev.project.resolve(home.path, module, level)
            if path == ev.caller_target:
                value = LazyImportV(path, module, original, 1, UNKNOWN).resolve(ev)
                found = value if value is not UNKNOWN else None
    memo[key] = found
    return found


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


def import_depth(ev, path: Optional[Path] = None) -> int:
    """The depth `ev`'s imports (of `path`) are summarised at."""
    return depth_of(ev, path, min(getattr(ev, "summary_depth", 0) + 1, MAX_DEPTH))


def depth_of(ev, path: Optional[Path], depth: int) -> int:
    """`depth`, except for the file asked about while summarising one of its importers: the importer's
    code reads it as the checked file reads its own imports (depth 1), whatever else was summarised
    before, so that what the importer passes does not depend on the order of checks."""
    return 1 if path is not None and path == getattr(ev, "caller_target", None) else depth


def importing_file(ev):
    """The file whose code is running: an import inside another file's function (run for a call
    from the checked file) is resolved from that file's folder, not the checked file's."""
    return ev.home.path if ev.home is not None else ev.path


def import_module(ev, module: str, asname: Optional[str]) -> Optional[Value]:
    """`import a.b` binds `a`; `import a.b as c` binds `a.b`."""
    bound = module if asname else module.split(".")[0]
    path = ev.project.resolve(importing_file(ev), bound, 0)
    if path is None:
        return None
    return ProjectModuleV(bound, path, import_depth(ev, path))


def import_from(ev, module: Optional[str], level: int, name: str, fallback: Value = UNKNOWN) -> Optional[Value]:
    """What `from module import name` binds: a lazy project import, or None when it is not one."""
    path = ev.project.resolve(importing_file(ev), module, level)
    if path is None:
        return None
    return LazyImportV(path, module, name, import_depth(ev, path), fallback)


def module_dict_item(ev, node: ast.Subscript) -> Optional[Value]:
    """`module.__dict__["name"]` of a project module: its member `name` (None: not one, or a key not
    written out)."""
    key = node.slice
    if key.__class__ is not ast.Constant or not isinstance(key.value, str):
        return None
    module = ev.eval(node.value.value)
    return module.member(ev, key.value, node) if isinstance(module, ProjectModuleV) else None


def default_set_on_import(ev, value: Value) -> Optional[Value]:
    """The default device the body of an imported project module leaves (`value`: a lazy import of one of
    its names, or the module), where its text may set one (`torch.set_default_tensor_type(...)`): Python
    runs the body on the first import and the default holds for the whole process.  None: it sets none."""
    path = value.path if value.__class__ is LazyImportV else getattr(value, "file", None)
    if path is None or not ev.project.importers.sets_default_device(path):
        return None
    summary = ev.project.summaries.get(path, ev, value.depth)
    return summary.env.get("#default_device") if summary is not None else None


def import_star(ev, module: Optional[str], level: int) -> dict:
    """What `from module import *` of a project module binds: {name: lazy import} for each public
    name the module's text may bind at its top level (over-approximated; a name it does not bind
    resolves to unknown, as if unbound).  Only in the checked file and in the code of its importers run
    for what they pass it (`from utils import *` then `loader = getData(...)` in a script): a package's
    `__init__.py` star-imports its modules (their names are found through `reexported` where they
    matter), and binding them in the module summaries costs 5 % of the time on transformers (callgrind).
    Empty where the module is not the project's."""
    if ev.outgoing is None and getattr(ev, "summary_depth", 0):
        return {}
    here = importing_file(ev)
    path = ev.project.resolve(here, module, level)
    if path is None or path == here:  # (`from multiprocessing import *` in a package's own `multiprocessing/`)
        return {}
    depth = import_depth(ev, path)
    return {name: LazyImportV(path, module, name, depth, UNKNOWN)
            for name in ev.project.importers.names_of(path) if name and name[0] != "_"}


#: The module-level key of `from <library> import *` (a QualV of the library; UNKNOWN where there are two)
STAR_IMPORT = "#star_import"
BUILTIN_NAMES = frozenset(dir(builtins))


def library_star(ev, module: Optional[str], level: int) -> bool:
    """Is `from module import *` one of a library, not of the project (which `import_star` binds)?"""
    return not level and bool(module) and ev.project.resolve(importing_file(ev), module, 0) is None


def star_imported(ev, name: str) -> Value:
    """A global `name` this file binds nowhere, in a file with one `from <library> import *` and no
    other: the library's (`from transformers import *`, then `BertModel`); a builtin stays unknown."""
    if name in BUILTIN_NAMES or name[:1] == "#" or name[:2] == "__":  # (`#star_import` itself, `__file__`)
        return UNKNOWN
    star = ev.lookup(STAR_IMPORT)
    return QualV(f"{star.name}.{name}") if isinstance(star, QualV) else UNKNOWN


def foreign_result(value: Value) -> Value:
    """A value coming back from another file's code: drop source text that names its variables."""
    if isinstance(value, (TensorV, ModuleV)) and value.dev is not None and value.dev.expr \
            and value.dev.expr[0] not in "\"'":
        return replace(value, dev=Dev(value.dev.kind, value.dev.label, None, None, value.dev.mac, value.dev.assumed))
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
        return SourceText.segment(text_of(node, self), node)


def text_of(node, default: SourceText) -> SourceText:
    """The text of the file `node` belongs to (`default`: the text of the file being analysed)."""
    home = getattr(node, HOME_ATTR, None)
    return home.src if home is not None else default


class ForeignText(SourceText):
    """Another file's text while its code runs for the analysed file.  Nodes of the analysed file
    reach that code too (what a call passed: `torch.eye(3)` made by the caller), so a node's
    position and text are read from the file the node belongs to."""

    touched_foreign = False

    def __init__(self, home_src: SourceText, caller_src: SourceText) -> None:
        self.text, self._ascii = home_src.text, home_src._ascii
        self.home_src, self.caller_src = home_src, caller_src

    @property
    def lines(self) -> list[str]:
        return self.home_src.lines  # (split once, by the home file's text, when first read)

    def span(self, node):
        return text_of(node, self.caller_src).span(node)

    def start(self, node):
        return text_of(node, self.caller_src).start(node)

    def end(self, node):
        return text_of(node, self.caller_src).end(node)

    def segment(self, node):
        return text_of(node, self.caller_src).segment(node)


def foreign_text(ev, home) -> ForeignText:
    """The text `ev` reads while `home`'s code runs (one per home and analysis)."""
    text = ev.foreign_texts.get(id(home))
    if text is None:
        text = ev.foreign_texts[id(home)] = ForeignText(home.src, ev.file_src)
    return text


def is_foreign(node) -> bool:
    return getattr(node, HOME_ATTR, None) is not None


def foreign_home(node) -> Optional[object]:
    """The `FileHome` (path, text) of the other file `node` belongs to (None: it is in the checked file)."""
    return getattr(node, HOME_ATTR, None)


def home_elsewhere(ev, node) -> Optional[object]:
    """`foreign_home(node)` where that is another file than the checked one (a summary of the
    checked file itself, read by an importer that passes its values back, is not)."""
    home = getattr(node, HOME_ATTR, None)
    if home is None or ev.project is None:
        return home
    own = ev.__dict__.get("_own_real_path")
    if own is None:
        try:
            own = ev.project.real_file(ev.path)
        except (OSError, ValueError, TypeError):
            return home
        ev._own_real_path = own
    return home if home.path != own else None




# -- contexts from callers in other files ------------------------------------------------
MAX_CONTEXTS_PER_CALLEE = 4
MAX_IMPORTERS = 4  # the nearest importers of a file are analysed for what they pass it
MAX_CALLER_HOPS = 2  # ... and an importer's functions for what its own importers pass them
MIN_IMPORTER_LINES = 1500  # the importers analysed for one checked file, in lines (nearest first), at least


@dataclass(frozen=True)
class IncomingCall:
    """A call into the checked file from another project file: where, and what it passes."""

    path: Path = field(compare=False)
    line: int = field(compare=False)
    bound: tuple = ()  # (parameter, value) pairs
    self_dev: Optional[Dev] = None
    callee: Optional[ast.AST] = field(default=None, compare=False)  # the checked file's function it calls
    writes: tuple = ()  # ((file, name), value) pairs: the importer's `pkg.name = v` before the call (module_writes)

    def related(self):
        """(span of the callee's `def` line, message) for a finding this call makes true."""
        node = self.callee
        start = node.col_offset
        end = start + len(f"def {node.name}") + (6 if isinstance(node, ast.AsyncFunctionDef) else 0)
        return Span(node.lineno - 1, start, node.lineno - 1, end), f"called from {self.path.name} line {self.line}"


def qualified_name(fnode, cls) -> str:
    return f"{cls.name}.{fnode.name}" if cls is not None else fnode.name


def record_outgoing(ev, func, cls, bound: dict, self_dev, node) -> None:
    """While summarising an importer's calls: keep the context of a call into another project file."""
    home = func.home if func.home is not None else getattr(cls, "home", None)
    if home is None or func.scope is not None or not _informative(bound):
        return
    key = (home.path, qualified_name(func.node, cls))
    calls = ev.outgoing.setdefault(key, [])
    # (the file whose code makes the call: a trainer of another file the importer runs)
    call = IncomingCall(Path(importing_file(ev)), getattr(node, "lineno", 0), tuple(bound.items()), self_dev,
                        writes=tuple(ev.module_writes.items()) if ev.module_writes else ())
    if len(calls) < MAX_CONTEXTS_PER_CALLEE and call not in calls:
        calls.append(call)


def _informative(bound: dict) -> bool:
    return any(not (v is UNKNOWN or isinstance(v, Number) or (isinstance(v, SelfV) and v.attrs is None)) for v in bound.values())


def incoming_calls(ev) -> dict:
    """{"Class.method" / "function": [IncomingCall]} of the checked file, from the files that import it,
    with the checked file's own classes in the values (not those of its summary)."""
    try:
        own = ev.project.real_file(ev.path)
    except (OSError, ValueError, TypeError):
        return {}
    importers = ev.project.importers.importers_of(own)[:MAX_IMPORTERS]
    classes = {v.info.name: v.info for v in ev.own_env.values() if isinstance(v, ClassV) and v.info.home is None}
    out: dict = {}
    # What reading the importers costs stays of the order of checking this file.
    budget = max(MIN_IMPORTER_LINES, ev.src.text.count("\n"))
    for importer in importers:
        lines = ev.project.importers.line_count(importer)
        if lines > budget:
            continue
        budget -= lines
        summary = ev.project.callers.get(importer, own, ev, ev.caller_hop + 1 if ev.outgoing is not None else 1)
        if summary is None:
            continue
        for (path, name), calls in summary.outgoing.items():
            if path == own:
                for call in calls:
                    bound = tuple((k, _translate(v, own, classes, 0)) for k, v in call.bound)
                    writes = tuple((k, _translate(v, own, classes, 0)) for k, v in call.writes)
                    out.setdefault(name, []).append(IncomingCall(call.path, call.line, bound, call.self_dev, writes=writes))
            elif ev.outgoing is not None:
                # this file is an importer summarised for another one: what its own importers pass
                # that file's functions goes on to it (a class of that file's that this one derives
                # from: `Sub().validate(x)` runs the base class's `validate`)
                passed = ev.outgoing.setdefault((path, name), [])
                for call in calls:
                    if len(passed) < MAX_CONTEXTS_PER_CALLEE and call not in passed:
                        passed.append(call)
    return out


def _translate(value: Value, own: Path, classes: dict, depth: int) -> Value:
    """`value` with the classes of the checked file's summary replaced by the checked file's own."""
    if depth > 4:
        return value
    if isinstance(value, (SelfV, ObjectV, ClassV)):
        info = _own_class(value.info, own, classes)
        attrs = getattr(value, "attrs", None)
        if attrs:
            attrs = tuple((k, _translate(v, own, classes, depth + 1)) for k, v in attrs)
        if isinstance(value, ClassV):
            return ClassV(info, id(info.node))
        return replace(value, info=info, key=id(info.node), attrs=attrs)
    if isinstance(value, ModuleV) and value.cls is not None:
        attrs = tuple((k, _translate(v, own, classes, depth + 1)) for k, v in value.attrs)
        return replace(value, cls=_own_class(value.cls, own, classes), attrs=attrs)
    if isinstance(value, SeqV):
        if value.items is not None:
            return replace(value, items=tuple(_translate(v, own, classes, depth + 1) for v in value.items))
        return replace(value, elem=_translate(value.elem, own, classes, depth + 1))
    return value


def _own_class(info, own: Path, classes: dict):
    home = getattr(info, "home", None)
    if home is not None and home.path == own:
        return classes.get(info.name, info)
    return info
