"""The interpreter's state: frames (one per running scope), loops, and how the
environments of two paths are joined.

An environment maps a name or an access path (`self.net`, `batch["x"]`) to
an abstract value (`values.py`).  A key missing from a function's frame is
looked up in the module's environment.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace
from typing import Optional

from ..syntax_nodes import calls_and_assignments, own_nodes
from .devices import ACCEL_KIND, Dev
from .values import (
    STATE_UNKNOWN, UNKNOWN, BatchV, DeviceV, DictV, EnumerateV, LoaderV, ModuleV, NumpyV, ObjectV, OptimizerV, ParamsV,
    PlacedV, QualV, SelfV, SeqV, TensorV, Value, attrs_get, join_all, map_leaves,
)

MAX_LOOP_PASSES = 3  # a loop body runs until its entry environment stops changing, at most this often


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
    cls: Optional[object] = None  # the ClassInfo of a method
    returns: Optional[Value] = None
    loops: list = field(default_factory=list)
    no_grad: int = 0
    inline_depth: int = 0  # 0: an entry point; n: the n-th call analysed for a context
    call_site: Optional[ast.AST] = None  # the call this context was made for (None: an entry point)
    caller_cls: Optional[object] = None  # the ClassInfo of the method whose code made that call (None: not a method)
    self_dev: Optional[Dev] = None  # where "the module's device" (SELF_DEV) really is in this context
    yields: Optional[Value] = None  # what a generator yields
    before: dict = field(default_factory=dict)  # attribute path -> what it held before this frame first bound it
    assigned: dict = field(default_factory=dict)  # attribute path -> the statement that last bound it here
    released: set = field(default_factory=set)  # paths whose placed value was handed to a callee that may move it
    keyed: Optional[set] = None  # names an item was stored under here (`d[k] = v`): binding one drops those items


class Terminated(Exception):
    """Raised inside a block after return/raise/break/continue (the rest is dead)."""


# what a name bound on one path only keeps where paths meet (see join_env); an import (a QualV, or its
# subclass for a project module) too: `if SETTINGS.torch_required: import torch` leaves `torch` torch
_ONE_PATH = frozenset({TensorV, DeviceV, ModuleV, PlacedV, BatchV, ParamsV, NumpyV})


def join_env(a: dict, b: dict, before: Optional[dict] = None) -> dict:
    """The environment after two paths meet.  A name bound on one path only to a tensor, module, import or
    device keeps that binding: where the other path reaches a read of it, the read raises
    (NameError, UnboundLocalError), unless `before` holds what it reads there (a `global`/`nonlocal`
    name).  Other values bound on one path are unknown (kept, they gave no finding and cost 5 % more
    analysis: more call contexts).  An attribute path bound on one path only joins what it held
    before (`before`), else is unknown."""
    if a is b:
        return a
    before = before or {}
    out = a.copy()  # (in a's order; what both paths hold alike, most names, stays as it is)
    for key, value in a.items():
        other = b.get(key)
        if other is None:
            out[key] = _join_before(value, before[key]) if key in before else _one_path(key, value, b, before)
        elif value is not other:
            out[key] = value.join(other)
    for key in b.keys() - a.keys():
        out[key] = _join_before(b[key], before[key]) if key in before else _one_path(key, b[key], a, before)
    return out


def _one_path(key: str, value: Value, other: dict, before: dict) -> Value:
    if (value.__class__ in _ONE_PATH or isinstance(value, QualV)) and key.isidentifier():
        return value
    if key.endswith("]") and "[<" in key:
        # `d[k]`, stored under the name k on this path only (`if k not in d: d[k] = v`): on the other
        # path it is one of the dict's values; an empty dict has none to read (a read raises KeyError)
        name = key[:key.index("[<")]
        container = other.get(name) or before.get(name)
        if isinstance(container, DictV):
            return value if container.items == () else value.join(container.elem)
    return UNKNOWN


class NotYetSet:
    """What `self.<name>` held before `__init__` first bound it, when nothing was known there: if
    nothing else can have set it (`absent()`, decided only where two paths meet), the path that did
    not bind it has no such attribute, and any read that runs sees the value bound."""

    __slots__ = ("absent",)

    def __init__(self, absent):
        self.absent = absent  # () -> bool


def _join_before(value, prior):
    if isinstance(prior, NotYetSet):
        return value if prior.absent() else UNKNOWN
    return value.join(prior)


def with_stored_items(env: dict, name: str, value: DictV) -> Value:
    """The dict `value` bound to `name`, with the entries the code stored since (`d["k"] = v` binds
    the path `d['k']`): what a function returning `d` hands back."""
    prefixes = (name + "['", name + '["')
    stored = {}
    deeper = False
    for key, item in env.items():
        if key.startswith(prefixes) and key.endswith("]"):
            try:
                entry = ast.literal_eval(key[len(name) + 1:-1])
            except (ValueError, SyntaxError):
                deeper = True  # `d['loss']['rec'] = v`: stored into an inner dict
                continue
            if isinstance(entry, str) and key == f"{name}[{entry!r}]":
                stored[entry] = item
    if deeper:
        stored.update(_inner_dicts_filled(env, name, value, stored))
    if not stored:
        return value
    items = tuple((k, stored.pop(k, v)) for k, v in value.items) + tuple(stored.items())
    return replace(value, items=items, elem=join_all(v for _, v in items))


def _inner_dicts_filled(env: dict, name: str, value: DictV, stored: dict) -> dict:
    """The inner dicts of `name` (`d['loss'] = {}` or `{'loss': {}}`) with what the code stored into
    them through `name` (`d['loss']['rec'] = v`), keyed as `stored` is: a nested result dict."""
    inner = {}
    for key, item in tuple(value.items) + tuple(stored.items()):
        if isinstance(item, DictV) and item.items is not None and isinstance(key, str):
            filled = with_stored_items(env, f"{name}[{key!r}]", item)
            if filled is not item:
                inner[key] = filled
    return inner


def held_attributes(env: dict, path: Optional[str]) -> tuple:
    """(name, value) of each attribute bound at `path.<name>` in `env` (`runner.model` -> model)."""
    if path is None:
        return ()
    prefix = path + "."
    return tuple((key[len(prefix):], value) for key, value in env.items()
                 if key.startswith(prefix) and "." not in key[len(prefix):] and "[" not in key[len(prefix):])


def held_attribute_paths(env: dict, path: Optional[str]) -> tuple:
    """`held_attributes(env, path)`, the (names, value) of what is bound deeper (`m.inner.cache`:
    (["inner", "cache"], value)), other than modules, and the names of the attributes with an item
    bound under a string key (`self.params['snr']`), in one pass."""
    if path is None:
        return (), (), ()
    prefix = path + "."
    direct, nested, keyed = [], [], set()
    for key, value in env.items():
        if key.startswith(prefix):
            rest = key[len(prefix):]
            if "[" in key:
                name, bracket, _ = rest.partition("[")
                if bracket and "[" not in prefix and "." not in name and (rest[len(name) + 1:len(name) + 2] in ("'", '"')):
                    keyed.add(name)
            elif "." not in rest:
                direct.append((rest, value))
            elif value.__class__ is not ModuleV and value.__class__ is not PlacedV:
                nested.append((rest.split("."), value))
    return tuple(direct), nested, keyed


def with_held_items(attrs: Optional[tuple], env: dict, path: str, keyed, held) -> Optional[tuple]:
    """`attrs` of an instance with the items the caller stored into its dict attributes under string
    keys (`self.params["snr"] = t` before `self.apply(x)`: the method reads `t` back).  `held(name)`:
    the attribute's value where `attrs` has none (what the class built: other methods may have stored
    other items since, so an item under a key not known here stays unknown)."""
    for name in keyed:
        value = attrs_get(attrs or (), name)
        built = value is None
        if built:
            value = held(name)
        if isinstance(value, DictV) and value.items is not None:
            stored = with_stored_items(env, f"{path}.{name}", value)
            if stored is not value:
                attrs = merge_attributes(attrs, ((name, replace(stored, elem=UNKNOWN) if built else stored),))
    return attrs


def with_nested_attributes(attrs: Optional[tuple], nested: list) -> Optional[tuple]:
    """`attrs` of an instance with what the caller bound deeper in the objects and modules it holds
    (`m.inner.cache = t`, or left there by a call: `m.inner.fill(x)`): the inner module's attribute."""
    for names, value in nested:
        attrs = _with_inner(attrs or (), names, value)
    return attrs


