"""Device-flow analysis: a flow-sensitive abstract interpreter over `ast`.

Each scope (module, function, method) is run once over its statements with an
environment of abstract values (`values.py`).  Branches are joined (a fact
survives only if every path agrees), loops run to a fixed point, and
`torch.cuda.is_available()` is taken as true: the analysis reports what would
happen on the machine the code asks for.  Rules do not walk the tree: they
receive events (`on_conflict`, `on_call`, `on_transfer`, ...) from here.
"""
from __future__ import annotations

import ast
import traceback
from dataclasses import dataclass, field, replace
from typing import Optional

from .analysis_memo import GroupRecord, Recorder, ScanRecord
from .class_model import ClassInfo, scan_class
from .config import Config
from .expressions import ExpressionEvaluator
from .model import EngineError, Finding, Related
from .module_summaries import LazyImportV, decorator_from_project, import_from, import_module, is_foreign
from .rule_base import Rule
from .source_text import SourceText
from .torch_api import TRAINING_STEP_METHODS
from .values import (
    CPU, SELF_DEV, UNKNOWN, ClassV, DeviceV, Dev, FuncV, LoaderV, SelfV, SeqV, TensorV, Value,
    device_variable, join_env,
)

EVENTS = ("conflict", "call", "transfer", "expr_stmt", "class", "finish", "module_call")
MAX_LOOP_PASSES = 3


@dataclass
class LoopContext:
    node: ast.AST
    training: bool
    loader: Optional[LoaderV] = None
    breaks: list = field(default_factory=list)
    continues: list = field(default_factory=list)


@dataclass
class Frame:
    kind: str  # module | function | method
    env: dict
    func: Optional[ast.AST] = None
    cls: Optional[ClassInfo] = None
    returns: Optional[Value] = None
    loops: list = field(default_factory=list)
    no_grad: int = 0
    inline_depth: int = 0


class _Terminated(Exception):
    """Raised inside a block after return/raise/break/continue (the rest is dead)."""


