"""Statement semantics: one `stmt_<Kind>` method per statement kind.

Mixed into `Analyzer` (`driver.py`); relies on its frame and on `eval`/`bind`
(`expressions.py`).  Branches run on copies of the environment and are
joined; a loop body runs until its entry environment stops changing; code
after `return`/`raise`/`break`/`continue` is dead (`Terminated`).
"""
from __future__ import annotations

import ast
import traceback
from dataclasses import replace
from typing import Optional

from ..model import EngineError
from ..syntax_nodes import ends_the_program, own_nodes
from .cross_file import STAR_IMPORT, decorator_from_project, default_set_on_import, import_from, import_module, import_star, library_star
from .decorators import decorated
from .iteration_protocol import protocol_iterable
from .devices import ACCEL_KIND, Dev, chosen_index, chosen_target, mac_kind, parse_device_string, tests_a_device
from .state import (
    MAX_LOOP_PASSES, MODULE_MOVES, LoopContext, Terminated, forget_aliases, forget_held_by, forget_reflected, held_values,
    join_env, module_view_source, moves_its_items, same_env, with_held_attributes, with_stored_items,
)
from .container_values import concatenated
from .default_device import check_shuffled_loader
from .torch_api import TRAINING_STEP_METHODS
from .torch_calls import default_device
from .values import FALSE, NUMBER, IntV, Number, TRUE, UNKNOWN, BatchV, ClassV, EnumerateV, ItemsV, DeviceV, DictV, LoaderV, FuncV, ModuleV, ObjectV, QualV, SelfV, SeqV, TensorV, Value, iteration_element


_HANDLERS: dict = {}  # (runner class, statement type) -> its stmt_* method (None: nothing to do)


_DEVICE_TEST_NODES = (ast.Compare, ast.Attribute, ast.UnaryOp)
_DISPLAYS = (ast.Tuple, ast.List)


def _unpacks_another_count(stmt: ast.Assign) -> bool:
    """Does a target of `a, b = <tuple or list display>` take another number of items than the display
    has (no `*` on either side)?  The assignment then always raises ValueError."""
    count = len(stmt.value.elts)
    for t in stmt.targets:
        if t.__class__ in _DISPLAYS and len(t.elts) != count:  # (rare: only then are the `*` looked for)
            return not any(e.__class__ is ast.Starred for e in stmt.value.elts + t.elts)
    return False