def _with_inner(attrs: tuple, names: list, value: Value) -> tuple:
    held = attrs_get(attrs, names[0])
    if held.__class__ is not ModuleV and held.__class__ is not ObjectV:
        return attrs
    inner = ((names[1], value),) if len(names) == 2 else None
    inner = merge_attributes(held.attrs, inner) if inner is not None else _with_inner(held.attrs, names[1:], value)
    return merge_attributes(attrs, ((names[0], replace(held, attrs=inner)),))


def merge_attributes(attrs: Optional[tuple], overrides: tuple) -> Optional[tuple]:
    """An instance's `attrs` with `overrides` in place of the pairs of the same names, sorted by name."""
    if not overrides:
        return attrs
    names = {name for name, _ in overrides}
    return tuple(sorted([(n, v) for n, v in (attrs or ()) if n not in names] + list(overrides), key=lambda kv: kv[0]))


def with_held_attributes(env: dict, name: str, value: Value) -> Value:
    """An instance of a plain class (`self`, or an object the function made) bound to `name` as a
    function returns it, with the attributes the function bound or moved since (`self.buf =
    self.buf.cuda()`, `runner.model.cuda()`): what `Agent().cuda()` or `build()` hands back, where no
    caller's name holds the instance for those effects to reach."""
    held = held_attributes(env, name)
    attrs = merge_attributes(value.attrs, held) if held else value.attrs
    prefix = name + "."
    for key, inner in env.items():  # (`self.inner.net.cuda()`: what an object it holds holds)
        if key.startswith(prefix) and "." in key[len(prefix):] and "[" not in key:
            attrs = _with_nested(attrs, key[len(prefix):].split("."), inner)
    return replace(value, attrs=attrs) if attrs is not value.attrs else value


