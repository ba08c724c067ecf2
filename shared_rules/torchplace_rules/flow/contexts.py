"""The contexts a function body is analysed for, and running a body for one.

*Entry context*: every function and method is analysed once as an entry
point, with what its parameters' names, annotations and defaults say (a
parameter named `device` is the target accelerator, a module's `forward`
gets tensors on the module's device, ...).  *Call context*: a call of a
project function or method binds the parameters to the values the call
passes (defaults for the rest; `*args`/`**kwargs` where they can be bound),
and for a method also the receiver (what the instance holds) and where the
module's parameters are (`self_dev`).  A body is analysed once per distinct
call context; the result — the value returned, what the body did to the
objects it received (a module moved in place, `runner.model = ...`) — is
kept in `ev.contexts`, with what the analysis read and reported, so that a
group reusing it records the same (`Analyzer.run_context`).

Recursion and chains deeper than `MAX_CALL_DEPTH` give an unknown result;
the calling function goes on.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from typing import Optional

from ..foreign_attributes import read_as_another_object
from ..syntax_nodes import access_path, lines_mention, own_nodes, parameter_defaults
from .autograd_functions import bind_ctx, function_entry, takes_ctx
from .class_model import method_nodes, tensor_container_items
from .cross_file import HOME_ATTR, foreign_home, foreign_result, foreign_text, qualified_name, record_outgoing
from .devices import ACCEL_KIND, CPU, RUNTIME, SELF_DEV, SELF_KIND, Dev, parse_device_string
from .instance_branches import kept_plain
from .optimizers import loaded_into, same_optimizer
from .star_arguments import fill_from_star, star_item
from .state import MOVED_THROUGH, PLACEABLE, Frame, enclosing_reads, follow_move, forget_aliases, local_names, moved_containers_in
from .values import (
    NONE, NUMBER, IntV, UNKNOWN, BatchV, DeviceV, DictV, FlagV, FuncV, LoaderV, ModuleV, ObjectV, OptimizerV, ParamsV, PlacedV, QualV, SelfV, SeqV, TensorV, TextV, Value, attrs_get, join_all, map_leaves,
)

MAX_CALL_DEPTH = 4
# Another file's code called with nothing this file knows (unknown arguments) is followed only when it is
# short (a helper: `get_device()`, `load_config()`), two levels deep, once per process for every caller.
GENERIC_DEPTH = MAX_CALL_DEPTH - 2
GENERIC_MAX_LINES = 60


@dataclass
class CallResult:
    returns: Value
    effects: dict  # parameter name -> ((path suffix, value), ...): what the body did to the caller's objects
    assigned: dict = None  # (parameter name, path suffix) -> the statement that set it


# -- the entry context ---------------------------------------------------------------
def analyze_function(ev, node, enclosing: Optional[dict], cls, args: Optional[dict] = None, depth: int = 0):
    """Run the body of function `node` as an entry point (`args`: values to bind instead
    of the entry defaults); the frame it leaves."""
    saved = ev.frame
    env = dict(enclosing) if enclosing is not None and enclosing is not ev.module_env else {}
    kind = "method" if cls is not None else "function"
    ev.frame = Frame(kind, env, node, cls, inline_depth=depth)
    try:
        bind_entry_parameters(ev, node, cls, args)
        ev.exec_body(node.body)
        if cls is not None and node.name == "__init__" and args is None:
            cls.init_values = {k: v for k, v in ev.frame.env.items() if k.startswith("self.")}
            if cls.is_module:
                cls.plain_values = _plain_tensor_attributes(cls, ev.frame)
                ev.emit("init_analysed", cls)
        return ev.frame
    finally:
        ev.frame = saved


def _plain_tensor_attributes(cls, frame) -> dict:
    """`self.x = <a CPU tensor>` in a module's `__init__`, however the tensor is made (a helper
    method, a function, from NumPy), where x is no parameter or buffer: name -> the assignment."""
    out = {}
    for key, value in frame.env.items():
        name = key[5:]
        if value.__class__ is SeqV and isinstance(value.element(), ModuleV) and name not in cls.plain_module_lists \
                and name not in cls.wrapped_lists:
            stmt = frame.assigned.get(key)
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute) \
                    and value.element().has_params and not _aliases_of_attributes(stmt.value) \
                    and not _filled_with_attributes(frame.func, name, stmt.value):
                # (parameter-free modules have nothing to move, train or save; `[self.b1, self.b2]`
                # lists modules registered as attributes: `.to()` and `state_dict()` see them there)
                cls.plain_module_lists[name] = stmt  # modules in a plain list, however it was built
            continue
        items = tensor_container_items(value) if key.startswith("self.") and "." not in name and "[" not in name else ()
        if items:
            stmt = frame.assigned.get(key)
            if any(v.dev.is_cpu for v in items) \
                    and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute):
                out[name] = stmt
                cls.plain_containers.add(name)
            continue
        stmt = _plain_cpu_tensor(cls, frame, key, value)
        if stmt is not None:
            out[name] = stmt
    return out


def _plain_cpu_tensor(cls, frame, key: str, value: Value) -> Optional[ast.Assign]:
    """The statement `self.x = <a CPU tensor>` that left `value` at `key` ("self.x"), where x is no
    parameter, buffer, submodule or tensor the class scan saw, and the tensor is not 0-dim."""
    name = key[5:]
    if value.__class__ is not TensorV or value.dev is None or not value.dev.is_cpu or value.rank == 0 \
            or value.grad or "." in name or "[" in name or value.plain_attr is not None:
        return None  # (a tensor that requires grad may be an nn.Parameter the scan could not see)
    if name in cls.params or name in cls.buffers or name in cls.submodules or name in cls.plain_tensors:
        return None
    stmt = frame.assigned.get(key)
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute):
        return stmt
    return None


def _context_cpu_attributes(ev, cls, frame) -> dict:
    """`_plain_tensor_attributes` of a module's `__init__` run for one call (`Block(x_example)`: the
    tensors it keeps are made where the argument is; `Gate(learn=False)`: the branch that keeps a
    tensor plain where another registers it), without what the class records for every instance
    (its plain lists of modules, its containers)."""
    out = {}
    for key, value in frame.env.items():
        if key.startswith("self.") and value.__class__ is TensorV:
            stmt = _plain_cpu_tensor(cls, frame, key, value) or kept_plain(ev, cls, key[5:], value)
            if stmt is not None:
                out[key[5:]] = stmt
    return out


def _aliases_of_attributes(value: ast.AST) -> bool:
    """`[self.b1, self.b2]`: a list of modules the instance already holds (registered as attributes)."""
    return isinstance(value, (ast.List, ast.Tuple)) and bool(value.elts) and all(
        isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name) and e.value.id == "self" for e in value.elts)


def _filled_with_attributes(init: Optional[ast.AST], name: str, value: ast.AST) -> bool:
    """`self.rnns = []` then only `self.rnns.append(self.rnn)` in `__init__`: the list aliases modules
    the instance holds as attributes (to call `flatten_parameters()` on them), like `[self.b1, self.b2]`.
    Not where an append runs in a loop: `self.rnn` re-bound on each pass leaves only the last one registered."""
    if init is None or not (isinstance(value, ast.List) and not value.elts):
        return False
    in_loops = {id(n) for loop in ast.walk(init) if isinstance(loop, (ast.For, ast.While, ast.comprehension))
                for n in ast.walk(loop)}
    added = []
    for node in ast.walk(init):
        if isinstance(node, ast.AugAssign) and access_path(node.target) == "self." + name:
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and access_path(node.func.value) == "self." + name and node.func.attr in ("append", "extend", "insert", "__setitem__"):
            if node.func.attr != "append" or len(node.args) != 1 or node.keywords or id(node) in in_loops:
                return False
            added.append(node.args[0])
    return bool(added) and _aliases_of_attributes(ast.List(elts=added))


def bind_entry_parameters(ev, node, cls, args: Optional[dict]) -> None:
    a = node.args
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    params = list(zip(positional, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))
    is_method = cls is not None and not _is_static(node)
    autograd = args is None and function_entry(node, cls)  # (autograd runs it on the caller's tensors)
    for i, (arg, default) in enumerate(params):
        name = arg.arg
        if args is not None and name in args:
            value = args[name]
        elif i == 0 and is_method and name in ("self", "cls"):
            value = SelfV(cls, id(cls.node)) if name == "self" else UNKNOWN
        elif autograd and i == 0 and takes_ctx(node, cls):
            value = UNKNOWN
            bind_ctx(ev.frame.env, name)
        elif autograd:
            value = _call_input(arg, default, node) or UNKNOWN
        else:
            value = entry_parameter_value(ev, arg, default, cls, node)
        ev.frame.env[name] = value
    for extra in (a.vararg, a.kwarg):
        if extra is not None:
            ev.frame.env[extra.arg] = UNKNOWN


def entry_parameter_value(ev, arg: ast.arg, default, cls, func) -> Value:
    """What a parameter is when nothing says what a caller passes."""
    name = arg.arg
    if name in ev.device_names:
        if isinstance(default, ast.Constant) and default.value in ("cpu", None):
            return UNKNOWN
        if cls is not None and cls.is_module:
            return DeviceV(Dev(SELF_DEV.kind, SELF_DEV.label, name, arg))  # the caller passes the module's device
        ev.targets_accelerator = True
        return DeviceV(Dev("accel", "target", name, arg, assumed=True))
    if cls is not None and cls.is_module and func.name in MODULE_CALL_ENTRIES:
        value = _call_input(arg, default, func)
        if value is not None:
            return value
    elif cls is not None and cls.is_module and _annotated_tensor(arg.annotation):
        return TensorV(SELF_DEV, origin=arg)
    if name.endswith("loader") and arg.annotation is None and default is None:
        return LoaderV(False, CPU, arg)
    return UNKNOWN


def _call_input(arg: ast.arg, default, func):
    """A parameter of forward (or of a custom autograd function's forward/backward) as an input of the
    call: a tensor on the module's device unless its name or annotation says otherwise, or the body reads
    it as another object (`graph.x`, `batch.edge_index`: UNKNOWN); None: not known."""
    if _annotated_tensor(arg.annotation):
        return TensorV(SELF_DEV, origin=arg)
    if arg.annotation is None and default is None and not _NOT_A_TENSOR.search(arg.arg):
        return UNKNOWN if read_as_another_object(func, arg.arg) else TensorV(SELF_DEV, origin=arg)
    if isinstance(default, ast.Constant) and default.value is None:
        # optional state (`h=None`, not annotated a tensor): the default path, a caller that passes none
        # (None joins as the value a branch gives it: `if h is None: h = torch.zeros(...)`)
        return NONE
    return None


# forward's parameters are taken as tensors on the module's device, except those whose names say
# they are sizes, counts, flags or options; so are those of a `__call__` a module class defines
# in place of nn.Module's (`loss(y, y_hat)` runs it: its arguments are the call's inputs)
MODULE_CALL_ENTRIES = ("forward", "__call__")
_NOT_A_TENSOR = re.compile(r"size|shape|dim|num_|^n_|len|count|mode|^use_|^is_|^return_|^output_|kwargs|args$")


def _is_static(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod",) for d in node.decorator_list)


def _annotated_tensor(annotation) -> bool:
    """`x: Tensor`, `x: Optional[torch.Tensor]` (not `list[Tensor]`).  Kept on the annotation node
    (a method is entered once per context)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Name):
        return "Tensor" in annotation.id
    known = annotation.__dict__.get("_tp_tensor_annotation")
    if known is None:
        known = annotation._tp_tensor_annotation = _tensor_annotation(annotation)
    return known