class StatementRunner:
    """Mixed into `Analyzer`."""

    def exec_body(self, body: list) -> bool:
        """Run statements; False when the block cannot fall through."""
        try:
            for stmt in body:
                self.exec_stmt(stmt)
        except Terminated:
            return False
        return True

    def exec_stmt(self, stmt) -> None:
        kind = type(stmt)
        try:
            method = _HANDLERS[type(self), kind]
        except KeyError:
            method = _HANDLERS[type(self), kind] = getattr(type(self), "stmt_" + kind.__name__, None)
        if method is not None:
            saved, self.current_stmt = self.current_stmt, stmt
            try:
                method(self, stmt)
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
        if node.__class__ is ast.Call and ends_the_program(node) and (
                self.lookup(node.func.id) is UNKNOWN if node.func.__class__ is ast.Name
                else self.qualname(node.func) is not None):  # (the builtin or the module's, not a name rebound)
            raise Terminated  # `sys.exit("needs a GPU")`: SystemExit, as `raise` would

    def stmt_Assign(self, stmt: ast.Assign) -> None:
        value = self.eval(stmt.value)
        if stmt.value.__class__ in _DISPLAYS and _unpacks_another_count(stmt):
            raise Terminated  # `a, b = x.cuda(),`: "not enough values to unpack", before anything is bound
        if stmt.value.__class__ is ast.Constant:
            if stmt.value.value.__class__ is bool:
                value = TRUE if stmt.value.value else FALSE  # a flag (`first = True`): tests of it are decided
            elif stmt.value.value.__class__ is int and stmt.targets[0].__class__ is ast.Name:
                value = IntV(stmt.value.value)  # `num_gpus = 1`, `GPU_MODE = 1`: tests of the name are decided
        elif value.__class__ is ObjectV and stmt.value.__class__ is ast.Name:
            # `self.ranking_model = rk` after `rk.load_model(device)`: the object with what this code bound
            # or moved in it since it was made (kept at the paths `rk.model`, ...), as a return hands it on
            value = with_held_attributes(self.frame.env, stmt.value.id, value)
        for target in stmt.targets:
            self.bind(target, value, stmt.value)

    def stmt_AnnAssign(self, stmt: ast.AnnAssign) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, self.eval(stmt.value), stmt.value)

    def stmt_AugAssign(self, stmt: ast.AugAssign) -> None:
        # In-place arithmetic never moves a tensor; mixing devices still raises.
        target_value = self.eval(stmt.target)
        value = self.eval(stmt.value)
        output = target_value
        if output.__class__ is TensorV and output.rank == 0 and output.dev is not None and output.dev.is_cpu:
            # the target is TensorIterator's output: a 0-dim CPU tensor there is no exempt CPU scalar
            output = replace(output, rank=None)
        self.check_operands(stmt, [(output, stmt.target), (value, stmt.value)])
        if not isinstance(target_value, TensorV):
            if isinstance(value, TensorV):  # `total += loss`: a number plus a tensor is that tensor
                value = replace(value, origin=stmt, factory=None, rank=None) if isinstance(target_value, Number) else UNKNOWN
            elif target_value.__class__ is SeqV and stmt.op.__class__ is ast.Add:  # `losses += [loss]`
                value = concatenated(target_value, value) or UNKNOWN
            else:
                value = NUMBER if target_value.__class__ is IntV else target_value  # (`count += 1`: not the int it was)
            self.bind(stmt.target, value, None)

    def stmt_Return(self, stmt: ast.Return) -> None:
        value = self.eval(stmt.value) if stmt.value is not None else UNKNOWN
        if value.__class__ is DictV and value.items is not None and isinstance(stmt.value, ast.Name):
            value = with_stored_items(self.frame.env, stmt.value.id, value)
        elif stmt.value.__class__ is ast.Name and (value.__class__ is ObjectV or value.__class__ is SelfV
                                                    and stmt.value.id == "self" and not value.info.is_module):
            value = with_held_attributes(self.frame.env, stmt.value.id, value)
        f = self.frame
        f.returns = value if f.returns is None else f.returns.join(value)
        raise Terminated

    def stmt_Raise(self, stmt: ast.Raise) -> None:
        if stmt.exc is not None:
            self.eval(stmt.exc)
        raise Terminated

    def stmt_Break(self, stmt) -> None:
        if self.frame.loops:
            self.frame.loops[-1].breaks.append(dict(self.frame.env))
        raise Terminated

    def stmt_Continue(self, stmt) -> None:
        if self.frame.loops:
            self.frame.loops[-1].continues.append(dict(self.frame.env))
        raise Terminated

    def stmt_Delete(self, stmt: ast.Delete) -> None:
        for target in stmt.targets:
            path = self.path_of(target)
            if path is not None:
                self.frame.env[path] = UNKNOWN

    def stmt_Import(self, stmt: ast.Import) -> None:
        for alias in stmt.names:
            local = alias.asname or alias.name.split(".")[0]
            value = self.project_import(import_module, alias.name, alias.asname)
            if value is None:
                value = QualV(alias.name if alias.asname else local)
            else:
                self.import_default_device(value)
            self.frame.env[local] = value

    def stmt_ImportFrom(self, stmt: ast.ImportFrom) -> None:
        for alias in stmt.names:
            if alias.name == "*":
                if self.project is not None and self.frame.kind == "module":
                    env = self.frame.env
                    for name, value in (self.project_import(import_star, stmt.module, stmt.level) or {}).items():
                        env.setdefault(name, value)  # (a name bound before keeps its value)
                    if self.project_import(library_star, stmt.module, stmt.level):  # names nothing binds: `star_imported`
                        env[STAR_IMPORT] = QualV(stmt.module) if STAR_IMPORT not in env else UNKNOWN
                continue
            if stmt.level or not stmt.module:
                value = UNKNOWN
            else:
                value = QualV(f"{stmt.module}.{alias.name}")
            value = self.project_import(import_from, stmt.module, stmt.level, alias.name, value) or value
            self.frame.env[alias.asname or alias.name] = value
        if self.project is not None and stmt.names[0].name != "*":
            self.import_default_device(value)

    def import_default_device(self, value) -> None:
        """An imported project module whose body makes a device the default: it is from here on."""
        default = self.project_import(default_set_on_import, value)
        if default is not None:
            self.frame.env["#default_device"] = default

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
        decorators = [self.eval(deco) if self.project is None or not decorator_from_project(self, deco) else None
                      for deco in stmt.decorator_list]
        if self.frame.kind == "module":
            func = FuncV(stmt, id(stmt), self.frame.cls)
            self.pending.append((func, None, None))
        else:  # a nested function sees the scope it is defined in, and the globals of its own file
            closure = dict(self.frame.env)
            func = FuncV(stmt, id(stmt), self.frame.cls, self.home, closure=closure, scope=self.frame.func)
            if self.frame.inline_depth == 0:
                self.pending.append((func, closure, None))
        self.frame.env[stmt.name] = decorated(self, stmt, func, decorators) if decorators else func

    stmt_AsyncFunctionDef = stmt_FunctionDef

    def stmt_ClassDef(self, stmt: ast.ClassDef) -> None:
        info = self.class_scan(stmt)
        if info.home is None:  # a class defined in another file's function: its methods run with that file's globals
            info.home = self.home
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
        returns = self.frame.returns
        entry = self.frame.env
        branches = []
        # `if device == "cpu":` / `if t.is_cuda:`: what each branch learns of a device (rare: syntax first)
        narrowing = self.device_narrowing(stmt.test) if assumed is None and stmt.test.__class__ in _DEVICE_TEST_NODES \
            and getattr(stmt.test, "_tp_device_test", True) is not None else None
        narrowed = []
        if assumed is not False:
            self.frame.env = dict(entry)
            changed = narrowing and self.narrow_device(narrowing, narrowing[2])
            self.guards.append(stmt.test)
            try:
                body_ok = self.exec_body(stmt.body)
            finally:
                self.guards.pop()
            if body_ok:
                branches.append(self.frame.env)
                narrowed.append(changed)
        if assumed is not True:
            self.frame.env = dict(entry)
            changed = narrowing and self.narrow_device(narrowing, narrowing[3])
            if self.exec_body(stmt.orelse):
                branches.append(self.frame.env)
                narrowed.append(changed)
        if narrowing and len(branches) == 2:
            # where both branches go on, what the test told one of them is not known after the `if`
            # (where only one goes on, it holds there: `if device != "cpu": return` ...)
            for env, changed in zip(branches, narrowed):
                if changed:
                    self.frame.env = env
                    self.restore_device(changed)
        self.frame.env = entry
        if assumed is not None and stmt.test.__class__ in _MAC_TESTS and self.mac_truth(stmt.test) is (not assumed):
            other = stmt.orelse if assumed else stmt.body
            if branches:
                _on_a_mac(entry, branches[0], other, self.mac_truth)
            elif returns is None and self.frame.returns.__class__ is DeviceV and self.frame.returns.dev.kind == ACCEL_KIND:
                # `if torch.cuda.is_available(): return torch.device("cuda")` ... `return torch.device("mps")`
                func = self.frame.func
                after = func.body[func.body.index(stmt) + 1:] if func is not None and not other and stmt in func.body else []
                kind = _returned_on_a_mac(other or after, self.mac_truth)
                if kind is not None:
                    self.frame.returns = replace(self.frame.returns, dev=replace(self.frame.returns.dev, mac=kind))
        chosen = _device_choice(stmt, branches) if len(branches) == 2 and stmt.orelse else None
        self.merge(branches)
        if chosen:
            self.frame.env.update(chosen)

    def merge(self, branches: list) -> None:
        if not branches:
            raise Terminated
        env = branches[0]
        for other in branches[1:]:
            env = join_env(env, other, self.frame.before)
        self.frame.env = env

    def stmt_For(self, stmt) -> None:
        iterable = self.eval(stmt.iter)
        # (`enumerate(loader)` iterates the loader; `zip(...)` holds a tuple, `d.items()` does not iterate its values)
        loader = iterable.inner if isinstance(iterable, EnumerateV) and not isinstance(iterable, ItemsV) else iterable
        if loader.__class__ is LoaderV:
            check_shuffled_loader(self, stmt.iter, loader, default_device(self))
        element, loader = iteration_element(protocol_iterable(self, stmt.iter, iterable), stmt)
        training = _has_training_step(stmt.body)
        refill = refilled_item(stmt)
        if refill is None:
            self.run_loop(stmt, training, loader, lambda: self.bind(stmt.target, element, None))
        else:
            refill = self.refill_loop(stmt, refill, iterable, training, loader, lambda: self.bind(stmt.target, element, None))
            if refill is not None and refill[1].elem.__class__ is TensorV:
                # tensors stored (`.to()` of a tensor is a new tensor): no module it held moved in place
                self.frame.env[refill[0]] = refill[1]
                return
        if moves_its_items(stmt):
            # `for m in holder.models.values(): m.to(device)`: the modules the container holds moved in
            # place, which its value does not say (its items are copies of what it held): it is unknown
            container = stmt.iter
            if container.__class__ is ast.Name:  # (`mods = list(model.modules())`: the module listed)
                container = module_view_source(self.frame.func, container.id) or container
            if container.__class__ is ast.Call and container.func.__class__ is ast.Attribute \
                    and container.func.attr in _ITEM_VIEWS and not container.args:
                container = container.func.value
            forget_reflected(self, container)  # (`for v in vars(self).values(): v.to(device)`)
            path = self.path_of(container)
            env = self.frame.env
            held = env.get(path) if path is not None else iterable
            if held is None:  # (a module-level list a function walks: `for m in MODELS.values()`)
                held = self.eval(container) if container is not stmt.iter else iterable
            if held.__class__ is ModuleV and path is not None:  # `for c in model.children(): c.cuda()`
                forget_held_by(env, path, held)
                return
            # (the names that hold what it holds: `for m in [enc, dec]`, `hs = [h1, h2]; for h in hs: h.model.cuda()`)
            forget_aliases(env, held_values(held), path)
            if path is not None and (path in env or "." in path):
                env[path] = UNKNOWN
                self.frame.released.add(path)  # (a caller's list or dict: what it holds moved)
        if refill is not None:
            self.frame.env[refill[0]] = refill[1]

    stmt_AsyncFor = stmt_For

    def refill_loop(self, stmt, refill: ast.Subscript, iterable, training, loader, bind_target) -> Optional[tuple]:
        """`for k, v in d.items(): d[k] = v.to(device)`: the body stores into `d` under every key it
        iterates, on every pass, so after the loop each of `d`'s values is one the body stored
        (`refilled_item`).  `d` is then a dict of those values, whatever it held before: (its path, that
        dict), None where not known."""
        saved, self.refills = self.refills, {id(refill): None}
        try:
            self.run_loop(stmt, training, loader, bind_target)
            stored = self.refills[id(refill)]
        finally:
            self.refills = saved
        path = self.path_of(refill.value)
        container = self.frame.env.get(path) if path is not None else None
        if stored is None or stored is UNKNOWN or container is None or path not in self.frame.env \
                or not isinstance(iterable, (DictV, BatchV, ItemsV)) and iterable is not UNKNOWN:
            return None
        if isinstance(container, (DictV, BatchV)) or container is UNKNOWN and stmt.iter.__class__ is ast.Call:
            return path, DictV(stored)  # (an unknown container whose `.items()`/`.keys()` the loop walks)
        return None

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
                    new_head = join_env(new_head, end, self.frame.before)
                exits = [new_head] + list(ctx.breaks)
                if same_env(new_head, head):
                    break
                head = new_head
        finally:
            self.frame.loops.pop()
        self.frame.env = exits[0]
        for other in exits[1:]:
            self.frame.env = join_env(self.frame.env, other, self.frame.before)
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
            elif _may_place_what_is_made(self, item.context_expr, qual):
                default_device = PLACED_BY_THE_MANAGER
            if item.optional_vars is not None:
                self.bind(item.optional_vars, UNKNOWN, None)
        self.frame.no_grad += no_grad
        saved_default = self.frame.env.get("#default_device")
        if default_device is not None:
            self.frame.env["#default_device"] = UNKNOWN if default_device is PLACED_BY_THE_MANAGER \
                else DeviceV(default_device)
        try:
            if not self.exec_body(stmt.body):
                raise Terminated
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
        handler_entry = join_env(entry, after_body, self.frame.before)
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
                self.frame.env = join_env(self.frame.env, other, self.frame.before)
            if not self.exec_body(stmt.finalbody) or not branches:
                raise Terminated
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

    def stmt_Nonlocal(self, stmt) -> None:
        for name in stmt.names:
            self.frame.env.pop(name, None)
            if self.frame.kind != "module":
                # a path that does not bind it sees the enclosing scope's binding (join_env takes a
                # name bound on one path only as that binding: elsewhere reading it would raise)
                self.frame.before.setdefault(name, UNKNOWN)

    def stmt_Global(self, stmt) -> None:
        for name in stmt.names:
            self.frame.env.pop(name, None)
        if self.frame.kind == "module":
            return
        for name in stmt.names:
            # a path that does not bind the global still sees the module's binding (a lazily filled
            # singleton: `if _M is None: _M = load()`, then `return _M`)
            if name not in self.frame.before:
                value = self.module_value(name)
                self.frame.before[name] = value if value is not None else UNKNOWN


