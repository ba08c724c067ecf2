"""TP204 load-without-map-location: `torch.load` in device-aware code without `map_location`."""
import ast
import re

from ..context import file_context
from ..context.built_for_cuda import built_only_for_cuda
from ..context.cuda_only_callers import run_only_by_cuda_only_programs
from ..context.earlier_method import written_by_earlier_method
from ..context.engine_state import loaded_into_engine_module
from ..context.sibling_writers import written_by_cpu_siblings
from ..context.load_callers import (
    imported_project_modules, project_saves_cpu_state, project_saves_from_chosen_gpu, run_by_device_choosing_importer,
)
from ..edits import insert_keyword, make_fix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import device_variable_in_scope


class LoadWithoutMapLocation(Rule):
    code = "TP204"
    name = "load-without-map-location"
    severity = Severity.WARNING
    summary = "`torch.load` without `map_location` in code that chooses its device at run time"
    what_it_does = """
        Finds `torch.load(...)` calls without `map_location` in files that pick a
        device (`torch.device(...)`, a `device` variable, `.cuda()`), when what is
        loaded is weights or a checkpoint: passed to `load_state_dict` (directly, or
        bound to a name whose value or an entry of it a later `load_state_dict` of the
        same body takes: `d = torch.load(p)` then `model.load_state_dict(d["model"])`; also
        through another name it is bound to, `from_pretrained(..., state_dict=d["state_dict"])`,
        a function or method of the same file given it, or a caller it is returned to),
        or bound to a name such as `model`, `state_dict`, `checkpoint` or `weights` (the
        loaded object or an entry of it, `torch.load(p)["state_dict"]`).  Loads of
        scheduler, scaler or RNG state (plain numbers and CPU tensors) are left alone.
        A loading helper in a file that picks no device is checked for the programs
        that import the file and call it.
    """
    why_bad = """
        `torch.load` restores each tensor on the device it was saved from.  A
        checkpoint written on a GPU fails to load on a machine without one
        ("Attempting to deserialize object on a CUDA device but
        torch.cuda.is_available() is False"), and on a multi-GPU machine every
        process piles its copy onto `cuda:0`.
    """
    when_it_reports = """
        A warning: a proven hazard, not a certain failure.  It needs a program with a CPU path (it
        chooses its device at run time: `torch.cuda.is_available()`, a `--cpu`/`--device` option,
        a device passed in by the caller) and a file that may come from elsewhere.  It stays
        silent when no machine without the GPU can run the program (every device choice is an
        accelerator: an unconditional `.cuda()`, `device = "cuda"`, no CPU fallback; where the program
        does that, a test of which GPU (`if args.gpu is not None:`) or a helper's `device` parameter
        is no CPU fallback), or when the load
        runs only where there is one (`if torch.cuda.is_available():`, `if args.cuda:`, after an
        unconditional `.cuda()`, or in a block that goes on to one with nothing between that could
        leave it, or in the constructor of a class that each construction moves straight to CUDA,
        `Network(p).cuda()`, or in a function of a library module that only CUDA-only programs of the
        project call) unless the project's own writer saves from a GPU the run picks (`.cuda(args.gpu)` and
        `torch.save` in one body: its checkpoints may name a GPU this machine lacks; then a `map_location`
        dict that remaps only the CUDA devices it names, `{"cuda:0": "cpu"}`, is reported too), and when the
        file was written earlier by the same run (the same path, variable or format template given
        to `torch.save` or to another writer such as `trainer.save_checkpoint(p)` or
        `open(p, "wb")`, a path under the run's or test's temporary directory, a path handed out
        by the object that wrote it, a helper of the same file that writes it and is called
        first, a chain of the file's functions that is handed the path's parts and saves it with
        `torch.save` (`validate(cur, stopper, args.results_dir)`, whose `stopper(...,
        ckpt_name=os.path.join(results_dir, ...))` saves through the object's `__call__`), a byte
        stream the run filled with `torch.save` (an `io.BytesIO()` a helper saves into and returns,
        or `io.BytesIO(data)` over the `getvalue()` bytes of one), or another method of the same object that writes it, when every call of the loading
        method in the project follows a call of that method on the same object with the same
        arguments: `exp.train(setting)` then `exp.predict(setting, True)`), or when every writer in
        the file saves that module's state from the CPU (`model.cpu()` before `torch.save(model.state_dict(), p)`), or every `torch.save` to the
        load's path or format template saves a CPU-moved state (`torch.save(net.cpu().state_dict(), p)`),
        or the only writers of that path are programs of the loader's folder that name no device, load
        no torch file and import no project module naming one (a converter filling a model from NumPy
        arrays: CPU tensors),
        or the file is shipped next to the code (a path built from `__file__`: a package's own
        weights, which every user's machine loads), or the load is handed to `model.module` where
        only a `DataParallel` wrap in an accelerator-only branch gives `model` a `.module`.  An entry of a loaded
        checkpoint (`torch.load(p)["params"]`) is left alone where the project has a checkpoint
        writer that saves CPU tensors (`torch.save` of `param.cpu()` values).  A helper in a file
        that picks no device is reported only when a file importing it calls it from a program
        with a CPU path that writes no checkpoint itself (the choice made there or in a helper of
        the project it calls, such as a `default_setup(args)` that sets `args.device`).
    """
    example = """
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        state = torch.load("ckpt.pt")        # TP204
    """
    fix_doc = "Say where tensors go: `torch.load(path, map_location=device)` (or `\"cpu\"`)."
    fix_safety = """
        Unsafe: tensors that were loaded onto their saved device and used directly
        (not through `load_state_dict`) will now live on `map_location`.
    """
    VALID = [
        valid("""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            state = torch.load("ckpt.pt", map_location=device)
        """),
        valid("""
            import torch
            state = torch.load("ckpt.pt")     # no device in play: nothing to report
        """),
        valid("""
            import torch
            device = torch.device("cuda")
            scheduler.load_state_dict(torch.load("scheduler.pt"))   # plain numbers
            rng_state = torch.load("rng_state.pth")                 # CPU tensors
        """),
        valid("""
            import torch
            model = torch.nn.Linear(4, 2).cuda()           # CUDA only: no CPU machine loads this
            model.load_state_dict(torch.load("weights.pt"))
        """),
        valid("""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            model = torch.nn.Linear(4, 2).to(device)
            for epoch in range(3):
                torch.save(model.state_dict(), "best.pt")
            model.load_state_dict(torch.load("best.pt"))   # written by this run, on this machine
        """),
        valid("""
            import os
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            model = torch.nn.Linear(4, 2).to(device)
            path = os.path.join(os.path.dirname(__file__), "data", "weights.pt")
            model.load_state_dict(torch.load(path))        # shipped with the package
        """),
        valid("""
            import torch
            use_cuda = torch.cuda.is_available()
            model = torch.nn.Linear(4, 2)
            if use_cuda:
                model = torch.nn.DataParallel(model.cuda())
            model.module.load_state_dict(torch.load("w.pt"))   # `.module`: the CUDA path only
        """),
    ]
    INVALID = [
        Invalid(  # the wrap is not on the accelerator's path only: `model.module` exists on the CPU too
            """
            import torch
            use_cuda = torch.cuda.is_available()
            model = torch.nn.DataParallel(torch.nn.Linear(4, 2))
            if use_cuda:
                model = model.cuda()
            model.module.load_state_dict(torch.load("w.pt"))
            """,
            line=6,
        ),
        Invalid(
            """
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            checkpoint = torch.load("ckpt.pt", weights_only=True)
            """,
            line=3,
            fixed="""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            checkpoint = torch.load("ckpt.pt", weights_only=True, map_location=device)
            """,
        ),
        Invalid(
            """
            import torch
            model = torch.nn.Linear(4, 2)
            if torch.cuda.is_available():
                model = model.cuda()
            model.load_state_dict(torch.load("weights.pt"))
            """,
            line=5,
            fixed="""
            import torch
            model = torch.nn.Linear(4, 2)
            if torch.cuda.is_available():
                model = model.cuda()
            model.load_state_dict(torch.load("weights.pt", map_location="cpu"))
            """,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if qual != "torch.load" or len(node.args) >= 2 or any(k.startswith("**") for k in kwargs):
            return
        partial = "map_location" in kwargs
        if partial and not _remaps_only_cuda_devices(node):
            return
        how = _loads_weights(node, ev.current_stmt, ev.frame.func or ev.tree, ev.tree)
        if not how or loaded_into_engine_module(ev.qualname, ev.frame.func or ev.tree, ev.current_stmt, node):
            return
        ev.deferred.append((self.code, (node, device_variable_in_scope(ev), how == "entry", partial)))

    def on_finish(self, ev) -> None:
        loads = [payload for code, payload in ev.deferred if code == self.code]
        if not loads:
            return
        ctx = file_context(ev)
        if not ev.targets_accelerator:
            # a helper of a file that picks no device: the programs that call it do
            loads = [load for load in loads if run_by_device_choosing_importer(ev, ctx, load[0])]
            if not loads:
                return
        if ctx.cuda_only:
            return  # no machine without the GPU ever runs this program
        imported = None
        for node, device_name, entry, partial in loads:
            if ctx.loads_own_checkpoint(node) or ctx.in_this_file(node) and written_by_earlier_method(ev, ctx, node):
                continue
            if (partial or ctx.runs_only_with_accelerator(node) or built_only_for_cuda(ev, ctx, node)
                    or run_only_by_cuda_only_programs(ev, ctx, node)) and not project_saves_from_chosen_gpu(ev):
                continue  # (a GPU path, or a remap of the GPUs named: fine unless they may hold another GPU's tensors)
            if ctx.in_this_file(node):
                if imported is None:
                    imported = imported_project_modules(ev, _called_before(ctx, loads))
                if ctx.provenance.written_by_imported_helper(node, imported):
                    continue  # written earlier in the run by a helper of another project module
            if ctx.in_this_file(node) and written_by_cpu_siblings(ev, ctx, node):
                continue  # written only by CPU-only programs of this folder (a converter)
            if entry and project_saves_cpu_state(ev):
                continue  # an entry of the project's own checkpoints, which it writes from the CPU
            if partial:
                ev.report(self, node, "this `map_location` remaps only the CUDA devices it names, and the project saves "
                          "checkpoints from a GPU the run picks (`.cuda(<index>)`): one saved on another GPU fails to "
                          "load on a machine without that GPU; map every storage with `map_location=<device>`")
                continue
            location = device_name or '"cpu"'
            edit = insert_keyword(ev.src, node, f"map_location={location}")
            fix = make_fix(f"Add `map_location={location}`", False, edit) if edit else None
            ev.report(self, node, "`torch.load` restores tensors on the device they were saved from; without "
                      "`map_location` a GPU checkpoint fails on a machine without that GPU", [], fix)


def _remaps_only_cuda_devices(load: ast.Call) -> bool:
    """`map_location={"cuda:0": "cpu"}`: a dict whose keys are all CUDA device strings (a storage saved on
    any other device is restored where it was saved)."""
    given = next((k.value for k in load.keywords if k.arg == "map_location"), None)
    return isinstance(given, ast.Dict) and bool(given.keys) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.startswith("cuda") for k in given.keys)


_WEIGHTS = re.compile(r"model|ckpt|checkpoint|state_dict|weights|params|net\b", re.IGNORECASE)
_NOT_WEIGHTS = re.compile(r"sched|scaler|rng|random|seed|lr_|metric|config|args|history", re.IGNORECASE)


def _loads_weights(call: ast.Call, stmt, scope=None, tree=None):
    """Is the loaded object model/optimizer state (tensors saved on a device)?  "whole" for the
    loaded object itself, "entry" for an entry of it (`torch.load(p)["state_dict"]`), else False."""
    if stmt is None:
        return False
    how = _named_weights(call, stmt)
    if how or scope is None:
        return how
    how = isinstance(stmt, (ast.Assign, ast.Return)) and stmt.value is not None and _reads(stmt.value, call)
    if how and isinstance(stmt, ast.Return):
        state = _returned(scope, tree, 0)
        return _join(how, state) if state else False
    if how:
        target = stmt.targets[0]
        state = len(stmt.targets) == 1 and isinstance(target, ast.Name) \
            and _reaches(target.id, scope, stmt.end_lineno, tree, 0)
        return _join(how, state) if state else False
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and node is not call:
            state = _sink(node, call, scope, tree, 0)
            if state:
                return state
    return False


def _named_weights(call: ast.Call, stmt):
    """The load in `stmt` passed to `load_state_dict` there, or bound to a name of weights."""
    for node in ast.walk(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict" \
                and node.args:
            how = _reads(node.args[0], call) or _rebuilt_from(node.args[0], call)
            if how:
                owner = ast.unparse(node.func.value)
                return how if not _NOT_WEIGHTS.search(owner) else False
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
        how = _reads(stmt.value, call)
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        names = " ".join(ast.unparse(t) for t in targets)
        return how if how and _WEIGHTS.search(names) and not _NOT_WEIGHTS.search(names) else False
    return False


# How far the loaded value is followed: through this many helpers, returns and re-bindings.
_MAX_HOPS = 3


def _join(how, state):
    return "entry" if "entry" in (how, state) else "whole"


def _reaches(name: str, scope, line: int, tree, hops: int):
    """Where the value bound to `name` at `line` goes next in `scope`, before anything binds
    `name` again: "whole" or "entry" when it (or an entry of it, `loaded["model_state_dict"]`) is
    what a weights sink takes (see `_sink`), directly, through another name it is bound to
    (`sd = loaded["state_dict"]`), through a helper of the same file given it, or returned to a
    caller that does; else False."""
    rebound = min((n.lineno for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name
                   and isinstance(n.ctx, ast.Store) and n.lineno > line), default=None)
    for node in ast.walk(scope):
        if not isinstance(node, (ast.Call, ast.Assign, ast.Return, ast.For)) or node.lineno <= line \
                or (rebound is not None and node.lineno >= rebound):
            continue
        if isinstance(node, ast.Call):
            state = _sink(node, name, scope, tree, hops)
        elif hops >= _MAX_HOPS:
            continue
        elif isinstance(node, ast.For):
            copy = _copied_into(node, name)
            state = copy is not None and _reaches(copy, scope, node.end_lineno, tree, hops + 1)
        elif node.value is None:
            continue
        elif isinstance(node, ast.Assign):
            target = node.targets[0]
            how = len(node.targets) == 1 and isinstance(target, ast.Name) and target.id != name \
                and (_reads(node.value, name) or _rebuilt_from(node.value, name))
            state = how and _reaches(target.id, scope, node.end_lineno, tree, hops + 1)
            state = state and _join(how, state)
        else:
            how = _reads(node.value, name)
            state = how and _returned(scope, tree, hops + 1)
            state = state and _join(how, state)
        if state:
            return state
    return False


def _entries_of(loop_iter, src):
    """The loop variable that takes the loaded tensors when a loop or comprehension walks `src`'s
    entries: the value of `src.items()` (`for k, v in ...`), each of `src.values()`; else None."""
    if isinstance(loop_iter, ast.Call) and isinstance(loop_iter.func, ast.Attribute) and not loop_iter.args \
            and _is(loop_iter.func.value, src):
        return loop_iter.func.attr
    return None


def _loop_value(target, kind):
    if kind == "items" and isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], ast.Name):
        return target.elts[1].id
    if kind == "values" and isinstance(target, ast.Name):
        return target.id
    return None