def _tensor_annotation(annotation) -> bool:
    """What the annotation's source text says: it names a Tensor, bare or in one `Optional[...]`.
    Dotted names, `a | b | None` of them and `Optional[<dotted name>]` (most annotations) are read
    from the tree; ast.unparse, for the others, was 1.5 % of a cross-file run."""
    text = _dotted(annotation)
    if text is not None:
        return "Tensor" in text
    if annotation.__class__ is ast.BinOp and annotation.op.__class__ is ast.BitOr:
        leaves = _union_leaves(annotation)
        if leaves is not None:
            return any("Tensor" in leaf for leaf in leaves)
    if annotation.__class__ is ast.Subscript and annotation.value.__class__ is ast.Name and annotation.value.id == "Optional":
        text = _dotted(annotation.slice)
        if text is not None:
            return "Tensor" in text
    text = ast.unparse(annotation)
    if text.startswith("Union[") and text.endswith(", None]") and "," not in text[6:-7]:
        text = text[6:-7]  # `Union[Tensor, None]` is `Optional[Tensor]`
    return "Tensor" in text and "[" not in text.replace("Optional[", "").replace("]", "", 1)


def _union_leaves(node) -> Optional[list]:
    """The dotted names of `a | b.c | None` (None: a part that is something else)."""
    if node.__class__ is ast.BinOp and node.op.__class__ is ast.BitOr:
        left, right = _union_leaves(node.left), _union_leaves(node.right)
        return left + right if left is not None and right is not None else None
    if node.__class__ is ast.Constant and node.value is None:
        return []
    text = _dotted(node)
    return [text] if text is not None else None


