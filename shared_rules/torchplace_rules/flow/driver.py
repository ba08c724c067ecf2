"""The device-flow analysis of one file: a flow-sensitive abstract interpreter over `ast`.

`Analyzer` runs the module body, then every function and method (each once,
with unknown arguments, in *groups*: one per top-level function or class, the
unit `analysis_memo` keeps between edits).  Branches are joined (a fact
survives only if every path agrees), loops run to a fixed point, and
`torch.cuda.is_available()` is taken as true: the analysis reports what would
happen on the machine the code asks for.  Rules do not walk the tree: they
receive events (`events.py`) from here.

The interpreter is assembled from one module per stage of the flow; each
module imports only the stages after it (and `values`/`state`), and what must
go back up (a call runs a function body) goes through the interpreter object:

    devices, values      abstract values
    state                frames, loops, joins of environments
    driver               this file: groups, reads kept for the memo, reporting
    statements           one method per statement kind
    expressions          one method per expression kind; where tensors meet
    calls                how a call is analysed: the routing to one of
      torch_calls          torch.* / torch.nn.functional.* / nn layers / NumPy, by qualified name
      torch_methods        Tensor.* and nn.Module methods, by name
      torch_api            the tables both read
      project_calls        the project's own functions, classes and methods
    contexts             entry and call contexts of a body; each body once per distinct context
    class_model          what a class of the project is and registers
    cross_file           values of the project's other modules (summarised by `module_summaries`)
"""
from __future__ import annotations

import ast
import traceback
from dataclasses import replace
from typing import Optional

from ..analysis_memo import ContextRecord, GroupRecord, Recorder, ScanRecord, same_read
from ..config import Config
from ..model import EngineError, Finding, Related
from ..rule_base import Rule
from ..source_text import SourceText
from ..syntax_nodes import is_main_test
from .class_model import ClassInfo, scan_class
from .cross_file import MAX_CALLER_HOPS, IncomingCall, LazyImportV, checked_file_import, incoming_calls, is_foreign, star_imported, BUILTIN_NAMES, STAR_IMPORT
from .devices import Dev, picks_current_device
from .placeholders import filled_value
from .events import EVENTS
from .expressions import ExpressionEvaluator
from .contexts import analyze_function, run_incoming
from .state import (
    MOVED_THROUGH, PLACEABLE, Frame, containers_moved_in_functions, device_variable, forget_aliases, forgotten,
    globals_moved_in_functions, held_values, holds_what_moves, move_call_roots, moved_containers_in, unplaced,
)
from .statements import StatementRunner
from .values import NONE, PROVEN, UNKNOWN, ObjectV, QualV, Value, unproven