class Analyzer(ExpressionEvaluator):
    def __init__(self, tree: ast.Module, src: SourceText, rules: list[Rule], config: Config, path: Optional[str] = None,
                 project=None, memo=None) -> None:
        self.tree = tree
        self.memo = memo  # AnalysisMemo: reuse the results of groups an edit did not touch
        self.recorder: Optional[Recorder] = None  # reads of the running group / class scan
        self.owned_classes: set = set()  # classes of the running group (their init_values are its own)
        self.deferred: list = []  # (rule code, payload) a rule reports at `finish`
        self.own_env: dict = {}  # this file's module environment, once the module body has run
        self.used_groups: set = set()
        self.used_scans: set = set()
        self.project = project  # ProjectIndex: imports of the project's own modules get their real values
        self.foreign_depth = 0  # > 0 while inlining another file's function: it reports nothing
        self.src = src  # a GuardedSource when `project` is given (see `check_source`)
        self.config = config
        self.device_names = set(config.device_names)
        self.handlers: dict[str, list] = {e: [getattr(r, "on_" + e) for r in rules if hasattr(r, "on_" + e)] for e in EVENTS}
        self.findings: dict[tuple, Finding] = {}
        self.pending: list[tuple] = []  # (FuncV, enclosing env, ClassInfo|None)
        self.module_env: dict = {}
        self.targets_accelerator = False  # some accelerator device appears in the file
        self.inline_cache: dict = {}
        self.inline_stack: set = set()
        self.frame = Frame("module", {})
        self.path = path
        self.errors: list[EngineError] = []
        self.crashed: set[str] = set()
        self.bare_call = None
        self.current_stmt = None
        self.guards: list = []  # tests of the enclosing `if` bodies

    # -- reporting -------------------------------------------------------
    def emit(self, event: str, *args) -> None:
        for handler in self.handlers[event]:
            rule = handler.__self__
            if rule.code in self.crashed:
                continue
            try:
                if self.project is not None:
                    self.src.touched_foreign = False
                handler(self, *args)
            except Exception as exc:  # a rule's bug must not silence the others
                self.crashed.add(rule.code)
                self.errors.append(EngineError(f"{rule.code} {rule.name}", self.path, f"{type(exc).__name__}: {exc}",
                                               "".join(traceback.format_exception(exc))))
                self.findings = {k: f for k, f in self.findings.items() if f.code != rule.code}

    def report(self, rule: Rule, node, message: str, related=(), fix=None, unnecessary: bool = False) -> None:
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
        finding = Finding(rule.code, rule.name, rule.severity, message, span, rel, fix, unnecessary)
        if recorder is not None:  # kept even when another group reported it first: a replay must not depend on order
            recorder.reported.append(finding)
        self.findings.setdefault(key, finding)

    # -- driver ------------------------------------------------------------
    def run(self) -> list[Finding]:
        self.module_env = self.frame.env
        self.exec_body(self.tree.body)
        self.module_env = self.own_env = self.frame.env
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
        cross_before = dict(self.__dict__.get("cross_deps", {}))
        self.inline_cache = {}  # an entry's reads belong to the group that made it
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
        cross = {k: v for k, v in self.__dict__.get("cross_deps", {}).items() if cross_before.get(k) != v}
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
            self.analyze_function(func.node, enclosing, cls)

    def replay(self, record: GroupRecord) -> None:
        for f in record.findings:
            self.findings.setdefault((f.code, f.span), replace(f))
        self.targets_accelerator = self.targets_accelerator or record.sets_accelerator
        self.deferred.extend(record.deferred)
        if record.cross_deps:
            self.__dict__.setdefault("cross_deps", {}).update(record.cross_deps)
        if record.cls is not None:
            record.cls.init_values = dict(record.init_values)

    def reads_hold(self, reads: dict) -> bool:
        try:
            return all(self.current_value(key) == seen for key, seen in reads.items())
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
        return info.attr_value(name, at)

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

    def analyze_function(self, node, enclosing: dict, cls: Optional[ClassInfo], args: Optional[dict] = None, depth: int = 0):
        saved = self.frame
        env = dict(enclosing) if enclosing is not None and enclosing is not self.module_env else {}
        kind = "method" if cls is not None else "function"
        self.frame = Frame(kind, env, node, cls, inline_depth=depth)
        try:
            self.bind_parameters(node, cls, args)
            self.exec_body(node.body)
            if cls is not None and node.name == "__init__" and args is None:
                cls.init_values = {k: v for k, v in self.frame.env.items() if k.startswith("self.")}
            return self.frame
        finally:
            self.frame = saved

    def bind_parameters(self, node, cls: Optional[ClassInfo], args: Optional[dict]) -> None:
        a = node.args
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        params = list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
        is_method = cls is not None and not _is_static(node)
        for i, (arg, default) in enumerate(params):
            name = arg.arg
            if args is not None and name in args:
                value = args[name]
            elif i == 0 and is_method and name in ("self", "cls"):
                value = SelfV(cls, id(cls.node)) if name == "self" else UNKNOWN
            else:
                value = self.parameter_value(arg, default, cls, node)
            self.frame.env[name] = value
        for extra in (a.vararg, a.kwarg):
            if extra is not None:
                self.frame.env[extra.arg] = UNKNOWN

    def parameter_value(self, arg: ast.arg, default, cls: Optional[ClassInfo], func) -> Value:
        name = arg.arg
        if name in self.device_names:
            if isinstance(default, ast.Constant) and default.value in ("cpu", None):
                return UNKNOWN
            if cls is not None and cls.is_module:
                return DeviceV(Dev(SELF_DEV.kind, SELF_DEV.label, name, arg))  # the caller passes the module's device
            self.targets_accelerator = True
            return DeviceV(Dev("accel", "target", name, arg))
        if cls is not None and cls.is_module and func.name == "forward":
            if _annotated_tensor(arg.annotation) or (arg.annotation is None and default is None):
                return TensorV(SELF_DEV, origin=arg)
        elif cls is not None and cls.is_module and _annotated_tensor(arg.annotation):
            return TensorV(SELF_DEV, origin=arg)
        if name.endswith("loader") and arg.annotation is None and default is None:
            return LoaderV(False, CPU, arg)
        return UNKNOWN

    # -- statements --------------------------------------------------------
    def exec_body(self, body: list) -> bool:
        """Run statements; False when the block cannot fall through."""
        try:
            for stmt in body:
                self.exec_stmt(stmt)
        except _Terminated:
            return False
        return True

    def exec_stmt(self, stmt) -> None:
        method = getattr(self, "stmt_" + type(stmt).__name__, None)
        if method is not None:
            saved, self.current_stmt = self.current_stmt, stmt
            try:
                method(stmt)
            finally:
                self.current_stmt = saved

    def stmt_Expr(self, stmt: ast.Expr) -> None:
        node = stmt.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            recv = self.eval(node.func.value)
            self.bare_call = node
            try:
                result = self.eval_call(node, recv_value=recv)
            finally:
                self.bare_call = None
            self.emit("expr_stmt", stmt, node, recv, result)
        else:
            self.eval(node)

    def stmt_Assign(self, stmt: ast.Assign) -> None:
        value = self.eval(stmt.value)
        for target in stmt.targets:
            self.bind(target, value, stmt.value)

    def stmt_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, self.eval(stmt.value), stmt.value)

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> None:
        # In-place arithmetic never moves a tensor; mixing devices still raises.
        target_value = self.eval(stmt.target)
        value = self.eval(stmt.value)
        self.check_operands(stmt, [(target_value, stmt.target), (value, stmt.value)])
        if not isinstance(target_value, TensorV):
            self.bind(stmt.target, UNKNOWN if isinstance(value, TensorV) else target_value, None)

    def stmt_Return(self, stmt: ast.Return) -> None:
        value = self.eval(stmt.value) if stmt.value is not None else UNKNOWN
        f = self.frame
        f.returns = value if f.returns is None else f.returns.join(value)
        raise _Terminated

    def stmt_Raise(self, stmt: ast.Raise) -> None:
        if stmt.exc is not None:
            self.eval(stmt.exc)
        raise _Terminated

    def stmt_Break(self, stmt) -> None:
        if self.frame.loops:
            self.frame.loops[-1].breaks.append(dict(self.frame.env))
        raise _Terminated

    def stmt_Continue(self, stmt) -> None:
        if self.frame.loops:
            self.frame.loops[-1].continues.append(dict(self.frame.env))
        raise _Terminated

    def stmt_Delete(self, stmt: ast.Delete) -> None:
        for target in stmt.targets:
            path = self.path_of(target)
            if path is not None:
                self.frame.env[path] = UNKNOWN

    def stmt_Import(self, stmt: ast.Import) -> None:
        from .values import QualV

        for alias in stmt.names:
            local = alias.asname or alias.name.split(".")[0]
            value = self.project_import(import_module, alias.name, alias.asname)
            if value is None:
                value = QualV(alias.name if alias.asname else local)
            self.frame.env[local] = value

    def stmt_ImportFrom(self, stmt: ast.ImportFrom) -> None:
        from .values import QualV

        for alias in stmt.names:
            if alias.name == "*":
                continue
            if stmt.level or not stmt.module:
                value = UNKNOWN
            else:
                value = QualV(f"{stmt.module}.{alias.name}")
            value = self.project_import(import_from, stmt.module, stmt.level, alias.name, value) or value
            self.frame.env[alias.asname or alias.name] = value

    def project_import(self, how, *args) -> Optional[Value]:
        """The real value of an import of the project's own code (None: not one, or unknown)."""
        if self.project is None:
            return None
        try:
            return how(self, *args)
        except RecursionError:
            raise
        except Exception as exc:  # resolution must never break the analysis of this file
            self.errors.append(EngineError("cross-file", self.path, f"{type(exc).__name__}: {exc}",
                                           "".join(traceback.format_exception(exc))))
            return None

    def stmt_FunctionDef(self, stmt) -> None:
        for deco in stmt.decorator_list:
            if self.project is None or not decorator_from_project(self, deco):
                self.eval(deco)
        func = FuncV(stmt, id(stmt), self.frame.cls)
        self.frame.env[stmt.name] = func
        if self.frame.kind == "module":
            self.pending.append((func, None, None))
        elif self.frame.inline_depth == 0:
            self.pending.append((func, dict(self.frame.env), None))

    stmt_AsyncFunctionDef = stmt_FunctionDef

    def stmt_ClassDef(self, stmt: ast.ClassDef) -> None:
        info = self.class_scan(stmt)
        self.frame.env[stmt.name] = ClassV(info, id(stmt))
        if self.frame.inline_depth:
            return
        enclosing = None if self.frame.kind == "module" else dict(self.frame.env)
        for name in info.method_order:
            method = info.methods[name]
            self.pending.append((FuncV(method, id(method), info), enclosing, info))
        self.emit("class", info)

    def stmt_If(self, stmt: ast.If) -> None:
        assumed = self.assumed_truth(stmt.test)
        if assumed is None:
            self.eval(stmt.test)
        entry = self.frame.env
        branches = []
        if assumed is not False:
            self.frame.env = dict(entry)
            self.guards.append(stmt.test)
            try:
                body_ok = self.exec_body(stmt.body)
            finally:
                self.guards.pop()
            if body_ok:
                branches.append(self.frame.env)
        if assumed is not True:
            self.frame.env = dict(entry)
            if self.exec_body(stmt.orelse):
                branches.append(self.frame.env)
        self.frame.env = entry
        self.merge(branches)

    def merge(self, branches: list) -> None:
        if not branches:
            raise _Terminated
        env = branches[0]
        for other in branches[1:]:
            env = join_env(env, other)
        self.frame.env = env

    def stmt_For(self, stmt) -> None:
        iterable = self.eval(stmt.iter)
        element, loader = self.iteration_element(iterable, stmt)
        training = _has_training_step(stmt.body)
        self.run_loop(stmt, training, loader, lambda: self.bind(stmt.target, element, None))

    stmt_AsyncFor = stmt_For

    def stmt_While(self, stmt: ast.While) -> None:
        self.eval(stmt.test)
        self.run_loop(stmt, _has_training_step(stmt.body), None, None)

    def run_loop(self, stmt, training: bool, loader, bind_target) -> None:
        entry = self.frame.env
        head = entry
        exits = [entry]
        ctx = LoopContext(stmt, training, loader)
        self.frame.loops.append(ctx)
        try:
            for _ in range(MAX_LOOP_PASSES):
                self.frame.env = dict(head)
                if bind_target:
                    bind_target()
                ctx.breaks.clear()
                ctx.continues.clear()
                ends = []
                if self.exec_body(stmt.body):
                    ends.append(self.frame.env)
                ends.extend(ctx.continues)
                new_head = head
                for end in ends:
                    new_head = join_env(new_head, end)
                exits = [new_head] + list(ctx.breaks)
                if _same_env(new_head, head):
                    break
                head = new_head
        finally:
            self.frame.loops.pop()
        self.frame.env = exits[0]
        for other in exits[1:]:
            self.frame.env = join_env(self.frame.env, other)
        if stmt.orelse:
            self.exec_body(stmt.orelse)

    def stmt_With(self, stmt) -> None:
        no_grad = 0
        default_device = None
        for item in stmt.items:
            value = self.eval(item.context_expr)
            qual = self.qualname(item.context_expr.func) if isinstance(item.context_expr, ast.Call) else None
            if qual in ("torch.no_grad", "torch.inference_mode"):
                no_grad += 1
            if isinstance(value, DeviceV):  # `with torch.device("cuda"):` sets the default device
                default_device = value.dev
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN, None)
        self.frame.no_grad += no_grad
        saved_default = self.frame.env.get("#default_device")
        if default_device is not None:
            self.frame.env["#default_device"] = DeviceV(default_device)
        try:
            if not self.exec_body(stmt.body):
                raise _Terminated
        finally:
            self.frame.no_grad -= no_grad
            if default_device is not None:
                if saved_default is None:
                    self.frame.env.pop("#default_device", None)
                else:
                    self.frame.env["#default_device"] = saved_default

    stmt_AsyncWith = stmt_With

    def stmt_Try(self, stmt) -> None:
        entry = self.frame.env
        self.frame.env = dict(entry)
        body_ok = self.exec_body(stmt.body)
        after_body = self.frame.env
        branches = []
        if body_ok:
            if stmt.orelse:
                if self.exec_body(stmt.orelse):
                    branches.append(self.frame.env)
            else:
                branches.append(after_body)
        # An exception may come from any point of the body.
        handler_entry = join_env(entry, after_body)
        for handler in stmt.handlers:
            self.frame.env = dict(handler_entry)
            if handler.name:
                self.frame.env[handler.name] = UNKNOWN
            if self.exec_body(handler.body):
                branches.append(self.frame.env)
        self.frame.env = entry
        if stmt.finalbody:
            self.frame.env = branches[0] if branches else dict(handler_entry)
            for other in branches[1:]:
                self.frame.env = join_env(self.frame.env, other)
            if not self.exec_body(stmt.finalbody) or not branches:
                raise _Terminated
            return
        self.merge(branches)

    stmt_TryStar = stmt_Try

    def stmt_Match(self, stmt) -> None:
        self.eval(stmt.subject)
        entry = self.frame.env
        branches = [entry]
        for case in stmt.cases:
            self.frame.env = dict(entry)
            for name in _pattern_names(case.pattern):
                self.frame.env[name] = UNKNOWN
            if self.exec_body(case.body):
                branches.append(self.frame.env)
        self.frame.env = entry
        self.merge(branches)

    def stmt_Assert(self, stmt: ast.Assert) -> None:
        self.eval(stmt.test)

    def stmt_Global(self, stmt) -> None:
        for name in stmt.names:
            self.frame.env.pop(name, None)

    stmt_Nonlocal = stmt_Global

    # -- loops -------------------------------------------------------------
    def iteration_element(self, iterable: Value, stmt) -> tuple[Value, Optional[LoaderV]]:
        """What one step of `for target in iterable` binds, and the loader behind it."""
        from .calls import EnumerateV, ItemsV, ZipV
        from .values import BatchInfo, BatchV

        if isinstance(iterable, LoaderV):
            if iterable.batch_dev is None:
                return UNKNOWN, iterable
            if not iterable.batch_dev.is_cpu:
                return TensorV(iterable.batch_dev, origin=stmt.iter), iterable
            return BatchV(BatchInfo(stmt, id(stmt), iterable.pin_memory)), iterable
        if isinstance(iterable, ZipV):
            parts = [self.iteration_element(v, stmt) for v in iterable.inner]
            loader = next((l for _, l in parts if l is not None), None)
            return SeqV(tuple(v for v, _ in parts)), loader
        if isinstance(iterable, EnumerateV):
            inner, loader = self.iteration_element(iterable.inner, stmt)
            return SeqV((UNKNOWN, inner)), loader
        if isinstance(iterable, ItemsV):
            return SeqV((UNKNOWN, iterable.inner)), None
        if isinstance(iterable, SeqV):
            return iterable.element(), None
        from .values import DatasetV

        if isinstance(iterable, DatasetV) and iterable.dev is not None:
            return SeqV(None, TensorV(iterable.dev, origin=stmt.iter)), None
        return UNKNOWN, None

    # -- helpers used by rules ----------------------------------------------
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