def _copied_into(loop: ast.For, src: str):
    """The name of the dict a loop over `src`'s entries copies them into, key by key (a state dict
    renamed: `for k, v in sd.items(): new_sd[k[7:]] = v`); else None.  The copy holds the
    loaded tensors, on the devices they were saved from, as `src` does."""
    value = _loop_value(loop.target, _entries_of(loop.iter, src))
    if value is None:
        return None
    for node in ast.walk(loop):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) \
                and isinstance(node.targets[0].value, ast.Name) and _is(node.value, value):
            return node.targets[0].value.id
    return None


def _rebuilt_from(expr, src):
    """"whole" when `expr` is a dict comprehension over `src`'s entries keeping their values
    (`{k.replace("module.", ""): v for k, v in sd.items()}`), or `dict(src)`/`OrderedDict(src)`."""
    if isinstance(expr, ast.DictComp) and len(expr.generators) == 1:
        gen = expr.generators[0]
        value = _loop_value(gen.target, _entries_of(gen.iter, src))
        return "whole" if value is not None and _is(expr.value, value) else False
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords \
            and ast.unparse(expr.func) in ("dict", "OrderedDict", "collections.OrderedDict"):
        return "whole" if _is(expr.args[0], src) else False
    return False


def _sink(call: ast.Call, src, scope, tree, hops: int):
    """Does `call` take the value `src` (a name, or the load itself) as weights?  `load_state_dict`
    of a module (not a scheduler's or a scaler's), `from_pretrained(..., state_dict=...)`
    (transformers and diffusers build the model from that state), or a function or method of the
    same file whose parameter bound to it reaches one."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "load_state_dict":
        if call.args and not _NOT_WEIGHTS.search(ast.unparse(func.value)):
            return _reads(call.args[0], src) or _rebuilt_from(call.args[0], src)
        return False
    if isinstance(func, ast.Attribute) and func.attr == "from_pretrained":
        return next((_reads(k.value, src) for k in call.keywords if k.arg == "state_dict"), False)
    if hops >= _MAX_HOPS or tree is None:
        return False
    callee = _helper(func, scope, tree)
    if callee is None:
        return False
    for param, arg in _bound(callee, call):
        how = _reads(arg, src)
        state = how and _reaches(param, callee, callee.lineno, tree, hops + 1)
        if state:
            return _join(how, state)
    return False


def _helper(func, scope, tree):
    """The function of the checked file a call names: `helper(...)` (a top-level function) or
    `self.method(...)` (a method of the class around `scope`); else None."""
    return _functions(tree).named(func, scope)


class _Functions:
    """The checked file's functions, found once per tree (a load is followed through them from
    every `torch.load` the name test leaves open): top-level ones by name, each class's methods by
    name, and, on first use, the (scope, call) pairs that call each of them."""

    __slots__ = ("top", "methods", "owner", "_callers")

    def __init__(self, tree):
        self.top, self.methods, self.owner = {}, {}, {}
        for d in tree.body:
            if isinstance(d, _FUNCS):
                self.top.setdefault(d.name, d)
            elif isinstance(d, ast.ClassDef):
                for item in d.body:
                    self.owner[id(item)] = d
                    if isinstance(item, _FUNCS):
                        self.methods.setdefault((id(d), item.name), item)
        self._callers = None

    def named(self, func, scope):
        if isinstance(func, ast.Name):
            return self.top.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            cls = self.owner.get(id(scope))
            return self.methods.get((id(cls), func.attr)) if cls is not None else None
        return None

    def callers(self, tree, func) -> list:
        """(scope, call) for each call of `func` in each function (and the module body) holding it.
        (`tree` is passed, not kept: the index is kept on the tree, which must not be a cycle.)"""
        if self._callers is None:
            self._callers = {}
            for scope in ast.walk(tree):
                if isinstance(scope, (*_FUNCS, ast.Module)):
                    for node in ast.walk(scope):
                        if isinstance(node, ast.Call):
                            callee = self.named(node.func, scope)
                            if callee is not None:
                                self._callers.setdefault(id(callee), []).append((scope, node))
        return self._callers.get(id(func), ())


def _functions(tree) -> _Functions:
    known = tree.__dict__.get("_tp_functions")
    if known is None:
        known = tree._tp_functions = _Functions(tree)
    return known


_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _bound(callee, call: ast.Call):
    """(parameter name, argument) for what `call` passes by position (up to a `*args`) and by keyword."""
    params = [a.arg for a in callee.args.posonlyargs + callee.args.args]
    if isinstance(call.func, ast.Attribute) and params and params[0] in ("self", "cls"):
        params = params[1:]
    for param, arg in zip(params, call.args):
        if isinstance(arg, ast.Starred):
            break
        yield param, arg
    names = set(params) | {a.arg for a in callee.args.kwonlyargs}
    for k in call.keywords:
        if k.arg in names:
            yield k.arg, k.value


def _returned(func, tree, hops: int):
    """Where the callers of `func` (the checked file's functions and module body calling it by
    name, or methods calling `self.<name>`) take what it returns: as in `_reaches`, for a result
    bound to a name (`sd = read(p)`, `sd = read(p)["state_dict"]`) or handed straight on."""
    if not isinstance(func, _FUNCS) or tree is None or hops > _MAX_HOPS:
        return False
    for scope, node in _functions(tree).callers(tree, func):
        for outer in ast.walk(scope):
            state = False
            if isinstance(outer, ast.Assign) and len(outer.targets) == 1 and isinstance(outer.targets[0], ast.Name):
                how = _reads(outer.value, node)
                state = how and _reaches(outer.targets[0].id, scope, outer.end_lineno, tree, hops)
                state = state and _join(how, state)
            elif isinstance(outer, ast.Call) and outer is not node:
                state = _sink(outer, node, scope, tree, hops)
            if state:
                return state
    return False


def _reads(expr, src):
    """"whole" when `expr` is `src` (the load call itself, or the name `src`), "entry" when it is
    an entry of it (`call["params"][0]`, `loaded.get("state_dict")`)."""
    if _is(expr, src):
        return "whole"
    while isinstance(expr, ast.Subscript) or (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute)
                                              and expr.func.attr == "get" and expr.args):
        expr = expr.value if isinstance(expr, ast.Subscript) else expr.func.value
    return "entry" if _is(expr, src) else False


def _is(expr, src) -> bool:
    return expr is src if not isinstance(src, str) else isinstance(expr, ast.Name) and expr.id == src


def _called_before(ctx, loads) -> frozenset:
    """The plain names the loads' scopes call before them (`Trainer` in `Trainer(...).run(m)`)."""
    names = set()
    for node, *_ in loads:
        scope = ctx.provenance.scope(ctx.enclosing_function(node))
        names |= {c.func.id for c in scope.calls_before(node.lineno) if isinstance(c.func, ast.Name)}
    return frozenset(names)