class Analyzer(StatementRunner, ExpressionEvaluator):
    """The interpreter: statements and expressions are mixed in; calls, torch
    semantics and project code are functions that receive it as `ev`."""

    def __init__(self, tree: ast.Module, src: SourceText, rules: list[Rule], config: Config, path: Optional[str] = None,
                 project=None, memo=None) -> None:
        self.tree = tree
        self.own_env: Optional[dict] = None  # this file's module-level names (run(): from the start of its body)
        self.memo = memo  # AnalysisMemo: reuse the results of groups an edit did not touch
        self.recorder: Optional[Recorder] = None  # reads of the running group / class scan
        self.owned_classes: set = set()  # classes of the running group (their init_values are its own)
        self.deferred: list = []  # (rule code, payload) a rule reports at `finish`
        self.own_env: dict = {}  # this file's module environment, once the module body has run
        self.used_groups: set = set()
        self.used_scans: set = set()
        self.project = project  # ProjectIndex: imports of the project's own modules get their real values
        self.foreign_depth = 0  # > 0 while inlining another file's function: it reports nothing
        self.cross_writes = 0  # how many times `cross_deps` was written (see `add_cross_deps`)
        self.home = None  # the summary of the other file whose code runs now (None: this file's)
        self.src = src  # a GuardedSource when `project` is given (see `check_source`)
        self.file_src = src  # the checked file's text, also while another file's code runs
        self.foreign_texts: dict = {}  # id(summary) -> its ForeignText (cross_file.foreign_text)
        self.config = config
        self.device_names = set(config.device_names)
        self.handlers: dict[str, list] = _handlers(rules)  # event -> the rules' methods for it
        self.findings: dict[tuple, Finding] = {}
        self.pending: list[tuple] = []  # (FuncV, enclosing env, ClassInfo|None)
        self.module_env: dict = {}
        self.targets_accelerator = False  # some accelerator device appears in the file
        self.contexts: dict = {}  # call context -> (CallResult, ContextRecord): each body once per context
        self.active_calls: set = set()  # functions being analysed for a call (recursion gives up there)
        self.call_sites: list = []  # the calls whose contexts are being analysed, outermost first
        self.outgoing: Optional[dict] = None  # set while summarising an importer: its calls into other files
        self.incoming: dict = {}  # "Class.method" -> IncomingCall: what other files pass this file's functions
        self.caller_hop = MAX_CALLER_HOPS  # summarising an importer: how far it is from the checked file
        self.caller_target = None  # summarising an importer: the file (a Path) it is summarised for
        self.group_filter = None  # summarising an importer: only the groups that can call into the file asked about
        self.frame = Frame("module", {})
        self.path = path
        self.errors: list[EngineError] = []
        self.crashed: set[str] = set()
        self.bare_call = None
        self.current_stmt = None
        self.guards: list = []  # tests of the enclosing `if` bodies
        self.refills: Optional[dict] = None  # id(`d[k]` target) -> what a loop refilling every item stored
        # (file, name) -> value: `pkg.name = v` at the top level of the program, for the project module pkg
        # (`flair.device = torch.device("cuda:1")`): what the other files' code it runs afterwards reads there
        self.module_writes: Optional[dict] = None
        # `.cuda()` / "cuda" are cuda:0 unless the program picks the current device itself
        self.current_cuda_is_zero = not picks_current_device(src.text)

    # -- reporting -------------------------------------------------------
    def emit(self, event: str, *args) -> None:
        handlers = self.handlers[event]
        if not handlers:
            return
        crashed, guarded = self.crashed, self.project is not None
        for handler in handlers:
            if crashed and handler.__self__.code in crashed:
                continue
            try:
                if guarded:
                    self.src.touched_foreign = False
                handler(self, *args)
            except Exception as exc:  # a rule's bug must not silence the others
                rule = handler.__self__
                self.crashed.add(rule.code)
                self.errors.append(EngineError(f"{rule.code} {rule.name}", self.path, f"{type(exc).__name__}: {exc}",
                                               "".join(traceback.format_exception(exc))))
                self.findings = {k: f for k, f in self.findings.items() if f.code != rule.code}

    def report(self, rule: Rule, node, message: str, related=(), fix=None, unnecessary: bool = False,
               severity=None) -> None:
        """Record a finding of `rule` at `node`; `severity` lowers the rule's own for a finding that is
        not certain (a hint that says "may").  Inside a call's context the call that made it true
        is a related location."""
        if self.call_sites:  # inside a call's context: say which call made it true
            site = next((c for c in reversed(self.call_sites) if not is_foreign(c)), None)
            if isinstance(site, IncomingCall):
                related = list(related) + [site.related()]
            elif site is not None and site is not node:
                related = list(related) + [(site, "in this call")]
        if self.project is not None:  # never report at positions of another file
            if self.foreign_depth or is_foreign(node):
                return
            related = [(r, m) for r, m in related if not is_foreign(r)]
            if self.src.touched_foreign:
                fix = None
        span = node if not isinstance(node, ast.AST) else self.src.span(node)
        key = (rule.code, span)
        recorder = self.recorder
        if recorder is not None and recorder.scan:
            recorder.uncacheable = True
            recorder = None
        if key in self.findings and recorder is None:
            return
        rel = [Related(r if not isinstance(r, ast.AST) else self.src.span(r), m) for r, m in related if r is not None]
        finding = Finding(rule.code, rule.name, severity or rule.severity, message, span, rel, fix, unnecessary)
        if recorder is not None:  # kept even when another group reported it first: a replay must not depend on order
            recorder.reported.append(finding)
        self.findings.setdefault(key, finding)

    # -- the run ---------------------------------------------------------------
    def run(self) -> list[Finding]:
        self.module_env = self.own_env = self.frame.env
        self.exec_body(self.tree.body)
        self.module_env = self.own_env = self.frame.env
        values = self.own_env.values()
        if any(v.__class__ in MOVED_THROUGH for v in values):  # (else no name is: the text is not read)
            for name in self.move_roots():  # as a function sees them at its entry
                value = self.own_env.get(name)
                if self.moved_by_a_function(name, value):
                    self.own_env[name] = unplaced(value) if value.__class__ is not ObjectV else forgotten(value)
        if any(holds_what_moves(v) for v in values):  # (and those of a list or dict a function moves)
            for value in moved_containers_in(self, self.own_env).values():
                forget_aliases(self.own_env, held_values(value))
        self.contexts = {}  # made while module names were still being bound: not for the groups
        checked_file = self.outgoing is None and getattr(self, "summary_depth", 0) == 0
        if self.project is not None and (checked_file or self.caller_hop < MAX_CALLER_HOPS) and (
                self.pending or self.outgoing is not None and any(s.__class__ is ast.ClassDef for s in self.tree.body)):
            # (an importer summarised with classes but no methods of its own, `class Sub(Base): pass`:
            # what its importers pass the methods it inherits goes on to the file asked about)
            self.incoming = incoming_calls(self)  # (an importer summarised at hop 1 gets its own importers')
        groups: list[tuple] = []  # (owner node, ClassInfo | None, pending items): one per top-level function/class
        for item in self.pending:
            func, _enclosing, cls = item
            owner = cls.node if cls is not None else func.node
            if groups and groups[-1][0] is owner:
                groups[-1][2].append(item)
            else:
                groups.append((owner, cls, [item]))
        self.pending = []
        done: set[int] = set()
        for owner, cls, items in groups:
            if self.group_filter is not None and not self.group_filter(owner):
                continue
            if id(owner) not in self.used_groups:
                self.used_groups.add(id(owner))
                self.run_group(owner, cls, items, done)
        self.emit("finish")
        if self.memo is not None:
            self.memo.forget_unused(self.used_groups, self.used_scans)
        return [f for f in self.findings.values() if f.code not in self.crashed]

    # -- groups: the unit of reuse between versions (see analysis_memo) ---------
    def run_group(self, owner, cls: Optional[ClassInfo], items: list, done: set) -> None:
        memo = self.memo
        if memo is None:
            self.run_pending(items, done)
            return
        record = memo.groups.get(id(owner))
        if record is not None and record.owner is owner and record.cls is cls and self.reads_hold(record.reads):
            self.replay(record)
            memo.stats["groups_reused"] += 1
            return
        memo.stats["groups_run"] += 1
        recorder = Recorder(scan=False) if not self.crashed else None
        saved_flag, self.targets_accelerator = self.targets_accelerator, False
        n_errors, n_deferred = len(self.errors), len(self.deferred)
        cross_before = self.cross_snapshot()
        self.owned_classes = {cls} if cls is not None else set()
        self.recorder = recorder
        try:
            self.run_pending(items, done)
        finally:
            self.recorder = None
            sets_flag = self.targets_accelerator
            self.targets_accelerator = saved_flag or sets_flag
        if recorder is None or recorder.uncacheable or len(self.errors) != n_errors or self.crashed:
            memo.groups.pop(id(owner), None)
            return
        cross = self.cross_since(cross_before)
        memo.groups[id(owner)] = GroupRecord(
            owner, cls, recorder.reads, [replace(f) for f in recorder.reported], sets_flag,
            self.deferred[n_deferred:], cross, dict(cls.init_values) if cls is not None else None)

    def run_pending(self, items: list, done: set) -> None:
        """Analyse a group's functions and methods, then the functions nested in them."""
        self.pending = list(items)
        while self.pending:
            func, enclosing, cls = self.pending.pop(0)
            if id(func.node) in done:
                continue
            done.add(id(func.node))
            if self.group_filter is not None and func.node.name != "__init__" and not self.group_filter(func.node):
                continue  # summarising an importer: only what calls into the file asked about (and __init__)
            analyze_function(self, func.node, enclosing, cls)
        if self.incoming:
            for func, enclosing, cls in items:
                if enclosing is None and (self.group_filter is None or self.group_filter(func.node)):
                    run_incoming(self, func, cls)

    def replay(self, record: GroupRecord) -> None:
        for f in record.findings:
            self.findings.setdefault((f.code, f.span), replace(f))
        self.targets_accelerator = self.targets_accelerator or record.sets_accelerator
        self.deferred.extend(record.deferred)
        self.add_cross_deps(record.cross_deps)
        if record.cls is not None:
            record.cls.init_values = dict(record.init_values)

    # -- what the analysis read of other project files: path -> fingerprint ---------------
    def add_cross_deps(self, deps: dict) -> None:
        if deps:
            self.__dict__.setdefault("cross_deps", {}).update(deps)
            self.cross_writes += 1

    def cross_snapshot(self) -> tuple:
        return self.cross_writes, dict(self.__dict__.get("cross_deps", {}))

    def cross_since(self, snapshot: tuple) -> dict:
        """The entries of `cross_deps` added or changed since `snapshot` (none where nothing was
        written: comparing every entry costs a `Path` hash each, on every call context)."""
        writes, before = snapshot
        if writes == self.cross_writes:
            return {}
        return {k: v for k, v in self.__dict__.get("cross_deps", {}).items() if before.get(k) != v}

    # -- call contexts: kept for the whole run, their reads and findings go to every group using them --
    def run_context(self, analyse, shared: bool = False):
        """Run `analyse()` (a body for a call context) recording what it reads and reports;
        (its result, the record).  The reads are not recorded where nothing will ask for them:
        without a memo (a one-off check), for a record kept by this analysis alone (not
        `shared` with other files' analyses)."""
        parent = self.recorder
        child = Recorder(scan=False) if self.memo is not None or shared else None
        saved_flag, self.targets_accelerator = self.targets_accelerator, False
        n_errors, n_deferred = len(self.errors), len(self.deferred)
        cross_before = self.cross_snapshot()
        self.recorder = child
        try:
            result = analyse()
        finally:
            self.recorder = parent
            sets_flag = self.targets_accelerator
            self.targets_accelerator = saved_flag or sets_flag
        cross = self.cross_since(cross_before)
        record = ContextRecord(child.reads if child else {}, child.reported if child else [], sets_flag,
                               self.deferred[n_deferred:], cross, bool(child and child.uncacheable) or len(self.errors) != n_errors)
        self._merge_context(record)
        return result, record

    def replay_context(self, record: "ContextRecord") -> None:
        """A context analysed before is used again: its side effects count here too."""
        self.targets_accelerator = self.targets_accelerator or record.sets_accelerator
        self.deferred.extend(record.deferred)
        self.add_cross_deps(record.cross_deps)
        self._merge_context(record)

    def _merge_context(self, record: "ContextRecord") -> None:
        parent = self.recorder
        if parent is None:
            return
        for key, value in record.reads.items():
            parent.reads.setdefault(key, value)
        parent.reported.extend(record.reported)
        if record.uncacheable or (parent.scan and record.reported):
            parent.uncacheable = True

    def reads_hold(self, reads: dict) -> bool:
        try:
            return all(same_read(self.current_value(key), seen) for key, seen in reads.items())
        except Exception:  # noqa: BLE001 - a read that cannot be repeated: run again
            return False

    def current_value(self, key: tuple):
        kind = key[0]
        if kind == "env":
            value = self.own_env.get(key[1])
            return value.resolve(self) if type(value) is LazyImportV else value
        if kind == "init":
            return dict(key[1].init_values)
        if kind == "devvar":
            return device_variable(self.own_env)
        if kind == "name":
            return self._lookup(key[1])
        if kind == "path":
            return self.frame.env.get(key[1])
        if kind == "kind":
            return type(self.own_env.get(key[1])).__name__
        raise KeyError(key)

    def note_read(self, key: tuple) -> None:
        recorder = self.recorder
        if recorder is not None and key not in recorder.reads:
            recorder.reads[key] = self.current_value(key)

    def note_module_read(self, key: tuple) -> None:
        """A running group reads this file's module environment (not another file's, while inlining)."""
        if self.recorder is not None and not self.recorder.scan and self.module_env is self.own_env:
            self.note_read(key)

    def module_value(self, path: str):
        """This file's module-level binding of `path` (None: unbound), as a function sees it."""
        self.note_module_read(("env", path))
        return self.module_env.get(path)

    def module_raw(self, name: str):
        """The module-level binding of `name` as bound (a lazy import unresolved): only its kind may matter."""
        self.note_module_read(("kind", name))
        return self.module_env.get(name)

    def module_items(self):
        """All of this file's module-level bindings: a group that needs them is not kept."""
        if self.recorder is not None and not self.recorder.scan:
            self.recorder.uncacheable = True
        return self.module_env.items()

    def module_device_variable(self) -> Optional[str]:
        """A module-level name bound to an accelerator device, for fixes (`device`)."""
        self.note_module_read(("devvar",))
        return device_variable(self.module_env)

    def class_attr(self, info: ClassInfo, name: str, at) -> Value:
        """`self.<name>` of `info`; another group's class is read through what its `__init__` left."""
        if self.recorder is not None and not self.recorder.scan and info not in self.owned_classes:
            self.note_read(("init", info))
        value = info.attr_value(name, at)
        return value if value is not NONE else filled_value(self, info, name, value)

    def class_scan(self, stmt: ast.ClassDef) -> ClassInfo:
        """`scan_class`, kept between versions for module-level classes."""
        memo = self.memo
        if memo is None or self.frame.kind != "module" or self.recorder is not None:
            info = scan_class(stmt, self)
            if self.recorder is not None:
                self.owned_classes.add(info)
            return info
        self.used_scans.add(id(stmt))
        record = memo.scans.get(id(stmt))
        if record is not None and record.node is stmt and self.reads_hold(record.reads):
            memo.stats["scans_reused"] += 1
            record.info.init_values = {}
            return record.info
        recorder = Recorder(scan=True)
        n_errors = len(self.errors)
        self.recorder = recorder
        try:
            info = scan_class(stmt, self)
        finally:
            self.recorder = None
        if recorder.uncacheable or len(self.errors) != n_errors:
            memo.scans.pop(id(stmt), None)
        else:
            memo.scans[id(stmt)] = ScanRecord(stmt, info, recorder.reads)
        return info

    # -- names: lookups record what a group reads from outside itself ----------
    def lookup(self, name: str) -> Value:
        recorder = self.recorder
        if recorder is None or not recorder.scan:  # a local name (most reads): as `_lookup` finds it
            value = self.frame.env.get(name)
            if value is not None and type(value) is not LazyImportV:
                return value
        if recorder is None:
            return self._lookup(name)
        if recorder.scan:  # a class scan in the module body depends on every name it reads
            value = self._lookup(name)
            recorder.reads.setdefault(("name", name), value)
            return value
        if name not in self.frame.env and self.module_env is self.own_env:
            key = ("env", name)
            if key not in recorder.reads:
                recorder.reads[key] = self.current_value(key)
            value = recorder.reads[key]
            if value is None:
                return UNKNOWN if name in BUILTIN_NAMES else star_imported(self, name)
            return value
        return self._lookup(name)

    def _lookup(self, name: str) -> Value:
        value = self.frame.env.get(name)
        if value is None:
            value = self.module_env.get(name)
            if value is None:
                return UNKNOWN if STAR_IMPORT not in self.module_env else star_imported(self, name)
            if self.caller_target is not None and self.home is not None and self.home.reexports \
                    and (value is UNKNOWN or value.__class__ is QualV):
                value = checked_file_import(self, self.home, name) or value
            if value.__class__ in MOVED_THROUGH and self.module_env is self.own_env and self.frame.kind != "module" \
                    and self.moved_by_a_function(name, value):
                value = unplaced(value) if value.__class__ is not ObjectV else forgotten(value)  # see run()
            elif value.__class__ in PROVEN and self.frame.kind != "module":
                value = unproven(value)  # a global some function or module may rebind
        if type(value) is LazyImportV:  # a project import, summarised on first use
            value = value.resolve(self)
        return value

    def moved_by_a_function(self, name: str, value) -> bool:
        """Is `value`, bound to `name` at module level, a placed module, or an object holding modules
        (`h1.model.cuda()`), that a function of this file moves in place (`globals_moved_in_functions`;
        the text is read first, the walk only then)?"""
        if value.__class__ in PLACEABLE:
            if value.dev is None and value.placed_at is None:
                return False
        elif value.__class__ is not ObjectV:
            return False
        return name in self.move_roots() and name in self.moved_globals()

    def move_roots(self) -> frozenset:
        """Names this file's text calls `.to(` / `.cuda(` / ... on, and the module-level names a list or
        dict holds whose items a function moves (`MODELS = [enc, dec]`; kept per analysis)."""
        roots = self.__dict__.get("_move_roots")
        if roots is None:
            text = self.file_src.text
            roots = move_call_roots(text)
            self._moved_containers, self._item_moves = containers_moved_in_functions(self.tree, text, roots)
            self._move_roots = roots = roots | self._item_moves
        return roots

    def moved_containers(self) -> frozenset:
        """Module-level lists and dicts whose items a function of this file moves (kept per analysis)."""
        if "_move_roots" not in self.__dict__:
            self.move_roots()
        return self._moved_containers

    def moved_globals(self) -> frozenset:
        """Module-level names some function of this file moves in place (kept per analysis)."""
        moved = self.__dict__.get("_moved_globals")
        if moved is None:
            self.move_roots()
            moved = self._moved_globals = globals_moved_in_functions(self.tree) | self._item_moves
        return moved

    def bound_path_value(self, node) -> Optional[Value]:
        """The value bound to `a.b` / `a["k"]` in this scope, if the code assigned one."""
        path = self.path_of(node)
        return None if path is None else self._read_path(path)

    def item_under_name(self, node: ast.Subscript) -> Optional[Value]:
        """`d[k]` (k a name) where this scope stored an item under `k` (`d[k] = v`) and bound
        neither `d` nor `k` since: what it stored."""
        base = self.path_of(node.value)
        return None if base is None else self._read_path(f"{base}[<{node.slice.id}>]")

    def _read_path(self, path: str) -> Optional[Value]:
        """What this scope bound at `path` (None: nothing), noted as read for the memo."""
        if self.recorder is not None and self.recorder.scan:
            self.recorder.reads.setdefault(("path", path), self.frame.env.get(path))
        return self.frame.env.get(path)

    # -- for rules ---------------------------------------------------------------
    @property
    def in_training_loop(self) -> bool:
        return any(loop.training for loop in self.frame.loops)

    @property
    def in_periodic_branch(self) -> bool:
        """Inside `if step % N == 0:` (logging every N steps)."""
        return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mod) for test in self.guards for n in ast.walk(test))

    def device_expression(self, dev: Optional[Dev]) -> Optional[str]:
        """Source text naming `dev` that is in scope here, for a fix."""
        if dev is None or not dev.expr:
            return None
        expr = dev.expr
        if expr[0] in "\"'":
            return expr
        root = expr.split(".")[0].split("(")[0]
        if root in self.frame.env or self.module_value(root) is not None:
            return expr
        return None


