"""Where a file that `torch.load` reads comes from.

A checkpoint written earlier by the same run (the same path, the same format template, a path
under the run's temporary directory, a path handed out by the object that wrote it) is loaded on
the machine and devices that wrote it: `map_location` changes nothing.  Neither does it for a
file that every writer in the program saves with CPU tensors (`model.cpu()` before
`torch.save(model.state_dict(), ...)`).  Paths from outside (arguments, options, files in the
repository) are none of these: a GPU checkpoint there fails on a CPU-only machine.

Everything here reads the syntax tree of the checked file; "earlier" is textual order inside the
function (or module body) that loads, and, for helpers, the order in which one function calls
the writer and then the loader.
"""
from __future__ import annotations

import ast
import copy
import re
from functools import cached_property
from typing import Iterator, Optional

from .scopes import own_nodes
from .spawned import spawned_function, spawner_names

_WRITER = re.compile(r"save|write|dump|export|checkpoint|serializ|persist", re.IGNORECASE)
# a name that says it reads (`load_checkpoint`, `restore_checkpoint`) writes nothing
_READER = re.compile(r"^_*(load|read|restore|resume)", re.IGNORECASE)
_TEMP_PARAM = re.compile(r"^(tmp|temp)_?(path|dir|dirname|folder|_?)?(_factory)?$", re.IGNORECASE)
_TEMP_CALLS = {"mkdtemp", "TemporaryDirectory", "NamedTemporaryFile", "mkstemp", "mktemp", "SpooledTemporaryFile"}
_PATH_WRAPPERS = {"open", "str", "Path", "fspath", "PurePath", "abspath", "realpath", "expanduser", "resolve", "BytesIO"}
_SAME_DATA_METHODS = {"resolve", "getvalue", "getbuffer"}  # `p.resolve()`, the bytes of an in-memory buffer
_CONTEXT_MANAGERS = {"contextmanager", "asynccontextmanager"}
_SETUP_METHODS = {"setUp", "setUpClass", "setup_method", "setup_class", "__init__", "setup"}
_MAX_EXPANSION = 4


class Scope:
    """The bindings of one function (or module) body: name -> [(line, value)] in textual order."""

    def __init__(self, node: ast.AST) -> None:
        self.node = node
        self.bindings: dict[str, list[tuple[int, ast.AST]]] = {}
        self.params: set[str] = set()
        body = node.body if not isinstance(node, ast.Lambda) else [node.body]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            a = node.args
            self.params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        self.nodes = list(own_nodes(body))
        for stmt in self.nodes:
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    self._bind(target, stmt.value, stmt.lineno)
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                self._bind(stmt.target, stmt.value, stmt.lineno)
            elif isinstance(stmt, ast.NamedExpr):
                self._bind(stmt.target, stmt.value, stmt.lineno)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, item.context_expr, stmt.lineno)
        for values in self.bindings.values():
            values.sort(key=lambda lv: lv[0])

    def _bind(self, target: ast.AST, value: ast.AST, line: int) -> None:
        key = _path_text(target)
        if key is not None:
            self.bindings.setdefault(key, []).append((line, value))

    def binding_before(self, key: str, line: int) -> Optional[tuple[int, ast.AST]]:
        """The last (line, value) bound to `key` on a line before `line`."""
        found = None
        for bound_at, value in self.bindings.get(key, ()):
            if bound_at < line:
                found = (bound_at, value)
        return found

    def value_before(self, key: str, line: int) -> Optional[ast.AST]:
        found = self.binding_before(key, line)
        return found[1] if found else None

    def calls_before(self, line: int) -> Iterator[ast.Call]:
        for node in self.nodes:
            if isinstance(node, ast.Call) and node.lineno < line:
                yield node