def _dotted(node) -> Optional[str]:
    """`a.b.c` for a name or a chain of attributes of one (None for anything else)."""
    path = access_path(node)
    return path if path is not None and "[" not in path else None


# -- call contexts -------------------------------------------------------------------
def bind_arguments(fnode, arg_nodes: list, args: list, kwargs: dict, first: Optional[Value] = None,
                   keywords: tuple = ()) -> Optional[dict]:
    """Parameter name -> value for a call of `fnode` (`first`: the receiver bound to `self`/`cls`);
    None when the call cannot match the signature.  Parameters the call may have passed
    through an unknown `*seq` or `**mapping` are unknown; the others get their defaults.  An int
    literal among the arguments (`arg_nodes`, the call's `keywords`) or defaults is bound as that
    int (`IntV`) where a test of `fnode` reads the parameter, as flags and strings are."""
    a = fnode.args
    names, kwonly, defaults = _signature(fnode)
    positional, known, star = [] if first is None else [first], True, None
    for i, (arg_node, value) in enumerate(zip(arg_nodes, args)):
        if arg_node.__class__ is ast.Starred:
            if isinstance(value, SeqV) and value.items is not None:
                positional.extend(value.items)
                continue
            known, star = False, star_item(arg_nodes, value, i)
            break
        if value is NUMBER and arg_node.__class__ is ast.Constant and arg_node.value.__class__ is int:
            value = IntV(arg_node.value)  # (kept below only where a test reads the parameter)
        positional.append(value)
    bound = dict(zip(names, positional))
    if star is not None:
        fill_from_star(names, bound, defaults, star)
    extra = positional[len(names):]
    if extra:
        if a.vararg is None:
            return None
        extra = [NUMBER if v.__class__ is IntV else v for v in extra]
    passed = []
    for key, value in kwargs.items():
        if key.startswith("**"):
            if isinstance(value, DictV) and value.items is not None:
                passed.extend(value.items)
            else:
                known = False
            continue
        passed.append((key, value))
    kw_extra = []
    for key, value in passed:
        if key in names or key in kwonly:
            bound[key] = _exact_keyword(keywords, key) if value is NUMBER and keywords else value
        elif a.kwarg is not None:
            kw_extra.append((key, value))
        else:
            return None
    for name in names + kwonly:
        if name not in bound:
            bound[name] = default_value(defaults[name]) if known and name in defaults else UNKNOWN
            if bound[name].__class__ is TextV and name not in _tested_flags(fnode) and name not in _handed_on(fnode):
                bound[name] = UNKNOWN
            elif bound[name] is NUMBER and defaults[name].__class__ is ast.Constant \
                    and defaults[name].value.__class__ is int and name in _int_tests(fnode):
                bound[name] = IntV(defaults[name].value)  # (`num_gpus=1` ... `if num_gpus == 1:`)
        elif bound[name].__class__ is FlagV and name not in _tested_flags(fnode) and not _flag_for_self(fnode, name, bound):
            bound[name] = UNKNOWN  # a flag no test here reads (`bias=True`): the contexts stay one
        elif bound[name].__class__ is TextV and name not in _tested_flags(fnode) and name not in _handed_on(fnode):
            bound[name] = UNKNOWN  # a string no test here reads, nor a call it makes (`mode="bilinear"`): the same
        elif bound[name].__class__ is IntV and name not in _int_tests(fnode):
            bound[name] = NUMBER  # an int no test here reads (`dim=4`): the same
    if a.vararg is not None:
        bound[a.vararg.arg] = SeqV(tuple(extra)) if known else SeqV(None, UNKNOWN)
    if a.kwarg is not None:
        bound[a.kwarg.arg] = DictV(join_all(v for _, v in kw_extra), tuple(kw_extra)) if known else UNKNOWN
    return bound


def _int_tests(fnode) -> frozenset:
    """The names (and attribute paths) an `if` or `while` test of `fnode`'s own statements reads,
    directly or through the name or attribute they are bound to (`use_gpu = num_gpus` ... `if use_gpu:`):
    the parameters an int argument can decide.  Statements only (cheaper than `_tested_flags`: a
    test inside an expression is not looked for), nested functions and classes left out; memoised."""
    known = fnode.__dict__.get("_tp_int_tests")
    if known is None:
        tested, aliases, todo = set(), [], list(fnode.body)
        while todo:
            stmt = todo.pop()
            cls = stmt.__class__
            if cls is ast.If or cls is ast.While:
                tested.update(path for sub in ast.walk(stmt.test) if (path := access_path(sub)) is not None)
            elif cls is ast.Assign and stmt.value.__class__ is ast.Name:
                aliases.extend((stmt.value.id, access_path(t)) for t in stmt.targets)
            elif cls is ast.FunctionDef or cls is ast.AsyncFunctionDef or cls is ast.ClassDef:
                continue
            for field in _BLOCKS:
                todo.extend(getattr(stmt, field, ()))
        tested.update(name for name, path in aliases if path in tested)
        known = fnode._tp_int_tests = frozenset(tested)
    return known