def _with_nested(attrs: tuple, names: list, value: Value) -> tuple:
    """`attrs` with `value` bound at the attribute path `names` (`["inner", "net"]`) of an object they
    hold; a module on the way (`model.backbone`) is on an unknown device (one of its submodules moved)."""
    held = attrs_get(attrs, names[0])
    if held.__class__ is ObjectV:
        if len(names) == 2:
            inner = merge_attributes(held.attrs, ((names[1], value),))
        else:
            inner = _with_nested(held.attrs, names[1:], value)
        return merge_attributes(attrs, ((names[0], replace(held, attrs=inner)),))
    if held.__class__ is ModuleV and value.__class__ in PLACEABLE:
        return merge_attributes(attrs, ((names[0], unplaced(held)),))
    return attrs


def same_env(a: dict, b: dict) -> bool:
    if a is b:
        return True
    if a.keys() != b.keys():
        return False
    return all(v is b[k] or v == b[k] for k, v in a.items())


def device_variable(env: dict) -> Optional[str]:
    """A name in `env` bound to an accelerator device under its own name (`device = torch.device(...)`)."""
    for name, value in env.items():
        if isinstance(value, DeviceV) and value.dev.kind == ACCEL_KIND and value.dev.expr == name:
            return name
    return None


def forget_moved_arguments(ev, node: ast.Call) -> None:
    """An unknown callee may move a module it receives (`setup(model)`): forget where it is."""
    env = ev.frame.env
    for arg in list(node.args) + [k.value for k in node.keywords]:
        path = ev.path_of(arg.value if arg.__class__ is ast.Starred else arg)
        if path is None:
            continue
        value = env.get(path) if path in env else ev.module_value(path)
        if value.__class__ is ModuleV:
            ev.frame.released.add(path)  # a caller's module may have moved, even if the name is re-bound later
            if value.dev is not None or value.placed_at is not None:
                env[path] = replace(value, dev=None, placed_at=None)  # (where it is no call says any more)
                follow_move(ev, path, None, None)
        elif value.__class__ is PlacedV:
            ev.frame.released.add(path)
            env[path] = UNKNOWN
            follow_move(ev, path, None, None)
        elif value.__class__ is OptimizerV:
            env[path] = replace(value, state=STATE_UNKNOWN, state_dev=None)  # it may move the state itself