def _path_text(node: ast.AST) -> Optional[str]:
    """`name` or `self.attr` (the access paths a binding can have)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def expand(expr: ast.AST, scope: Scope, line: int, depth: int = 0) -> ast.AST:
    """`expr` with the names bound earlier in the scope replaced by what they were bound to."""
    if depth >= _MAX_EXPANSION:
        return expr
    return _Expander(scope, line, depth).visit(copy.deepcopy(expr))


class _Expander(ast.NodeTransformer):
    """`expand`'s rewriting of one expression (a module class: a class made per call is a reference
    cycle, freed only by a cyclic collection)."""

    def __init__(self, scope: Scope, line: int, depth: int):
        self.scope, self.line, self.depth = scope, line, depth

    def visit_Name(self, node):
        found = self.scope.binding_before(node.id, self.line)
        return expand(found[1], self.scope, found[0], self.depth + 1) if found is not None else node

    def visit_Attribute(self, node):
        found = self.scope.binding_before(_path_text(node), self.line) if _path_text(node) else None
        if found is not None:
            return expand(found[1], self.scope, found[0], self.depth + 1)
        self.generic_visit(node)
        return node


def _unwrap(expr: ast.AST) -> ast.AST:
    """`open(p, "rb")`, `str(p)`, `Path(p)` -> `p`; an in-memory copy of a buffer's bytes
    (`io.BytesIO(buf.getvalue())`) -> `buf`, the buffer `torch.save` wrote into."""
    while isinstance(expr, ast.Call):
        if _called_name(expr.func) in _PATH_WRAPPERS and expr.args:
            expr = expr.args[0]
        elif isinstance(expr.func, ast.Attribute) and expr.func.attr in _SAME_DATA_METHODS and not expr.args:
            expr = expr.func.value
        else:
            break
    return expr


def path_keys(expr: ast.AST, scope: Scope, line: int) -> set:
    """Keys under which two path expressions name the same file: the expanded source text, and
    the format template (`'{}.pkl'.format(epoch)` and `'{}.pkl'.format(best)` share one)."""
    expanded = _unwrap(expand(expr, scope, line))
    keys = {("exact", ast.unparse(expanded))}
    template = _template(expanded)
    if template is not None:
        keys.add(("template", template))
    return keys


def _template(expr: ast.AST) -> Optional[tuple]:
    parts: list[str] = []
    _template_parts(expr, parts)
    fixed = "".join(p for p in parts if p != "*")
    if "*" not in parts and not any(("{" in p or "%" in p) for p in parts):
        return None  # no variable part: the exact key says it all
    return tuple(parts) if len(fixed) >= 4 else None


def _template_parts(node: ast.AST, parts: list) -> None:
    """`_template`'s walk: the constant parts of a path expression, "*" for each variable one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        parts.append(node.value)
    elif isinstance(node, ast.JoinedStr):
        for value in node.values:
            _template_parts(value if isinstance(value, ast.Constant) else ast.Name("*"), parts)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Div)):
        _template_parts(node.left, parts)
        _template_parts(node.right, parts)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant):
        parts.append(str(node.left.value))
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format" \
            and isinstance(node.func.value, ast.Constant):
        parts.append(str(node.func.value.value))
    elif isinstance(node, ast.Call) and _called_name(node.func) == "join":
        for arg in node.args:
            _template_parts(arg, parts)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Lambda):
        _template_parts(node.func.body, parts)  # a path lambda (`ckpt = lambda e: f"c/{e}.pth"`) is its template
    else:
        parts.append("*")


def roots(expr: ast.AST) -> set[str]:
    """Names (and `self.x` paths) the value of `expr` is built from, not counting called functions."""
    called = {id(n) for node in ast.walk(expr) if isinstance(node, ast.Call) for n in ast.walk(node.func)}
    found = set()
    for node in ast.walk(expr):
        if id(node) in called:
            continue
        if isinstance(node, ast.Attribute) and _path_text(node):
            found.add(_path_text(node))
        elif isinstance(node, ast.Name):
            found.add(node.id)
    return found


def base_dirs(expr: ast.AST) -> set[str]:
    """The directory a path is built under: `d` in `d / "x.pt"`, `os.path.join(d, "x.pt")`,
    `d + "/x.pt"`, `f"{d}/x.pt"`, `d.joinpath("x.pt")`."""
    expr = _unwrap(expr)
    if _path_text(expr) is not None:
        return {_path_text(expr)}
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Div, ast.Add)):
        return base_dirs(expr.left)
    if isinstance(expr, ast.Call) and _called_name(expr.func) == "join" and expr.args:
        return base_dirs(expr.args[0])
    if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and expr.func.attr == "joinpath":
        return base_dirs(expr.func.value)
    if isinstance(expr, ast.JoinedStr) and expr.values and isinstance(expr.values[0], ast.FormattedValue):
        return base_dirs(expr.values[0].value)
    return set()