def _same_env(a: dict, b: dict) -> bool:
    if a is b:
        return True
    if a.keys() != b.keys():
        return False
    return all(v is b[k] or v == b[k] for k, v in a.items())


def _is_static(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod",) for d in node.decorator_list)


def _annotated_tensor(annotation) -> bool:
    if annotation is None:
        return False
    text = ast.unparse(annotation) if not isinstance(annotation, ast.Name) else annotation.id
    return "Tensor" in text and "[" not in text.replace("Optional[", "").replace("]", "", 1)


def _has_training_step(body) -> bool:
    """Does the loop body call `.backward()` or `optimizer.step()`?  Memoised on the body."""
    owner = body[0] if body else None
    known = getattr(owner, "_tp_trains", None)
    if known is None:
        known = _scan_training_step(body)
        if owner is not None:
            owner._tp_trains = known
    return known


def _scan_training_step(body) -> bool:
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TRAINING_STEP_METHODS:
            if node.func.attr == "backward" or "optim" in ast.unparse(node.func.value).lower():
                return True
    return False


def _pattern_names(pattern) -> list[str]:
    names = []
    for node in ast.walk(pattern):
        for attr in ("name", "rest"):
            value = getattr(node, attr, None)
            if isinstance(value, str):
                names.append(value)
    return names


def analyze(tree: ast.Module, src: SourceText, rules: list[Rule], config: Config,
            path: Optional[str] = None, errors: Optional[list] = None, project=None, memo=None) -> list[Finding]:
    """Findings of `rules`; engine bugs go to `errors` (rule crashes) or raise (the core)."""
    if "torch" not in src.text:
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