def forget_objects_handed(ev, node: ast.Call, receiver: Optional[Value], receiver_path: Optional[str]) -> None:
    """A call of the project's code that is not followed (past the depth limit, recursive) may set what
    the instances it gets hold (`batch.to(device)` assigning `self.x = self.x.to(device)`): the
    attributes of the receiver (`receiver` at `receiver_path`) and of the instances passed by name are
    not known."""
    env = ev.frame.env
    found = [(receiver_path, env.get(receiver_path, receiver))] if receiver_path is not None else []
    for arg in list(node.args) + [k.value for k in node.keywords]:
        path = ev.path_of(arg) if arg.__class__ is not ast.Starred else None
        if path is not None:
            found.append((path, env.get(path)))
    for path, value in found:
        # (an instance as a method sees it is a SelfV: `self.chars.to(device)` inside `batch.to(device)`)
        if value.__class__ is not ObjectV and (value.__class__ is not SelfV or path == "self"):
            continue
        # (bound as paths, as a body that sets them leaves them: they reach this frame's callers too)
        lost = {f"{path}.{name}" for name, _ in value.attrs or ()}
        lost.update(k for k in env if k.startswith(path) and k[len(path):len(path) + 1] in (".", "["))
        for key in lost:
            env[key] = UNKNOWN


def linked_optimizers(ev, path: str) -> list:
    """The names of this function's optimizers holding the parameters of the module at `path` (or of
    one of its submodules)."""
    scope = ev.frame.func
    prefix = path + "."
    return [key for key, value in ev.frame.env.items()
            if value.__class__ is OptimizerV and value.owners and value.scope is scope
            and any(o == path or o.startswith(prefix) for o in value.owners)]


def follow_move(ev, path: str, dev: Optional[Dev], at: Optional[ast.AST]) -> None:
    """The module at `path` was moved in place to `dev` (None: somewhere unknown): the optimizers of
    this function holding its parameters see them there."""
    env = ev.frame.env
    for key in linked_optimizers(ev, path):
        env[key] = replace(env[key], params_dev=dev, moved_at=at)


# nn.Module's methods that move its parameters and buffers in place (torch 2.13: Module.to, cuda,
# cpu, xpu, ipu, mtia all go through `_apply` and return self).
MODULE_MOVES = frozenset({"to", "cuda", "cpu", "xpu", "ipu", "mtia"})
PLACEABLE = (ModuleV, PlacedV)  # what such a call moves in place (a module, or an object `.to()`-ed and called)


def globals_moved_in_functions(tree: ast.Module) -> frozenset:
    """Module-level names a function of the file moves in place (`model.to(device)` in `train()`:
    no `global` statement is needed, `Module.to` changes the object).  Where such a module is at a
    function's entry is unknown: the function may run before the move or after it."""
    moved = set()
    for func in module_functions(tree):
        moved.update(names_moved_from_outside(func))
    return frozenset(moved)


def names_moved_from_outside(func) -> frozenset:
    """The names `func` (nested functions included) moves in place, `.cuda()` / `.to(...)` on a
    chain that starts with them, without binding them itself: its enclosing function's variables or
    the module's (kept on the node)."""
    known = func.__dict__.get("_tp_outer_moves")
    if known is None:
        moved, local = set(), None
        for node in calls_and_assignments(func):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MODULE_MOVES):
                continue
            root = node.func.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name):
                if local is None:
                    local = local_names(func)
                if root.id not in local:
                    moved.add(root.id)
        known = func._tp_outer_moves = frozenset(moved)
    return known