_HANDLED_EVENTS: dict = {}  # rule class -> the events it has a handler for


def _handlers(rules: list) -> dict:
    """Event -> the handlers of `rules` for it.  Which events a rule class handles is found once
    (an Analyzer is made for every checked file and every summarised module); the methods are
    looked up each time."""
    table: dict[str, list] = {e: [] for e in EVENTS}
    for rule in rules:
        events = _HANDLED_EVENTS.get(type(rule))
        if events is None:
            events = _HANDLED_EVENTS[type(rule)] = tuple(e for e in EVENTS if hasattr(rule, "on_" + e))
        for event in events:
            table[event].append(getattr(rule, "on_" + event))
    return table


HOST_ARRAY_LIBRARIES = ("numpy", "sklearn", "matplotlib")


def _may_convert_passed(tree: ast.Module, text: str) -> bool:
    """Might a function of this file (one that names no torch) convert a tensor it is passed to NumPy?
    Only where one calls NumPy, scikit-learn or pyplot (a name bound by importing them) or `.numpy()`
    with an argument that names one of its parameters (not a method's own object): the importers'
    calls are summarised for such a file only (what that costs stays where it can change the answer)."""
    if "def " not in text or not any(name in text for name in HOST_ARRAY_LIBRARIES):
        return False
    libraries = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            libraries.update((a.asname or a.name).split(".")[0] for a in node.names
                             if a.name.split(".")[0] in HOST_ARRAY_LIBRARIES)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in HOST_ARRAY_LIBRARIES:
            libraries.update(a.asname or a.name for a in node.names)
    methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
    for fnode in ast.walk(tree):
        if not isinstance(fnode, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = fnode.args
        params = a.posonlyargs + a.args
        # (a method's own object: what its attributes hold is the class's, not what a caller passes)
        params = params[1:] if id(fnode) in methods else params
        params = {p.arg for p in params + a.kwonlyargs + [a.vararg, a.kwarg] if p is not None}
        for call in ast.walk(fnode):
            if not isinstance(call, ast.Call):
                continue
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "numpy":
                reads = [func.value]
            else:
                while isinstance(func, ast.Attribute):
                    func = func.value
                if not isinstance(func, ast.Name) or func.id not in libraries:
                    continue
                reads = call.args + [k.value for k in call.keywords]
            if any(isinstance(n, ast.Name) and n.id in params for r in reads for n in ast.walk(r)):
                return True
    return False


def _runs_project_code(tree: ast.Module, text: str, path: Optional[str], project) -> bool:
    """Does this program (it names no torch) call what the project's own code made, at its top level: a
    name bound to the result of a name imported from a project module, called in a statement of the module
    body or of its `__main__` block (a README's usage snippet as a script: `model = get_model(...)`, then
    `feat = model(img)`)?  The project's modules and tensors meet there.  Files that only define functions,
    or only call the project's functions, are left out (their callers pass what they get; reading them costs)."""
    if "import" not in text or path is None:
        return False
    body = list(tree.body)
    for stmt in tree.body:
        if stmt.__class__ is ast.If and is_main_test(stmt.test):
            body += stmt.body
    imported, made = {}, set()  # name -> its `from ... import`; the names a project module's name made
    in_project = {}  # id of a `from ... import` -> does it import from a project module
    for stmt in body:
        if stmt.__class__ is ast.ImportFrom and stmt.names[0].name != "*":
            imported.update((a.asname or a.name, stmt) for a in stmt.names)
        elif stmt.__class__ is ast.Assign and imported and stmt.value.__class__ is ast.Call \
                and stmt.value.func.__class__ is ast.Name and stmt.value.func.id in imported:
            source = imported[stmt.value.func.id]
            ours = in_project.get(id(source))
            if ours is None:
                ours = in_project[id(source)] = project.resolve(path, source.module, source.level) is not None
            # `model = get_model(...)` (a name made by a library's name is not the project's: only
            # those are kept, so a module body that only fills `OrderedDict(...)`s is not walked)
            names = {t.id for t in stmt.targets if t.__class__ is ast.Name}
            made = made | names if ours else made - names
        if made and stmt.__class__ in (ast.Assign, ast.Expr):
            for n in ast.walk(stmt.value):
                if n.__class__ is ast.Call and n.func.__class__ is ast.Name and n.func.id in made:  # `feat = model(img)`
                    return True
    return False


def analyze(tree: ast.Module, src: SourceText, rules: list[Rule], config: Config,
            path: Optional[str] = None, errors: Optional[list] = None, project=None, memo=None) -> list[Finding]:
    """Findings of `rules`; engine bugs go to `errors` (rule crashes) or raise (the core)."""
    # A file that never names torch has no tensors of its own; in a project it may still get them from
    # the project's modules (`from agents import *`, `agent.get_action(...)`): one that names CUDA is read.
    # So is one whose functions hand what they are passed to a library that reads it as a host array
    # (NumPy, scikit-learn, pyplot): its importers may pass them tensors on an accelerator
    # (`evaluate(labels, scores)` -> `roc_curve(labels, scores)`, run_incoming).
    if "torch" not in src.text and (project is None or "cuda" not in src.text and not _may_convert_passed(tree, src.text)
                                    and not _runs_project_code(tree, src.text, path, project)):
        if project is not None:
            project.record_dependencies(path, {})
        return []
    analyzer = Analyzer(tree, src, rules, config, path, project, memo)
    findings = analyzer.run()
    if memo is not None:
        memo.cross_deps = dict(analyzer.__dict__.get("cross_deps", {}))
    if errors is not None:
        errors.extend(analyzer.errors)
    if project is not None:
        project.record_dependencies(path, analyzer.__dict__.get("cross_deps", {}))
    return findings