_BLOCKS = ("body", "orelse", "finalbody", "handlers")


def _exact_keyword(keywords, key: str) -> Value:
    """`f(num_gpus=1)`: the int a keyword argument of the call is, where it is a literal (else a number)."""
    for k in keywords:
        if k.arg == key:
            return IntV(k.value.value) if k.value.__class__ is ast.Constant and k.value.value.__class__ is int else NUMBER
    return NUMBER


def _tested_flags(fnode) -> frozenset:
    """The names a test of `fnode` reads (`if cuda:`), directly or through the name or attribute they
    are bound to (`self.on_gpu = on_gpu` ... `if self.on_gpu:`): the parameters whose flag can decide
    a branch.  Memoised on the node."""
    known = fnode.__dict__.get("_tp_tested_flags")
    if known is None:
        tested, aliases = set(), []
        for node in own_nodes(fnode):
            cls = node.__class__
            if cls is ast.If or cls is ast.While or cls is ast.IfExp:
                tested.update(path for sub in ast.walk(node.test) if (path := access_path(sub)) is not None)
            elif cls is ast.Assign and node.value.__class__ is ast.Name:
                aliases.extend((node.value.id, access_path(t)) for t in node.targets)
        tested.update(name for name, path in aliases if path in tested)
        known = fnode._tp_tested_flags = frozenset(tested)
    return known


def _handed_on(fnode) -> frozenset:
    """The names `fnode` passes as they are to a call (`resolve_device(device=preferred_device)`,
    `super().__init__(mode)`): a string parameter that may decide a test of the callee.  Memoised
    on the node."""
    known = fnode.__dict__.get("_tp_handed_on")
    if known is None:
        handed = set()
        for node in own_nodes(fnode):
            if node.__class__ is ast.Call:
                handed.update(a.id for a in node.args if a.__class__ is ast.Name)
                handed.update(k.value.id for k in node.keywords if k.value.__class__ is ast.Name)
        known = fnode._tp_handed_on = frozenset(handed)
    return known


def _flag_for_self(fnode, name: str, bound: dict) -> bool:
    """Does a flag parameter of a method reach a test of its instance's methods: handed on to the
    class's own methods (`RNN.__init__(self, on_gpu=on_gpu)`, `super().__init__(...)`, `self.build(on_gpu)`),
    or stored on `self` (`self.on_gpu = on_gpu`) where a method the constructor (or this method) calls
    on `self` tests it (`build()`: `if self.on_gpu: self.cuda()`)?  Asked only for a flag argument."""
    handed, stored = _self_flag_uses(fnode)
    if name in handed:
        return True
    attrs = stored.get(name)
    if not attrs:
        return False
    receiver = bound.get(fnode.args.args[0].arg) if fnode.args.args else None
    return receiver.__class__ is SelfV and not attrs.isdisjoint(_self_tests(receiver.info, fnode))


def _self_flag_uses(fnode) -> tuple:
    """(the parameters `fnode` hands on to its class's own methods, parameter -> the attributes of
    `self` it is stored as).  Memoised on the node."""
    known = fnode.__dict__.get("_tp_self_flag_uses")
    if known is None:
        a = fnode.args
        me = a.args[0].arg if a.args else None
        params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        handed, stored = set(), {}
        for node in own_nodes(fnode):
            cls = node.__class__
            if cls is ast.Call and node.func.__class__ is ast.Attribute and _own_method_call(node.func, me):
                handed.update(arg.id for arg in node.args if arg.__class__ is ast.Name)
                handed.update(k.value.id for k in node.keywords if k.value.__class__ is ast.Name)
            elif cls is ast.Assign and node.value.__class__ is ast.Name and node.value.id in params:
                for target in node.targets:
                    if target.__class__ is ast.Attribute and target.value.__class__ is ast.Name and target.value.id == me:
                        stored.setdefault(node.value.id, set()).add(target.attr)
        known = fnode._tp_self_flag_uses = (frozenset(handed & params), stored)
    return known


def _own_method_call(func: ast.Attribute, me: Optional[str]) -> bool:
    """`self.m(...)`, `super().m(...)`, `Base.__init__(self, ...)`."""
    owner = func.value
    if owner.__class__ is ast.Name:
        return owner.id == me or func.attr == "__init__"
    return owner.__class__ is ast.Call and owner.func.__class__ is ast.Name and owner.func.id == "super"


def _self_tests(info, fnode) -> set:
    """The attributes of `self` tested (`if self.on_gpu:`) in `fnode` and the methods it calls on
    `self`, and, for an `__init__`, in every `__init__` of the class and its bases and what they call
    on `self` (the constructor a subclass's `__init__` runs first).  Kept with the class, by method node
    (the class holds its and its bases' nodes: no cycle, no stale key)."""
    memo = info.__dict__.get("_self_tests")
    if memo is None:
        memo = info.__dict__["_self_tests"] = {}
    known = memo.get(fnode)
    if known is not None:
        return known
    todo = [fnode]
    if fnode.name == "__init__":
        todo.extend(m for cls in info.mro() if (m := cls.methods.get("__init__")) is not None)
    done, attrs = set(), set()
    while todo and len(done) < 24:
        method = todo.pop()
        if id(method) in done:
            continue
        done.add(id(method))
        me = method.args.args[0].arg if method.args.args else None
        if me is None:
            continue
        prefix = me + "."
        attrs.update(path[len(prefix):] for path in _tested_flags(method) if path.startswith(prefix))
        for name in method_nodes(method).self_calls:
            found = info.find_method(name)
            if found is not None:
                todo.append(found[0])
    memo[fnode] = attrs
    return attrs