def _called_name(func: ast.AST) -> Optional[str]:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def is_writer_call(call: ast.Call) -> bool:
    name = _called_name(call.func) or ""
    if name == "open":
        mode = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "mode"), None)
        return isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(c in mode.value for c in "wax+")
    return bool(_WRITER.search(name)) and not _READER.match(name)


def _saves(call: ast.Call) -> bool:
    """A writer that serializes (`torch.save`, `save_checkpoint`): `open(path, "wb")` is also what a
    download of someone else's file does."""
    return is_writer_call(call) and _called_name(call.func) != "open"


def method_named(cls: ast.ClassDef, name: str) -> Optional[ast.AST]:
    return next((m for m in cls.body if isinstance(m, _FUNCTIONS) and m.name == name), None)


def saved_to(call: ast.Call) -> Optional[ast.AST]:
    """Where a `torch.save(obj, f)`-shaped call writes (`f`), or None."""
    if _called_name(call.func) == "save" and len(call.args) > 1 and call.args[1].__class__ is not ast.Starred:
        return call.args[1]
    return None


def _arguments(call: ast.Call) -> list[ast.AST]:
    return [a.value if isinstance(a, ast.Starred) else a for a in call.args] + [k.value for k in call.keywords]


def load_path(call: ast.Call) -> Optional[ast.AST]:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "f"), None)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class Provenance:
    """Answers "did this run write the file that `torch.load` reads here?" for one checked file."""

    def __init__(self, tree: ast.Module, enclosing_function) -> None:
        self.tree = tree
        self.enclosing_function = enclosing_function
        self._scopes: dict[int, Scope] = {}

    @cached_property
    def functions(self) -> dict:
        """The file's top-level functions by name (what `name(...)` in the file runs)."""
        return {n.name: n for n in self.tree.body if isinstance(n, _FUNCTIONS)}

    @cached_property
    def classes(self) -> list:
        return [n for n in ast.walk(self.tree) if n.__class__ is ast.ClassDef]

    def class_holding(self, func) -> Optional[ast.ClassDef]:
        """The class whose body defines `func` (what `self` is in it), or None."""
        return next((c for c in self.classes if any(m is func for m in c.body)), None) if func is not None else None

    def method_of(self, func, name: str) -> Optional[ast.AST]:
        """What `self.name(...)` runs in `func`: the method `name` of the class holding `func`, or None."""
        cls = self.class_holding(func)
        return method_named(cls, name) if cls is not None else None

    def scope(self, node: Optional[ast.AST]) -> Scope:
        owner = node if node is not None else self.tree
        if id(owner) not in self._scopes:
            self._scopes[id(owner)] = Scope(owner)
        return self._scopes[id(owner)]

    def written_by_this_run(self, load: ast.Call) -> bool:
        path = load_path(load)
        if path is None:
            return False
        func = self.enclosing_function(load)
        scope = self.scope(func)
        line = load.lineno
        keys = path_keys(path, scope, line)
        expanded = expand(path, scope, line)
        temp = self._temporary_roots(path, scope, func, line)
        if temp and (_written_under(temp, scope, line) or _told_to_nothing(temp, scope, load, line)):
            return True
        bases = base_dirs(path) | base_dirs(expanded)
        model = _loaded_into(func or self.tree, load)
        for call in scope.calls_before(line):
            if call is load:
                continue
            if is_writer_call(call):
                for arg in _arguments(call):
                    if path_keys(arg, scope, call.lineno) & keys:
                        return True
                    if _path_text(arg) in bases:
                        return True  # the directory itself went to a writer (`ModelCheckpoint(dirname)`)
            if _writer_object_used(call, roots(path), scope, line):
                return True
            if model is not None and _saves_model_to(call, model, scope, keys, bases):
                return True
        return self._written_by_earlier_helper(func, keys, scope, line)

    def shipped_with_the_code(self, load: ast.Call) -> bool:
        """Is the loaded path next to the code (`os.path.join(os.path.dirname(__file__), "../data/pnet.pt")`,
        directly or through the names bound before the load)?  A weights file a package ships is loaded on
        every user's machine, with or without a GPU: it is saved from the CPU (else the package fails for
        all its CPU users), not a checkpoint of some run."""
        path = load_path(load)
        if path is None:
            return False
        expanded = expand(path, self.scope(self.enclosing_function(load)), load.lineno)
        return any(n.__class__ is ast.Name and n.id == "__file__" for n in ast.walk(expanded))

    def _temporary_roots(self, expr: ast.AST, scope: Scope, func, line: int, depth: int = 0) -> set[str]:
        """The names in `expr` (followed through earlier bindings) that hold a temporary directory of
        this test or run: pytest's `tmp_path`/`tmpdir`, `tempfile.TemporaryDirectory()`, a test class's
        `self.tmp_dir` made in `setUp`."""
        found = set()
        if depth > _MAX_EXPANSION:
            return found
        for key in roots(expr):
            if key in scope.params and _TEMP_PARAM.match(key):
                found.add(key)
                continue
            bound = scope.binding_before(key, line)
            value = bound[1] if bound else (self._set_up_value(func, key[5:]) if key.startswith("self.") and func else None)
            if value is None:
                continue
            inner = self._temporary_roots(value, scope, func, bound[0] if bound else line, depth + 1)
            if inner or any(isinstance(n, ast.Call) and _called_name(n.func) in _TEMP_CALLS for n in ast.walk(value)) \
                    or self._yields_temporary(value, depth):
                found |= inner | {key}
        return found

    def _yields_temporary(self, value: ast.AST, depth: int) -> bool:
        """`with make_tmp() as d:` where `make_tmp` is a `@contextmanager` function of this file whose
        every `yield` gives a temporary directory it made (`d = tempfile.TemporaryDirectory()`, `yield d.name`)."""
        if value.__class__ is not ast.Call or value.func.__class__ is not ast.Name:
            return False
        helper = self.functions.get(value.func.id)
        if helper is None or not any((d.id if d.__class__ is ast.Name else getattr(d, "attr", None)) in _CONTEXT_MANAGERS
                                     for d in helper.decorator_list):
            return False
        own = self.scope(helper)
        yields = [n for n in own.nodes if n.__class__ is ast.Yield]
        return bool(yields) and all(y.value is not None and (self._temporary_roots(y.value, own, helper, y.lineno, depth + 1) or any(
            isinstance(n, ast.Call) and _called_name(n.func) in _TEMP_CALLS for n in ast.walk(y.value))) for y in yields)

    def _set_up_value(self, func, attr: str) -> Optional[ast.AST]:
        """What a test class's set-up method binds to `self.<attr>`."""
        cls = self.class_holding(func)
        for method in cls.body if cls is not None else ():
            if isinstance(method, _FUNCTIONS) and method.name in _SETUP_METHODS:
                value = self.scope(method).value_before(f"self.{attr}", method.end_lineno + 1)
                if value is not None:
                    return value
        return None

    def _written_by_earlier_helper(self, func, keys: set, own: Scope, line: int) -> bool:
        """A helper of this file writes the same path, and some function calls it before the loader
        (`run_training_test(root)` then `run_inference_test(root)`), or the loader's own code calls it
        (or a function or method of this file that calls it) before the load (`stopper.step(loss, model)`,
        whose `save_checkpoint` writes `"es_checkpoint.pt"`, in the training loop above the load)."""
        functions = [n for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if self._path_handed_to_writer(functions, keys, own, line, func):
            return True
        writers = self._writers(functions, keys, func)
        if not writers:
            return False
        reaching = self._reaching(functions, writers, func)
        if any(self._runs(c) & reaching for c in own.calls_before(line)):
            return True
        if func is None:
            return False
        for caller in ast.walk(self.tree):
            if not isinstance(caller, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            first_write = None
            for call in sorted((n for n in own_nodes(caller.body) if isinstance(n, ast.Call)), key=lambda c: c.lineno):
                names = self._runs(call)
                if names & writers and first_write is None:
                    first_write = call.lineno
                elif func.name in names and first_write is not None and call.lineno > first_write:
                    return True
        return False

    def _path_handed_to_writer(self, functions: list, keys: set, own: Scope, line: int, func) -> bool:
        """Before the load, the loader's code hands the same path to a function of this file that saves
        to the parameter it takes it as (`train(..., model_state_file)`, whose loop does
        `torch.save(state, model_state_file)`; not a download that writes it with `open(path, "wb")`)."""
        by_name = {f.name: f for f in functions if f is not func}
        for call in own.calls_before(line):
            target = by_name.get(_called_name(call.func))
            if target is None or any(isinstance(a, ast.Starred) for a in call.args):
                continue
            params = [a.arg for a in target.args.posonlyargs + target.args.args]
            if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
                params = params[1:]
            handed = [p for p, a in zip(params, call.args) if path_keys(a, own, call.lineno) & keys]
            handed += [k.arg for k in call.keywords if k.arg is not None and path_keys(k.value, own, call.lineno) & keys]
            if not handed:
                continue
            scope = self.scope(target)
            for write in scope.calls_before(target.end_lineno + 1):
                if _saves(write) and any(isinstance(a, ast.Name) and a.id in handed and
                                                 scope.binding_before(a.id, write.lineno) is None
                                                 for a in _arguments(write)):
                    return True
        return False

    def _writers(self, functions: list, keys: set, func, saves: bool = False) -> set:
        """The names of the functions (other than `func`) that write a path of these keys (`saves`: with a
        writer that serializes, not `open(path, "wb")`, which a download also does)."""
        writers = set()
        for other in functions:
            if other is not func:
                scope = self.scope(other)
                for call in scope.calls_before(other.end_lineno + 1):
                    if (_saves(call) if saves else is_writer_call(call)) and any(path_keys(a, scope, call.lineno) & keys for a in _arguments(call)):
                        writers.add(other.name)
        return writers

    def _reaching(self, functions: list, writers: set, func) -> set:
        """The writers and the functions (other than `func`) that call one of them, transitively."""
        reaching = set(writers)
        grown = True
        while grown:
            grown = False
            for other in functions:
                if other is not func and other.name not in reaching and any(
                        self._runs(c) & reaching for c in self.scope(other).calls_before(other.end_lineno + 1)):
                    reaching.add(other.name)
                    grown = True
        return reaching

    def _runs(self, call: ast.Call) -> set:
        """The names of the functions `call` runs to completion: its callee, and what a joined
        `torch.multiprocessing.spawn(fn, ...)` runs in its workers (`context/spawned.py`)."""
        names = {_called_name(call.func)}
        if call.args and _called_name(call.func) in ("spawn", "start_processes"):
            if "_spawners" not in self.__dict__:
                self._spawners = spawner_names(self.tree)
            names.add(spawned_function(call, self._spawners))
        return names

    def written_by_imported_helper(self, load: ast.Call, modules: list) -> bool:
        """The load reads a literal path (`torch.load("es_checkpoint.pt")`) that a function or method of a
        project module this file imports writes, and the loader's code calls it (or one of that module's
        functions that calls it) before the load: `stopper.step(acc, model)` of `from utils import
        EarlyStopping`, whose `save_checkpoint` writes that file, in the training loop above the load.
        Only a literal names the same file in two modules.  `modules`: those modules' trees."""
        path = load_path(load)
        if path is None or not modules:
            return False
        func = self.enclosing_function(load)
        own = self.scope(func)
        literal = _unwrap(expand(path, own, load.lineno))
        if not (isinstance(literal, ast.Constant) and isinstance(literal.value, str)):
            return False
        keys = {("exact", ast.unparse(literal))}
        called = {_called_name(c.func) for c in own.calls_before(load.lineno)}
        for tree in modules:
            other = Provenance(tree, None)
            functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            writers = other._writers(functions, keys | _defaulted_attributes(functions, literal.value), None, saves=True)
            if writers and other._reaching(functions, writers, None) & called:
                return True
        return False


_OUTPUT_KEYWORD = re.compile(r"^(out|output|save|dest|dst|target|export|ckpt|checkpoint|log|dirpath|default_root)",
                             re.IGNORECASE)


def _defaulted_attributes(functions: list, literal: str) -> set:
    """Keys of `self.<attr>` bound from a parameter whose default is the literal path
    (`def __init__(self, checkpoint_path="./checkpoints/model.pt")`, `self.checkpoint_path =
    checkpoint_path`): a method writing `self.checkpoint_path` writes that file unless told otherwise."""
    keys = set()
    for func in functions:
        a = func.args
        positional = a.posonlyargs + a.args
        pairs = list(zip(positional[len(positional) - len(a.defaults):], a.defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
        params = {p.arg for p, d in pairs if isinstance(d, ast.Constant) and d.value == literal}
        if not params:
            continue
        for stmt in ast.walk(func):
            if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in params:
                keys |= {("exact", _path_text(t)) for t in stmt.targets
                         if isinstance(t, ast.Attribute) and _path_text(t) is not None}
    return keys


def _written_under(temp: set, scope: Scope, line: int) -> bool:
    """Did this scope, before `line`, hand a temporary directory (or a path in it) to something that
    writes: a writer (`torch.save`, `save_pretrained`, `ModelCheckpoint(dirpath=...)`) or an output
    argument (`out_dir=tmp_path`)?  A directory only given to a download (`load(bundle_dir=tmp)`)
    holds files from elsewhere."""
    def mentions(node) -> bool:
        return bool(roots(node) & temp) or any(_path_text(n) in temp for n in ast.walk(node))

    for call in scope.calls_before(line):
        if is_writer_call(call) and any(mentions(a) for a in _arguments(call)):
            return True
        if any(k.arg and _OUTPUT_KEYWORD.match(k.arg) and mentions(k.value) for k in call.keywords):
            return True
    return False


def _told_to_nothing(temp: set, scope: Scope, load: ast.Call, line: int) -> bool:
    """Is a fresh temporary directory of this scope read only by the load (and by the paths built from it
    that the load reads)?  Nothing of this run was handed it, so nothing from elsewhere was put in it:
    what the load finds there the run's own code wrote (a helper's patched default, `get_env()` -> it)."""
    if any("." in key for key in temp):
        return False  # (a set-up method's `self.tmp`: its other uses are out of sight)
    inside = {id(n) for n in ast.walk(load)}
    for key in temp:
        bound = scope.binding_before(key, line)
        if bound is None:
            return False
        for other in temp - {key}:
            other_bound = scope.binding_before(other, line)
            if other_bound is not None:
                inside |= {id(n) for n in ast.walk(other_bound[1])}
    for node in scope.nodes:
        if node.__class__ is ast.Name and node.id in temp and node.ctx.__class__ is ast.Load \
                and scope.binding_before(node.id, line)[0] <= node.lineno <= line and id(node) not in inside:
            return False
    return True


def _writer_object_used(call: ast.Call, path_roots: set, scope: Scope, line: int) -> bool:
    """The path is read off an object this scope built with a writer (`handler = ModelCheckpoint(...)`,
    then `handler.last_checkpoint`), and `call` used that object before the load."""
    for root in path_roots:
        value = scope.value_before(root, line)
        while isinstance(value, (ast.Attribute, ast.Subscript)):
            value = value.value
        if isinstance(value, ast.Name):
            obj = value.id
            built = scope.value_before(obj, line)
            if isinstance(built, ast.Call) and _WRITER.search(_called_name(built.func) or ""):
                if _uses(call, obj):
                    return True
    return False


def _uses(call: ast.Call, name: str) -> bool:
    if isinstance(call.func, ast.Name) and call.func.id == name:
        return True
    return any(isinstance(a, ast.Name) and a.id == name for a in _arguments(call))


def _loaded_into(owner: ast.AST, load: ast.Call) -> Optional[str]:
    """`self.model` in `self.model.load_state_dict(torch.load(p))`: the module whose state is loaded."""
    for node in ast.walk(owner):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict" \
                and node.args and node.args[0] is load:
            return ast.unparse(node.func.value)
    return None


def _saves_model_to(call: ast.Call, model: str, scope: Scope, keys: set, bases: set) -> bool:
    """An earlier call was handed the very module whose state is loaded and the checkpoint's path or
    directory (`early_stopping(val_loss, self.model, path)`): it may have saved the module there, so
    the file may come from this run (a warning needs the hazard proven)."""
    args = _arguments(call)
    if not any(ast.unparse(a) == model for a in args):
        return False
    exact = [k[1] for k in keys if k[0] == "exact"]
    for arg in args:
        given = path_keys(arg, scope, call.lineno)
        if given & keys or _path_text(arg) in bases:
            return True
        # the directory the file is in: `path`, then `path + '/' + 'checkpoint.pth'`
        if any(k[0] == "exact" and any(e.startswith(k[1]) and e != k[1] for e in exact) for k in given):
            return True
    return False