def containers_moved_from_outside(func) -> frozenset:
    """The names `func` (nested functions included) walks in a loop or comprehension that moves its
    items in place (`for m in MODELS: m.cuda()`, `for m in MODELS.values(): ...`) without binding them
    itself: a module-level list or dict whose modules, under their own names too, it moves (kept on the node)."""
    known = func.__dict__.get("_tp_outer_item_moves")
    if known is None:
        found = set()
        for node in own_nodes(func):
            if node.__class__ in _ITEM_LOOPS:
                if moves_its_items(node):
                    iterables = [node.iter] if node.__class__ in (ast.For, ast.AsyncFor) else [g.iter for g in node.generators]
                    found.update(_iterated_name(iterable) for iterable in iterables)
            elif node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr in MODULE_MOVES:
                found.add(_subscripted_root(node.func.value))  # `nets[k].to(device)`, `nets["g"].model.cuda()`
        found.discard(None)
        known = func._tp_outer_item_moves = frozenset(found - local_names(func)) if found else frozenset()
    return known


def _subscripted_root(node) -> Optional[str]:
    """The name a chain with a subscript starts from (`nets[k]`, `nets["g"].model` -> nets)."""
    subscripted = False
    while node.__class__ is ast.Attribute or node.__class__ is ast.Subscript:
        subscripted = subscripted or node.__class__ is ast.Subscript
        node = node.value
    return node.id if subscripted and node.__class__ is ast.Name else None


_ITEM_LOOPS = frozenset({ast.For, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp})
_VIEWS = frozenset({"values", "items"})


def _iterated_name(node) -> Optional[str]:
    """The name a loop walks the items of: `xs`, `xs.values()`, `xs.items()`, `enumerate(xs)`."""
    if node.__class__ is ast.Call and not node.keywords:
        if node.func.__class__ is ast.Attribute and node.func.attr in _VIEWS and not node.args:
            node = node.func.value
        elif node.func.__class__ is ast.Name and node.func.id == "enumerate" and len(node.args) == 1:
            node = node.args[0]
    return node.id if node.__class__ is ast.Name else None


# A move of a subscript (`nets[k].to(`), or `for m in` / `, m in` with a name the text also moves: a
# function that may move the items of a list or dict
_SUBSCRIPT_MOVE = re.compile(r"\]\s*\.\s*(?:to|cuda|cpu|xpu|ipu|mtia)\s*\(")


def containers_moved_in_functions(tree: ast.Module, text: str, roots: frozenset) -> tuple[frozenset, frozenset]:
    """The module-level lists and dicts whose items a function of the file moves in place
    (`containers_moved_from_outside`), and the module-level names their displays hold (`MODELS =
    [enc, dec]`): those are moved by a function as much as `enc.cuda()` in it would move `enc`.
    `roots`: the text's move roots; a file with no `for` loop over one of them and no move of a
    subscript pays only a text search."""
    starts = [m.start() for m in _SUBSCRIPT_MOVE.finditer(text)]
    for name in roots:
        for pattern in (f"for {name} in", f", {name} in"):
            at = text.find(pattern)
            while at >= 0:
                starts.append(at)
                at = text.find(pattern, at + 1)
    if not starts:
        return frozenset(), frozenset()
    lines = sorted({text.count("\n", 0, at) + 1 for at in starts})
    containers = set()
    for func in module_functions(tree):  # (only those with such a line)
        if any(func.lineno <= line <= func.end_lineno for line in lines):
            containers.update(containers_moved_from_outside(func))
    if not containers:
        return frozenset(), frozenset()
    held = set()
    for stmt in _module_statements(tree, into_classes=False):
        if stmt.__class__ is ast.Assign and any(t.__class__ is ast.Name and t.id in containers for t in stmt.targets):
            display = stmt.value
            items = display.values if display.__class__ is ast.Dict else getattr(display, "elts", ())
            held.update(item.id for item in items if item.__class__ is ast.Name)
    return frozenset(containers), frozenset(held)


def holds_what_moves(value: Value) -> bool:
    """Is `value` a list or dict holding a module or an object a move in place can reach?"""
    return (value.__class__ is SeqV or isinstance(value, DictV)) and any(h.__class__ in MOVED_THROUGH for h in held_values(value))