def refilled_item(loop) -> Optional[ast.Subscript]:
    """The `d[k]` target of `for k, v in d.items(): ... d[k] = <value>` (or `for k in d:` / `d.keys()`):
    an assignment at the top of the body, so every pass that ends stores there, under the key of that
    pass; nothing leaves the loop early (`break`, `continue`, `return`, `raise`) or re-binds `k`, and `d`
    is a plain name.  Memoised on the node."""
    known = loop.__dict__.get("_tp_refill", False)
    if known is not False:
        return known
    found = None
    it, target = loop.iter, loop.target
    if it.__class__ is ast.Call and it.func.__class__ is ast.Attribute and it.func.attr in ("items", "keys") \
            and not it.args and not it.keywords:
        container = it.func.value
        key = target.elts[0] if target.__class__ is ast.Tuple and len(target.elts) == 2 and it.func.attr == "items" \
            else target if it.func.attr == "keys" else None
    else:
        container, key = it, target
    if container.__class__ is ast.Name and key.__class__ is ast.Name and not loop.orelse:
        for stmt in loop.body:
            if stmt.__class__ is ast.Assign and len(stmt.targets) == 1:
                t = stmt.targets[0]
                if t.__class__ is ast.Subscript and t.value.__class__ is ast.Name and t.value.id == container.id \
                        and t.slice.__class__ is ast.Name and t.slice.id == key.id:
                    found = t
                    break
        if found is not None and any(
                n.__class__ in (ast.Break, ast.Continue, ast.Return, ast.Raise, ast.Yield, ast.Try)
                or n.__class__ is ast.Name and n.id in (key.id, container.id) and n.ctx.__class__ is not ast.Load
                for stmt in loop.body for n in ast.walk(stmt)):
            found = None
    loop._tp_refill = found
    return found