def _signature(fnode) -> tuple:
    """(positional parameter names, keyword-only names, name -> default node) of `fnode`; memoised
    on the node (read, never changed, by `bind_arguments`)."""
    known = fnode.__dict__.get("_tp_signature")
    if known is None:
        a = fnode.args
        known = fnode._tp_signature = ([p.arg for p in a.posonlyargs + a.args], [p.arg for p in a.kwonlyargs],
                                       parameter_defaults(fnode))
    return known


def default_value(node: ast.AST) -> Value:
    """A parameter's default, where its value matters to devices: None, a device string, a number
    (`num_classes=3`: `torch.ones(num_classes)` is a vector)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand  # `-1`
        return NUMBER if _is_number(node) else UNKNOWN
    if isinstance(node, ast.Constant):
        if node.value is None:
            return NONE
        if _is_number(node):
            return NUMBER
        if node.value.__class__ is str:
            dev = parse_device_string(node.value, node)
            return DeviceV(dev, True, node.value) if dev is not None else TextV(node.value) if len(node.value) <= 40 else UNKNOWN
    return UNKNOWN


def _is_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool)


def context_key(fnode, bound: dict, self_dev: Optional[Dev]) -> Optional["ContextKey"]:
    """What makes two calls the same context (values compare without their origins;
    modules and objects also by their class)."""
    try:
        # (sorted by name: the names of one call are distinct; strings sort faster than tuples)
        items = tuple([(name, bound[name], _identity(bound[name])) for name in sorted(bound)])
        return ContextKey((id(fnode), items, self_dev))
    except TypeError:
        return None


class ContextKey:
    """A context's key, hashed once: the values hash their fields in Python, and a key is looked
    up, then stored."""
    __slots__ = ("parts", "_hash")

    def __init__(self, parts: tuple) -> None:
        self.parts = parts
        self._hash = hash(parts)  # (TypeError: a value that cannot be part of a key)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        return isinstance(other, ContextKey) and self.parts == other.parts


def _identity(value: Value):
    if value.__class__ in (ModuleV, ObjectV, SelfV):
        cls = value.cls if isinstance(value, ModuleV) else value.info
        return id(cls)
    return 0


def call_in_context(ev, func, cls, bound: dict, node: ast.Call, self_dev: Optional[Dev],
                    own_object: bool = False) -> Optional[CallResult]:
    """Analyse `func` (a FuncV) for the context `bound` (kept per distinct context); None when the
    call is not followed (recursion, too deep).  `own_object`: a method called on the caller's own
    `self` (`self.post_init()`, `super().__init__()`)."""
    fnode = func.node
    if id(fnode) in ev.active_calls or isinstance(fnode, ast.AsyncFunctionDef) or ev.frame.inline_depth >= MAX_CALL_DEPTH and (
            fnode.name != "<lambda>" or ev.frame.inline_depth > MAX_CALL_DEPTH):
        return None  # (a lambda, one expression, is followed one call deeper: `map(lambda t: t.view(...), (q, k))`)
    if ev.outgoing is not None:
        record_outgoing(ev, func, cls, bound, self_dev, node)
    # (what the program rebound in a project module, `flair.device = ...`, is this file's: not shared)
    shared = _generic_cache(func, cls, bound, self_dev, own_object) if ev.module_writes is None else None
    if shared is not None:  # nothing of this file goes in: the result is the same for every caller
        if fnode.end_lineno - fnode.lineno > GENERIC_MAX_LINES:
            return None
        cache, bound, depth = shared, _generic_bound(bound, cls), GENERIC_DEPTH
    else:
        cache, depth = ev.contexts, ev.frame.inline_depth + 1
        held = moved_globals_held(ev, fnode)
        if held:
            bound = {**held, **bound}  # (a parameter of the same name is the parameter)
    key = context_key(fnode, _with_enclosing_values(ev, func, bound), self_dev)
    kept = cache.get(key) if key is not None else None
    if kept is not None:
        result, record = kept
        ev.replay_context(record)
        return result
    result, record = ev.run_context(lambda: _run_body(ev, func, cls, bound, node, self_dev, depth),
                                    shared=cache is not ev.contexts)
    if key is not None:
        cache[key] = (result, record)
    return result


def _with_enclosing_values(ev, func, bound: dict) -> dict:
    """A nested function's context is also what it reads from the scope it runs in (`def to(x): return
    x.to(device)` inside `make(device)`): two calls of it with the same arguments differ where that
    scope does (each name under a key no parameter can have)."""
    if func.closure is None:
        return bound
    scope = ev.frame.env if func.scope is ev.frame.func else func.closure
    outer = {" " + name: scope[name] for name in enclosing_reads(func.node) if name in scope}
    return {**bound, **outer} if outer else bound


def moved_globals_held(ev, fnode) -> dict:
    """For a call of a function of this file: the modules of `globals_moved_in_functions` as the
    caller holds them now (`train()` moved `model`, then calls `evaluate()`, which reads `model`).
    The callee reads the same object: it runs with these values (and is kept per value)."""
    if ev.module_env is not ev.own_env or foreign_home(fnode) is not None:
        return {}
    frame = ev.frame
    env = frame.env
    held = {name: env[name] for name in ev.move_roots() if env.get(name).__class__ in MOVED_THROUGH}
    if held:
        moved = ev.moved_globals()
        held = {name: value for name, value in held.items() if name in moved}
    held.update(moved_containers_in(ev, env))  # (`nets = {...}`, whose items a function moves: `nets[k].to(device)`)
    if held and frame.kind != "module" and frame.func is not None:
        own = local_names(frame.func)
        held = {name: value for name, value in held.items() if name not in own}
    return held


def _generic_cache(func, cls, bound: dict, self_dev, own_object: bool) -> Optional[dict]:
    """For a call into another file's code whose arguments are nothing this file knows (unknown
    values; a method of a base class called on the caller's own object is taken as that class
    knows it): the cache kept with that file's summary, shared by every checked file."""
    home = func.home if func.home is not None else getattr(cls, "home", None)
    if home is None or self_dev is not None:
        return None
    if all(_uninformative(v) or own_object and isinstance(v, SelfV) and not _holds_placement(v, func.node)
           for v in bound.values()):
        return home.generic_contexts
    return None


def _holds_placement(receiver: SelfV, method) -> bool:
    """Does the caller's own object hold a device, or a module or tensor on an accelerator (`self.device
    = options["device"]` in `__init__`, then `self.build()`), or a flag the caller bound that `method`
    (or what it calls on `self`) tests (`self.on_gpu = on_gpu`, then `self.build()`)?  What the method
    does with it is this caller's, not what the class knows.  (A held flag nothing there tests, such
    as `self.gradient_checkpointing = False` before `self.post_init()`, changes nothing in the call.)"""
    tested = None
    for name, v in receiver.attrs or ():
        if isinstance(v, DeviceV) and v.dev.kind == ACCEL_KIND \
                or isinstance(v, (ModuleV, TensorV)) and v.dev is not None and v.dev.kind == ACCEL_KIND:
            return True
        if v.__class__ is FlagV and v.held:
            tested = _self_tests(receiver.info, method) if tested is None else tested
            if name in tested:
                return True
    return False


def _uninformative(value: Value, depth: int = 0) -> bool:
    """Nothing the checked file knows: unknown values, numbers, None, flags (`True`: the key tells
    them apart), library objects, `self`."""
    if value is UNKNOWN or value is NUMBER or value is NONE or value.__class__ is FlagV or value.__class__ is TextV or value.__class__ is IntV \
            or isinstance(value, QualV):
        return True
    if isinstance(value, SelfV):
        return not value.attrs
    if isinstance(value, SeqV) and depth < 2:
        return all(_uninformative(v, depth + 1) for v in (value.items if value.items is not None else (value.elem,)))
    if isinstance(value, DictV) and depth < 2:
        return all(_uninformative(v, depth + 1) for v in ((v for _, v in value.items) if value.items is not None else (value.elem,)))
    return False


def _generic_bound(bound: dict, cls) -> dict:
    """`self` as the defining class sees it, whatever subclass the caller has."""
    return {name: SelfV(cls, id(cls.node)) if isinstance(value, SelfV) and cls is not None else value
            for name, value in bound.items()}


def run_incoming(ev, func, cls) -> None:
    """Analyse a function of the checked file for what other files' calls pass it."""
    fnode = func.node
    a = fnode.args
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs} | {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    for call in ev.incoming.get(qualified_name(fnode, cls), ()):
        bound = dict(call.bound)
        if set(bound) == names and call.writes:
            # (the importer rebound a project module's global before the call: this context reads it, its
            # own cache of contexts too)
            saved = ev.module_writes, ev.contexts
            ev.module_writes, ev.contexts = dict(call.writes), {}
            try:
                call_in_context(ev, func, cls, bound, replace(call, callee=fnode), call.self_dev)
            finally:
                ev.module_writes, ev.contexts = saved
        elif set(bound) == names:
            call_in_context(ev, func, cls, bound, replace(call, callee=fnode), call.self_dev)


def _run_body(ev, func, cls, bound: dict, node: ast.Call, self_dev: Optional[Dev], depth: int) -> CallResult:
    fnode = func.node
    home = func.home if func.home is not None else getattr(cls, "home", None)
    closure = func.closure
    scope = ev.frame.env if closure is not None and func.scope is ev.frame.func else closure
    env = dict(scope) if scope else {}
    env.update(bound)
    frame = Frame("method" if cls is not None else "function", env, fnode, cls,
                  inline_depth=depth, call_site=node, self_dev=self_dev, caller_cls=ev.frame.cls)
    saved_frame, saved_module, saved_own, saved_src, saved_home = ev.frame, ev.module_env, ev.own_env, ev.src, ev.home
    if home is not None:  # another file's code runs with that file's globals and text, and reports nothing
        ev.module_env, ev.src, ev.home = home.env, foreign_text(ev, home), home
        ev.foreign_depth += 1
    elif saved_frame.kind == "module" and saved_module is saved_own and saved_frame.env is not saved_own:
        # called from module code after an `if`/`for`/`try`, which left the module's names in a new dict
        ev.module_env = ev.own_env = saved_frame.env
    ev.active_calls.add(id(fnode))
    ev.call_sites.append(node)
    ev.frame = frame
    try:
        completed = ev.exec_body(fnode.body)
        if home is None and cls is not None and cls.is_module and fnode.name == "__init__":
            attrs = _context_cpu_attributes(ev, cls, frame)
            if attrs:
                ev.emit("init_context", cls, attrs)
    finally:
        ev.frame = saved_frame
        ev.call_sites.pop()
        ev.active_calls.discard(id(fnode))
        ev.module_env, ev.own_env = saved_module, saved_own
        if home is not None:
            ev.src, ev.home = saved_src, saved_home
            ev.foreign_depth -= 1
    own_home = foreign_home(fnode)  # (the text of the file the node is in)
    if is_generator(fnode, own_home.src if own_home is not None else ev.file_src):
        returns = SeqV(None, frame.yields if frame.yields is not None else UNKNOWN)
    else:
        returns = frame.returns
        if completed:
            returns = NONE if returns is None else returns.join(NONE)
        elif returns is None:
            returns = UNKNOWN
    if home is not None:
        returns = foreign_result(returns)
    effects = _effects(frame.env, bound, frame.released, fnode)
    assigned = {(name, key[len(name):]): stmt for key, stmt in frame.assigned.items()
                for name in effects if key.startswith(name) and key[len(name):len(name) + 1] in (".", "[")}
    return CallResult(returns, effects, assigned)


def _effects(exit_env: dict, bound: dict, released: set = frozenset(), fnode=None) -> dict:
    """What the body left in the objects the caller passed: a module moved in place, and
    attributes and items it set (`self.cache = ...`, `runner.model = ...`, `batch["x"] = ...`).
    A placed module the body handed (under its parameter's name) to a callee that may move it
    (`released`: `model = accelerator.prepare(model)`), or whose name the body re-binds to an
    object made without it (`replaced_parameters` of `fnode`: `model = nn.Linear(3, 3).cuda()`), is
    no longer in a known place, whatever the name holds at the end."""
    effects = {}
    for name, entry in bound.items():
        after = exit_env.get(name)
        if name in released and (entry.__class__ is SeqV or isinstance(entry, DictV)):
            # a loop that moved what it holds (`for m in modules: m.to(device)`, `modules[0].cuda()`): the
            # caller's container, and the modules it holds under other names, are on an unknown device
            effects[name] = ITEMS_MOVED
            continue
        if after is not entry and (entry.__class__ is SeqV or isinstance(entry, DictV)) and fnode is not None \
                and name not in parameter_names(fnode):
            # a module-level list or dict handed as the caller holds it (`moved_globals_held`): the body
            # moved or stored its items (the body cannot re-bind the caller's name without `global`)
            effects[name] = (("", after if after is not None else UNKNOWN),)
            continue
        if not isinstance(entry, (ModuleV, PlacedV, ObjectV, SelfV, DictV, BatchV, OptimizerV)) and entry is not UNKNOWN:
            continue
        changes = []
        if after is not entry:
            # (another module the body made under the name: not the caller's, which it may have moved first)
            replaced = after.__class__ in PLACEABLE and entry.__class__ in PLACEABLE \
                and fnode is not None and name in replaced_parameters(fnode)
            if not replaced and (isinstance(after, (ModuleV, PlacedV)) or same_optimizer(entry, after)) and after != entry:
                # Module.to() moves in place (and returns the module); the optimizer passed, with a state the
                # callee loaded or touched
                changes.append(("", after))
            else:
                if (replaced or name in released) and isinstance(entry, PLACEABLE) and entry.dev is not None:
                    effects[name] = (("", replace(entry, dev=None) if isinstance(entry, ModuleV) else UNKNOWN),)
                elif (after is UNKNOWN and isinstance(entry, (DictV, BatchV)) or isinstance(after, DictV)) \
                        and fnode is not None and name in parameters_stored_into(fnode):
                    # never re-bound, and items stored into it (`for k, t in batch.items(): batch[k] =
                    # t.to(device)`, which leaves a dict of what it stored, whatever the caller passed):
                    # the caller's container holds them too
                    effects[name] = (("", after),)
                continue  # the name was rebound: what follows is not the caller's object
        for key, value in exit_env.items():
            if len(key) > len(name) and name in key and key.startswith(name) and key[len(name)] in ".[":
                changes.append((key[len(name):], value))
        if changes:
            effects[name] = tuple(changes)
    return effects