def moved_containers_in(ev, env: dict) -> dict:
    """The lists and dicts of `env` under the names of `ev.moved_containers()` (a function of the file
    moves their items), by name."""
    found = {}
    for name in ev.moved_containers():
        value = env.get(name)
        if value.__class__ is SeqV or isinstance(value, DictV):
            found[name] = value
    return found


def forget_closure_moves(ev, func: ast.AST) -> None:
    """A function nested in the running one was called (`def setup(): model.cuda()`, then `setup()`):
    the enclosing function's modules it moves in place are now where it put them, which its context
    did not hand back (they are not its parameters): on an unknown device, as are the names sharing them."""
    names = names_moved_from_outside(func)
    if not names:
        return
    env = ev.frame.env
    held = [env[name] for name in names if name in env and env[name].__class__ in MOVED_THROUGH]
    if held:
        forget_aliases(env, held)


# The calls `globals_moved_in_functions` looks for, found in the text first: a cheap superset of the
# names it can find, so that files that move no module-level module skip the walk.
_MOVE_CALL = re.compile(r"\.\s*(?:to|cuda|cpu|xpu|ipu|mtia)\s*\(")
_SPACE = frozenset(" \t\r\n\\")


def move_call_roots(text: str) -> frozenset:
    """The first names of the dotted chains (`model`, `model.module`) that end in a `.to(` /
    `.cuda(` / ... call in `text`, read backwards from each call."""
    roots = set()
    for match in _MOVE_CALL.finditer(text):
        dot, root = match.start(), None
        while True:  # `dot` is at a "." of the chain: read the name before it
            end = dot
            while end > 0 and text[end - 1] in _SPACE:
                end -= 1
            start = end
            while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
                start -= 1
            name = text[start:end]
            if not name.isidentifier():
                break
            root = name
            dot = start
            while dot > 0 and text[dot - 1] in _SPACE:
                dot -= 1
            if dot == 0 or text[dot - 1] != ".":
                break
            dot -= 1
        if root is not None:
            roots.add(root)
    return frozenset(roots)


def moves_its_items(node) -> bool:
    """Does a `for` loop or a comprehension move its target, or something it holds, in place (`for m
    in models: m.to(device)`, `[h.model.cuda() for h in holders]`), or a function one of its parameters
    (`lambda m: m.cuda()`, mapped over a list)?  Kept on the node."""
    known = node.__dict__.get("_tp_moves_items")
    if known is None:
        if node.__class__ in (ast.For, ast.AsyncFor):
            targets = [node.target]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):  # (lazy bodies subclass them)
            targets = [ast.Name(a.arg) for a in node.args.posonlyargs + node.args.args]
        else:
            targets = [g.target for g in node.generators]
        names = {n.id for t in targets for n in ast.walk(t) if n.__class__ is ast.Name}
        known = node._tp_moves_items = bool(names) and any(
            n.__class__ is ast.Call and n.func.__class__ is ast.Attribute and n.func.attr in _ITEM_MOVES
            and _root_name(n.func.value) in names for n in own_nodes(node))
    return known


# what moves a loop's item in place: torch's moves, and a parameter registered anew in its place
# (`m.register_parameter(name, nn.Parameter(distribute_tensor(p, mesh)))`: where it now is, is not known)
_ITEM_MOVES = MODULE_MOVES | {"register_parameter"}
# the views of a module that list it and its submodules (`model.modules()`)
_MODULE_VIEWS = frozenset({"children", "named_children", "modules", "named_modules"})


def module_view_source(scope, name: str) -> Optional[ast.expr]:
    """`mods = list(model.modules())` ... `for m in mods: m.cuda()`: the module (`model`) whose submodules
    the one binding of `name` in the function `scope` lists (also without `list(...)`/`tuple(...)`);
    None where `name` is bound otherwise, or more than once."""
    if scope is None or not isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    found = None
    for n in own_nodes(scope):
        if n.__class__ in (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.NamedExpr):
            targets = n.targets if n.__class__ is ast.Assign else [n.target]
            if not any(t.__class__ is ast.Name and t.id == name for target in targets for t in ast.walk(target)):
                continue
            if found is not None or n.__class__ is not ast.Assign or len(n.targets) != 1 \
                    or n.targets[0].__class__ is not ast.Name:
                return None
            value = n.value
            if value.__class__ is ast.Call and value.func.__class__ is ast.Name and value.func.id in ("list", "tuple") \
                    and len(value.args) == 1 and not value.keywords:
                value = value.args[0]
            if value.__class__ is not ast.Call or value.func.__class__ is not ast.Attribute \
                    or value.func.attr not in _MODULE_VIEWS or value.args or value.keywords:
                return None
            found = value.func.value
    return found


