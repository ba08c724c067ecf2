"""`ast.walk` without its generator overhead, for passes over whole trees (tagging another
file's nodes, moving kept statements to new line numbers, the class scans), and the one table
of which fields of a node class can hold other nodes."""
from __future__ import annotations

import ast
from typing import Iterator

# Fields that hold strings, numbers or flags, never a node (`Constant.value` is never a node either).
_SCALAR_FIELDS = frozenset({"id", "kind", "attr", "arg", "module", "level", "is_async", "type_comment",
                            "conversion", "name", "tag", "n", "s"})
# Fields that hold only the context and operator nodes (`Load`, `Add`, `Eq`, ...): singletons
# shared by every tree, never to be tagged or moved; no other field holds one.
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_NODE_FIELDS: dict = {}
_CHILD_FIELDS: dict = {}


def node_fields(cls) -> tuple:
    """The fields of a node class that may hold nodes, the shared singletons included (what
    `ast.iter_child_nodes` yields from)."""
    known = _NODE_FIELDS.get(cls)
    if known is None:
        known = _NODE_FIELDS[cls] = () if cls is ast.Constant else tuple(
            f for f in cls._fields if f not in _SCALAR_FIELDS)
    return known


def child_fields(cls) -> tuple:
    """The fields of a node class that may hold nodes of the tree itself (no shared singletons)."""
    known = _CHILD_FIELDS.get(cls)
    if known is None:
        known = _CHILD_FIELDS[cls] = tuple(f for f in node_fields(cls) if f not in _SINGLETON_FIELDS)
    return known