def _held_at(env: dict, path: str, suffix: str, entry: Optional[Value] = None) -> Optional[Value]:
    """What the caller holds at `path + suffix` before a call's effect is written there: the path's own
    binding, or the attribute of the object at `path` (`.model` of `t`; `entry`: the object the call was
    handed, where `path` binds nothing of its own: `holders["a"]`)."""
    found = env.get(path + suffix)
    if found is None and suffix.count(".") == 1 and suffix.startswith(".") and "[" not in suffix:
        owner = env.get(path, entry)
        if owner.__class__ is ObjectV or owner.__class__ is SelfV:
            found = attrs_get(owner.attrs, suffix[1:])
    return found


ITEMS_MOVED = (("", UNKNOWN),)  # the effect of a body that moved what a list or dict passed to it holds


def apply_effects(ev, effects: dict, paths: dict, assigned: Optional[dict] = None, entries: Optional[dict] = None) -> None:
    """Write a call's effects into the caller's environment (`paths`: parameter -> the caller's access path;
    `entries`: parameter -> what the call handed it)."""
    env = ev.frame.env
    keyed = ev.frame.keyed
    for name, changes in effects.items():
        path = paths.get(name)
        if path is None:
            continue
        for suffix, value in changes:
            if keyed is not None or "[<" in suffix:
                # An item the callee stored under a name of its own (`d[<j>]`) may be any item; what this
                # scope stored under its names in a container the callee changed is not known now
                stale = path + suffix.partition("[<")[0]
                for k in [k for k in env if k.startswith(stale) and "[<" in k[len(stale):]]:
                    del env[k]
                if "[<" in suffix:
                    continue
            if value.__class__ is OptimizerV:
                value = loaded_into(env.get(path + suffix), value)
            elif value.__class__ in (ModuleV, PlacedV):
                if not suffix and getattr(env.get(path), "dev", None) != value.dev:
                    follow_move(ev, path, value.dev, None)  # (a module the callee moved: its optimizers' parameters)
                before = _held_at(env, path, suffix, entries.get(name) if entries is not None else None)
                if before is not value and before.__class__ in (ModuleV, PlacedV) and before.dev != value.dev:
                    forget_aliases(env, [before], path + suffix)  # (`t.setup()` moved `t.model`, which is `model`)
                owner = env.get(path) if suffix.rfind(".") == 0 else None
                if owner.__class__ is ModuleV and owner.dev is not None and owner.dev != value.dev:
                    # `m.set_device(0)` re-bound `self.emb = self.emb.cuda(gpu)`: a submodule is elsewhere than
                    # the rest, so no one device holds the whole module
                    env[path] = replace(owner, dev=None)
            env[path + suffix] = value
            stmt = assigned.get((name, suffix)) if assigned else None
            if stmt is not None:
                ev.frame.assigned[path + suffix] = stmt