def _root_name(node) -> Optional[str]:
    """The name an attribute chain starts from (`h.model` -> h)."""
    while node.__class__ is ast.Attribute:
        node = node.value
    return node.id if node.__class__ is ast.Name else None


def held_values(value: Value) -> list:
    """The values a list, tuple or dict holds (what `enumerate`, `zip` or `.items()` of it iterates),
    one level down: the objects a loop over it reaches."""
    if isinstance(value, EnumerateV):  # (enumerate, zip, items)
        inner = value.inner
        return [v for part in inner for v in held_values(part)] if inner.__class__ is tuple else held_values(inner)
    if value.__class__ is SeqV:
        return list(value.items or ()) + [value.elem]
    if isinstance(value, DictV):
        return [v for _, v in value.items or ()] + [value.elem]
    return [value]


def forget_aliases(env: dict, held: list, skip: Optional[str] = None, made: Optional[ast.AST] = None) -> None:
    """The modules and objects `held` (by identity) may have been moved in place through another name
    (`m = model; m.cuda()`, `for h in [h1, h2]: h.model.cuda()`): each other name that holds one of
    them, or an object or container holding one, holds it on an unknown device.  `skip`: the path the
    move itself bound.  Values are immutable and shared, not copied, by a binding, so identity is a
    (conservative) alias test: a value shared by two objects that are not one only loses what is known.
    An object's attributes are written as paths (`h1.model`), the object itself is kept: a callee's
    effects on its parameters are told by the identity of what they hold.  `made`: where the moved module
    was made (or last moved), which a submodule read from it keeps (`backbone = net.backbone`)."""
    ids = {id(v) for v in held if v.__class__ in MOVED_THROUGH}
    if not ids and made is None:
        return
    written, attributes, objects = {}, {}, []
    for key, value in env.items():
        cls = value.__class__
        if key == skip or cls not in _SCANNED and not isinstance(value, DictV):
            continue
        if cls is ModuleV or cls is PlacedV:
            if id(value) in ids or made is not None and cls is ModuleV and value.placed_at is made:
                written[key] = unplaced(value)
        elif cls is ObjectV or cls is SelfV:
            if id(value) in ids:  # (an object moved through: all it holds, also under its own paths)
                objects.append((key, value))
                continue
            for name, v in value.attrs or ():
                if id(v) in ids:
                    attributes[f"{key}.{name}"] = forgotten(v)
        elif any(id(v) in ids for v in held_values(value)):
            written[key] = map_leaves(value, lambda v: forgotten(v) if id(v) in ids else v)
    env.update(written)
    for key, value in attributes.items():  # (a path bound since says what the object holds now)
        if key != skip and key not in env:
            env[key] = value
    for key, value in objects:
        forget_held_by(env, key, value, skip)


def forget_reflected(ev, node) -> None:
    """`node` reads what an object holds by a name or all at once (`getattr(obj, name)`, `vars(obj)`,
    `obj.__dict__`), or an item of a list or dict (`todo.pop()`, `d.get(k)`), and something it gave was
    moved in place: which of its modules moved is not known."""
    if node.__class__ is ast.Call and node.func.__class__ is ast.Name and node.args \
            and (node.func.id == "getattr" and len(node.args) >= 2 or node.func.id == "vars" and len(node.args) == 1):
        holder = node.args[0]
        default = ev.path_of(node.args[2]) if len(node.args) == 3 else None
        if default is not None and default in ev.frame.env:  # `getattr(model, "module", model)`: it may be what moved
            forget_aliases(ev.frame.env, [ev.frame.env[default]])
    elif node.__class__ is ast.Attribute and node.attr == "__dict__":
        holder = node.value
    elif node.__class__ is ast.Call and node.func.__class__ is ast.Attribute:
        container = ev.path_of(node.func.value)  # `todo.pop().cuda()`: one of the list's or dict's items moved
        held = ev.frame.env.get(container) if container is not None else None
        if held.__class__ is SeqV or isinstance(held, DictV):
            forget_aliases(ev.frame.env, held_values(held))
        return
    else:
        return
    path = ev.path_of(holder)
    if path is not None:
        env = ev.frame.env
        forget_held_by(env, path, env[path] if path in env else ev.eval(holder))