# what a loop over a container's items reads it through (`d.values()`, `model.children()`)
_ITEM_VIEWS = frozenset({"values", "items", "children", "named_children", "modules", "named_modules"})


def _device_choice(stmt: ast.If, branches: list) -> Optional[dict]:
    """`if args.cpu: device = torch.device("cpu")` / `else: device = torch.device("cuda")` (or an
    `elif` chain picking an accelerator): the names the `if` binds to the CPU on one path and to one
    accelerator on the other hold the program's target, as in `"cuda" if use_gpu else "cpu"`
    (joined, they would be unknown).  Not where the test reads where a value is (`if x.is_cuda:`)."""
    chosen = None
    for node in stmt.body:
        if node.__class__ is not ast.Assign or len(node.targets) != 1 or node.targets[0].__class__ is not ast.Name:
            continue
        name = node.targets[0].id
        a, b = branches[0].get(name), branches[1].get(name)
        if a.__class__ is not DeviceV or b.__class__ is not DeviceV:
            continue
        target = chosen_target(a.dev, b.dev) or chosen_index(a.dev, b.dev)
        if target is not None and not tests_a_device(stmt.test):
            chosen = chosen or {}
            chosen[name] = DeviceV(target, a.not_none and b.not_none)
    return chosen


_MAC_TESTS = (ast.Call, ast.UnaryOp, ast.Name, ast.Attribute)
_LEAVES = (ast.Raise, ast.Return, ast.Break, ast.Continue)