def argument_paths(ev, fnode, arg_nodes: list, keywords: list, first_path: Optional[str] = None,
                   has_first: bool = False) -> dict:
    """Parameter -> the caller's access path of the argument passed for it (where effects go)."""
    names = [p.arg for p in fnode.args.posonlyargs + fnode.args.args]
    paths = {}
    offset = 1 if has_first else 0
    if first_path is not None and names:
        paths[names[0]] = first_path
    for i, arg in enumerate(arg_nodes):
        if isinstance(arg, ast.Starred):
            break
        if i + offset < len(names) and arg is not None:
            path = ev.path_of(arg)
            if path is not None:
                paths[names[i + offset]] = path
    for k in keywords:
        if k.arg is not None:
            path = ev.path_of(k.value)
            if path is not None:
                paths[k.arg] = path
    return paths


def lambda_function(node: ast.Lambda) -> ast.FunctionDef:
    """`lambda args: body` as the function `def <lambda>(args): return body`, made once per node
    (its positions and file are the lambda's, its body the lambda's own nodes)."""
    fnode = getattr(node, "_tp_def", None)
    if fnode is None:
        ret = ast.Return(value=node.body)
        fnode = ast.FunctionDef(name="<lambda>", args=node.args, body=[ret], decorator_list=[], returns=None,
                                type_comment=None)
        home = getattr(node, HOME_ATTR, None)
        for made in (ret, fnode):
            ast.copy_location(made, node)
            made.end_lineno, made.end_col_offset = node.end_lineno, node.end_col_offset
            if home is not None:
                setattr(made, HOME_ATTR, home)
        fnode._tp_is_generator = False
        node._tp_def = fnode
    return fnode