def forget_held_by(env: dict, path: str, value: Value, skip: Optional[str] = None) -> None:
    """Whatever the object `value` at `path` holds may have moved in place, which one is not known
    (`getattr(self, name).to(device)`, `for v in vars(self).values(): v.to(device)`): its modules, under
    its attributes and under the paths bound since (`path.model`), are on an unknown device."""
    prefix = path + "."
    moved = {}
    for key, v in env.items():
        if key.startswith(prefix) and v.__class__ in PLACEABLE:
            moved[key] = unplaced(v)
    if value.__class__ is ObjectV or value.__class__ is SelfV:
        for name, v in value.attrs or ():
            key = prefix + name
            if key not in env:
                lost = forgotten(v)
                if lost != v:
                    moved[key] = lost
    if value.__class__ is ModuleV and path != skip:
        moved[path] = unplaced(value)  # (one of its submodules moved: the module as a whole is not in one place)
    moved.pop(skip, None)
    env.update(moved)


def forgotten(value: Value) -> Value:
    """A module, or what an object holds, on an unknown device."""
    return map_leaves(value, unplaced, objects=True)


MOVED_THROUGH = frozenset({ModuleV, PlacedV, ObjectV})  # what a move in place reaches through another name
_SCANNED = MOVED_THROUGH | {SelfV, SeqV}  # (and dicts): what may hold one of them


def unplaced(value: Value) -> Value:
    """A module (or placed object) as a function sees it at its entry when some function moves it."""
    if isinstance(value, PlacedV):
        return ModuleV(None, True, None, None, known_class=False)
    if isinstance(value, ModuleV) and (value.dev is not None or value.placed_at is not None):
        return replace(value, dev=None, placed_at=None)
    return value


def module_functions(tree: ast.Module) -> list:
    """The functions and methods defined by the module's own statements (nested ones are part of these)."""
    return [s for s in _module_statements(tree, into_classes=True) if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]


def _module_statements(tree: ast.Module, into_classes: bool):
    """The statements the module body runs (those of its `if`/`try`/`with`/`for`/`while` blocks too, and
    of its class bodies with `into_classes`), not those of function bodies."""
    stack = list(tree.body)
    while stack:
        stmt = stack.pop()
        yield stmt
        if isinstance(stmt, ast.ClassDef):
            if into_classes:
                stack.extend(stmt.body)
        elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
            stack.extend(stmt.body)
            stack.extend(getattr(stmt, "orelse", ()))
            stack.extend(getattr(stmt, "finalbody", ()))
            for handler in getattr(stmt, "handlers", ()):
                stack.extend(handler.body)


def local_names(func) -> set:
    """Names `func` binds itself (parameters, assignments), less those it declares `global`
    (kept on the node)."""
    known = func.__dict__.get("_tp_local_names")
    if known is None:
        known = func._tp_local_names = _local_names(func)
    return known


def enclosing_reads(func) -> tuple:
    """The names a nested function reads that it does not bind itself (its enclosing scope's
    variables, or globals), sorted (kept on the node)."""
    known = func.__dict__.get("_tp_enclosing_reads")
    if known is None:
        local = local_names(func)
        known = func._tp_enclosing_reads = tuple(sorted({n.id for n in ast.walk(func) if n.__class__ is ast.Name
                                                          and n.ctx.__class__ is ast.Load and n.id not in local}))
    return known


def _local_names(func) -> set:
    args = func.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    declared = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Global):
            declared.update(node.names)
    return names - declared