def own_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of `tree` except the singletons all trees share, breadth first (as `ast.walk`);
    the fields of leaves (names, constants) are never looked at."""
    out = [tree]
    push = out.append
    table = _CHILD_FIELDS
    for node in out:  # (the list grows while it is read)
        fields = table.get(node.__class__)
        for name in fields if fields is not None else child_fields(node.__class__):
            value = getattr(node, name, None)
            if value.__class__ is list:
                for item in value:
                    if isinstance(item, ast.AST):  # (not None: `Dict.keys`, `kw_defaults`; not a name: `Global.names`)
                        push(item)
            elif value is not None and isinstance(value, ast.AST):
                push(value)
    return out


def calls_and_assignments(func: ast.AST) -> list[ast.AST]:
    """The calls and (annotated) assignments of `func`, nested code included, in `ast.walk`
    order: what the class scans read of `__init__` and `forward`.  Memoised on the function node
    (an edit that re-parses the function makes a new node)."""
    known = func.__dict__.get("_tp_calls_assigns")
    if known is None:
        known = func._tp_calls_assigns = [n for n in own_nodes(func) if n.__class__ in _CALL_OR_ASSIGN]
    return known


_CALL_OR_ASSIGN = frozenset({ast.Call, ast.Assign, ast.AnnAssign})


def access_path(node) -> "str | None":
    """The access path `node` spells: `x`, `self.encoder.weight`, `batch['x']` (None for other
    expressions)."""
    if node.__class__ is ast.Name:
        return node.id
    if node.__class__ is ast.Attribute:
        base = access_path(node.value)
        return f"{base}.{node.attr}" if base else None
    if node.__class__ is ast.Subscript and node.slice.__class__ is ast.Constant:
        base = access_path(node.value)
        return f"{base}[{node.slice.value!r}]" if base else None
    return None


def lines_mention(src, node: ast.AST, word: str) -> bool:
    """Does `word` occur in the source lines of `node` (`src`: its file's SourceText)?  A cheap
    test before a walk that looks for a kind of node only that word can make (`yield`)."""
    if not src.mentions(word):
        return False  # (one search of the text per word, kept: its lines are not split for it)
    lines = src.lines
    return any(word in lines[i] for i in range(node.lineno - 1, min(node.end_lineno, len(lines))))


_PROGRAM_ENDS = frozenset({("sys", "exit"), ("os", "_exit"), ("os", "abort")})


def ends_the_program(call: ast.AST) -> bool:
    """`sys.exit(...)`, `exit(...)`, `quit(...)`, `os._exit(...)`, `os.abort()`: a call after which
    the code that follows never runs (`SystemExit` propagates as a `raise` would)."""
    if call.__class__ is not ast.Call:
        return False
    func = call.func
    if func.__class__ is ast.Name:
        return func.id in ("exit", "quit")
    return func.__class__ is ast.Attribute and func.value.__class__ is ast.Name \
        and (func.value.id, func.attr) in _PROGRAM_ENDS


def is_main_test(test: ast.AST) -> bool:
    """`__name__ == "__main__"` (either way round): true only where the file runs as the program."""
    if test.__class__ is not ast.Compare or len(test.ops) != 1 or test.ops[0].__class__ is not ast.Eq:
        return False
    sides = (test.left, test.comparators[0])
    return any(a.__class__ is ast.Name and a.id == "__name__" and b.__class__ is ast.Constant and b.value == "__main__"
               for a, b in (sides, sides[::-1]))


def scope_nodes(scope) -> Iterator[ast.AST]:
    """The nodes of a function or module body (or of a statement list), not descending into nested
    functions, lambdas or classes (their `def`/`class` nodes are yielded).  `own_nodes` above walks
    everything."""
    stack = list(ast.iter_child_nodes(scope)) if not isinstance(scope, list) else list(scope)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        stack.extend(ast.iter_child_nodes(node))


_ELEMENT_WRAPPERS = frozenset({"tuple", "list", "set", "sorted", "frozenset", "iter"})


def element_node(value: ast.AST) -> "ast.AST | None":
    """What each element of an unpacked comprehension is (`(d,) = tuple(set(x.device for x in xs))`, `a, b =
    [t.device for t in ts]`: `x.device`), through the builtins that keep its elements; None when not one."""
    while value.__class__ is ast.Call and value.func.__class__ is ast.Name and value.func.id in _ELEMENT_WRAPPERS \
            and len(value.args) == 1 and not value.keywords:
        value = value.args[0]
    return value.elt if value.__class__ in (ast.ListComp, ast.SetComp, ast.GeneratorExp) else None


_ITEM_WRITERS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})


def writes_items(func: "ast.AST | None", name: str) -> bool:
    """Does `func` (nested code included) store, delete or change an item of what its name `name`
    holds (`d[k] = v`, `d[k] += 1`, `del d[k]`, `d.update(...)`, `d.setdefault(...)`, `d.pop(k)`)?
    Then an item read from the caller's dict may not be what the caller stored.  True without a function."""
    if func is None:
        return True
    for node in ast.walk(func):
        kind = node.__class__
        if kind is ast.Subscript and node.ctx.__class__ is not ast.Load:
            if node.value.__class__ is ast.Name and node.value.id == name:
                return True
        elif kind is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr in _ITEM_WRITERS:
            if node.func.value.__class__ is ast.Name and node.func.value.id == name:
                return True
    return False


def call_rebinding_own_name(stmt, name: str) -> bool:
    """Is `stmt` an assignment of a call's result to `name` that hands the call `name` itself
    (`dtype, device = resolve(dtype, device)`, `device = pick(device=device)`)?"""
    if stmt.__class__ is not ast.Assign or stmt.value.__class__ is not ast.Call:
        return False
    call = stmt.value
    return any(a.__class__ is ast.Name and a.id == name for a in call.args) \
        or any(k.value.__class__ is ast.Name and k.value.id == name for k in call.keywords)


def parameter_defaults(fnode) -> dict:
    """Parameter name -> default node of a function (positional and keyword-only parameters that have
    one); memoised on the node (read, never changed, by its callers)."""
    known = fnode.__dict__.get("_tp_defaults")
    if known is None:
        a = fnode.args
        names = [p.arg for p in a.posonlyargs + a.args]
        known = dict(zip(names[len(names) - len(a.defaults):], a.defaults))
        known.update((p.arg, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None)
        fnode._tp_defaults = known
    return known