def is_generator(fnode, src) -> bool:
    """Memoised on the node: functions are called many times.  `src`: the text of its file; a
    function whose lines never say `yield` is none (no walk)."""
    known = getattr(fnode, "_tp_is_generator", None)
    if known is None:
        known = lines_mention(src, fnode, "yield") and any(
            isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_walk(fnode))
        fnode._tp_is_generator = known
    return known


_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def parameter_names(fnode) -> frozenset:
    """The names of `fnode`'s parameters (kept on the node)."""
    known = fnode.__dict__.get("_tp_parameter_names")
    if known is None:
        args = fnode.args
        known = fnode._tp_parameter_names = frozenset(
            [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs] + [a.arg for a in (args.vararg, args.kwarg) if a is not None])
    return known


def parameters_stored_into(fnode) -> frozenset:
    """Parameters the body stores items into (`batch[k] = v`) and never binds anew (assignment, loop or
    `with` target, `del`): the caller's container is changed in place.  Memoised on the node."""
    known = fnode.__dict__.get("_tp_stored_into")
    if known is None:
        a = fnode.args
        params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
        nodes = list(_own_walk(fnode))
        rebound = {n.id for n in nodes if n.__class__ is ast.Name and n.ctx.__class__ is not ast.Load}
        stored = {n.value.id for n in nodes if n.__class__ is ast.Subscript and n.ctx.__class__ is ast.Store
                  and n.value.__class__ is ast.Name}
        known = fnode._tp_stored_into = frozenset((stored & params) - rebound)
    return known


def replaced_parameters(fnode) -> frozenset:
    """Parameters the body re-binds to an object made without them (`model = nn.Linear(3, 3).cuda()`):
    what such a name holds at the end may be another object than the caller's, so a module there
    says nothing of where the caller's module is (`model = model.to(d)` mentions it and is the
    same module; so is a default made under `if model is None:`).  Memoised on the node."""
    known = fnode.__dict__.get("_tp_replaced")
    if known is not None:
        return known
    a = fnode.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    replaced = set()
    nodes = list(_own_walk(fnode))
    for node in nodes:
        if node.__class__ in (ast.Assign, ast.AnnAssign) and node.value is not None:
            targets = node.targets if node.__class__ is ast.Assign else [node.target]
            for target in targets:
                if target.__class__ is ast.Name and target.id in params and not any(
                        n.__class__ is ast.Name and n.id == target.id for n in ast.walk(node.value)):
                    replaced.add((target.id, id(node)))
    if replaced:  # less those under a test of the parameter itself (`if model is None: model = Net()`)
        guarded = set()
        for node in nodes:
            if node.__class__ is ast.If and any(n.__class__ is ast.Name and n.id in params for n in ast.walk(node.test)):
                guarded.update(id(n) for stmt in node.body for n in ast.walk(stmt))
        replaced = {name for name, at in replaced if at not in guarded}
    known = fnode._tp_replaced = frozenset(replaced)
    return known


def _own_walk(fnode):
    """The nodes of a function's body, not those of functions and classes nested in it."""
    todo = [n for n in fnode.body if not isinstance(n, _NESTED)]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, _NESTED))


# -- the module's device ("self") across a call ---------------------------------------
def relocate(value: Value, dev: Optional[Dev]) -> Value:
    """`value` with "the module's device" replaced by `dev` (a method's result seen by its caller)."""
    def leaf(v):
        if isinstance(v, (TensorV, ModuleV, ParamsV)) and v.dev is not None and v.dev.kind == SELF_KIND:
            return replace(v, dev=dev)
        return v
    return map_leaves(value, leaf, objects=True)


def relative_to(value: Value, dev: Optional[Dev]) -> Value:
    """`value` as seen inside a method of a module on `dev`: tensors on `dev` are on "the module's device"."""
    if dev is None:
        return value

    def leaf(v):
        if isinstance(v, TensorV) and v.dev is not None and same_place(v.dev, dev):
            return replace(v, dev=SELF_DEV)
        return v
    return map_leaves(value, leaf, objects=True)


def same_place(a: Dev, b: Dev) -> bool:
    if a.kind != b.kind:
        return False
    return a.kind != ACCEL_KIND or a.label == b.label or bool({"target", RUNTIME} & {a.label, b.label})


def static_lambda(info, value_node) -> Optional[FuncV]:
    """A class attribute `make = staticmethod(lambda: Net())`: the function, however it is reached."""
    if isinstance(value_node, ast.Call) and isinstance(value_node.func, ast.Name) and value_node.func.id == "staticmethod" \
            and len(value_node.args) == 1 and isinstance(value_node.args[0], ast.Lambda) and not value_node.keywords:
        fnode = lambda_function(value_node.args[0])
        return FuncV(fnode, id(fnode), None, info.home)
    return None