def _on_a_mac(entry: dict, env: dict, other: list, mac_truth) -> None:
    """An `if` on an availability test a machine with MPS and no CUDA answers the other way
    (`if torch.cuda.is_available(): device = torch.device("cuda")` ... `else: device = torch.device("cpu")`,
    `if torch.cuda.is_available(): x = x.to("cuda")`): the names the branch taken placed on an
    accelerator hold, on such a machine, what `other` (the branch not taken, followed down an `elif`
    chain of such tests) binds them to, a device string or `torch.device(...)` of one, or else what
    they held before the `if`.  Kept as their device's `mac` (`devices.mac_kind`)."""
    chain = other
    while len(chain) == 1 and chain[0].__class__ is ast.If:
        answer = mac_truth(chain[0].test)
        if answer is None:
            return
        chain = chain[0].body if answer else chain[0].orelse
    if any(node.__class__ in _LEAVES or ends_the_program(node) for stmt in chain for node in ast.walk(stmt)):
        return  # (`else: sys.exit("needs a GPU")`: on a Mac the program does not go on)
    for name, value in env.items():
        if value is entry.get(name) or not isinstance(value, (TensorV, DeviceV)) or value.dev is None \
                or value.dev.kind != ACCEL_KIND or not name.isidentifier():
            continue
        kind = _bound_on_a_mac(chain, name, entry.get(name))
        if kind is not None and kind != mac_kind(value.dev):
            env[name] = replace(value, dev=replace(value.dev, mac=kind))


def _returned_on_a_mac(stmts: list, mac_truth) -> Optional[str]:
    """"cpu"/"mps": what the first `return` of a device literal that runs on a Mac returns, down a chain of
    availability tests (`if torch.backends.mps.is_available(): return "mps"`, then `return "cpu"`); None
    where another statement or test comes first."""
    for stmt in stmts:
        if stmt.__class__ is ast.Return:
            literal = _literal_device(stmt.value) if stmt.value is not None else None
            return mac_kind(literal) if literal is not None else None
        if stmt.__class__ is not ast.If:
            return None
        answer = mac_truth(stmt.test)
        if answer is None:
            return None
        chosen = stmt.body if answer else stmt.orelse
        if chosen:
            return _returned_on_a_mac(chosen, mac_truth)
    return None


def _bound_on_a_mac(chain: list, name: str, before) -> Optional[str]:
    """Where `name` is after `chain` runs on a Mac: "cpu"/"mps" where one assignment binds it to a
    device literal, what it held before where nothing in `chain` binds it; None otherwise."""
    literal = None
    for stmt in chain:
        for node in ast.walk(stmt):
            if node.__class__ is ast.Name and node.id == name and node.ctx.__class__ is not ast.Load:
                if literal is not None or stmt.__class__ is not ast.Assign or len(stmt.targets) != 1 \
                        or stmt.targets[0] is not node:
                    return None
                literal = _literal_device(stmt.value)
                if literal is None:
                    return None
    if literal is not None:
        return mac_kind(literal)
    return mac_kind(before.dev) if isinstance(before, (TensorV, DeviceV)) and before.dev is not None else None


def _literal_device(node) -> Optional[Dev]:
    """`"cpu"`, `"mps"`, `torch.device("mps")`."""
    if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == "device" \
            and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if node.__class__ is ast.Constant and isinstance(node.value, str):
        return parse_device_string(node.value)
    return None


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
    for node in (node for stmt in body for node in own_nodes(stmt)):
        if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr in TRAINING_STEP_METHODS:
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


PLACED_BY_THE_MANAGER = object()  # `with init_on_device(device):`: the default device is not known inside


def _may_place_what_is_made(ev, expr: ast.AST, qual) -> bool:
    """A context manager of the project or another library handed a device (`with init_on_device(device=
    torch.device("cuda")):`, accelerate's `init_on_device(device)`): such managers patch
    `nn.Module.register_parameter` or the factories so that what the block makes is on that device, which
    the analysis does not follow; where modules and tensors made inside are is not known.  torch's own
    managers are modelled (`torch.device`) or place nothing (`torch.cuda.device(1)`, `torch.autocast`)."""
    if expr.__class__ is not ast.Call or qual is not None and (qual == "torch" or qual.startswith("torch.")):
        return False
    for arg in list(expr.args) + [k.value for k in expr.keywords]:
        if arg.__class__ is ast.Call and ev.qualname(arg.func) == "torch.device":
            return True
        if arg.__class__ in (ast.Name, ast.Attribute) and ev.eval(arg).__class__ is DeviceV:  # (reads: no events)
            return True
    return False
