"""`ast.walk` without its generator overhead, for passes over whole trees
(tagging another file's nodes, moving kept statements to new line numbers)."""
from __future__ import annotations

import ast

# Context and operator nodes are singletons shared by every tree: never tag or move them.
_SHARED = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


def own_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of `tree`, except the singletons all trees share."""
    out = []
    stack = [tree]
    pop, push = stack.pop, stack.append
    child_fields = _CHILD_FIELDS
    while stack:
        node = pop()
        out.append(node)
        fields = child_fields.get(node.__class__)
        for name in fields if fields is not None else _child_fields(node.__class__):
            value = getattr(node, name, None)
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, ast.AST) and not isinstance(v, _SHARED))
            elif isinstance(value, ast.AST) and not isinstance(value, _SHARED):
                push(value)
    return out


def tag_nodes(tree: ast.AST, name: str, value) -> None:
    """Set attribute `name` to `value` on every node of `tree` but the shared singletons (the
    walk of `own_nodes`, without making the list)."""
    stack = [tree]
    pop, push = stack.pop, stack.append
    child_fields = _CHILD_FIELDS
    while stack:
        node = pop()
        setattr(node, name, value)
        fields = child_fields.get(node.__class__)
        for field in fields if fields is not None else _child_fields(node.__class__):
            child = getattr(node, field, None)
            if child.__class__ is list:
                for item in child:
                    if isinstance(item, ast.AST) and not isinstance(item, _SHARED):
                        push(item)
            elif isinstance(child, ast.AST) and not isinstance(child, _SHARED):
                push(child)


# Fields that never hold a node, or hold only the shared singletons: leaves (names, constants)
# are visited without looking at their fields.
_LEAF_FIELDS = frozenset({"id", "ctx", "kind", "attr", "arg", "module", "level", "op", "ops", "is_async",
                          "type_comment", "conversion", "name", "tag"})
_CHILD_FIELDS: dict = {}


def _child_fields(cls) -> tuple:
    """The fields of a node class that may hold other nodes (`Constant.value` never does)."""
    known = _CHILD_FIELDS.get(cls)
    if known is None:
        known = _CHILD_FIELDS[cls] = tuple(
            f for f in cls._fields if f not in _LEAF_FIELDS and not (cls is ast.Constant and f == "value"))
    return known


def calls_and_assignments(func: ast.AST) -> list[ast.AST]:
    """The calls and (annotated) assignments of `func`, nested code included, in `ast.walk`
    order: what the class scans read of `__init__` and `forward`.  One walk per function
    node, memoised on it (an edit that re-parses the function makes a new node)."""
    known = func.__dict__.get("_tp_calls_assigns")
    if known is None:
        known = []
        todo = [func]
        push = todo.append
        child_fields = _CHILD_FIELDS
        for node in todo:  # breadth first, as ast.walk (the list grows while it is read)
            if isinstance(node, _CALL_OR_ASSIGN):
                known.append(node)
            fields = child_fields.get(node.__class__)
            for name in fields if fields is not None else _child_fields(node.__class__):
                value = getattr(node, name, None)
                if value.__class__ is list:
                    for item in value:
                        if isinstance(item, ast.AST):
                            push(item)
                elif isinstance(value, ast.AST) and not isinstance(value, _SHARED):
                    push(value)
        func._tp_calls_assigns = known
    return known


_CALL_OR_ASSIGN = (ast.Call, ast.Assign, ast.AnnAssign)


def lines_mention(src, node: ast.AST, word: str) -> bool:
    """Does `word` occur in the source lines of `node` (`src`: its file's SourceText)?  A cheap
    test before a walk that looks for a kind of node only that word can make (`yield`)."""
    lines = src.lines
    return any(word in lines[i] for i in range(node.lineno - 1, min(node.end_lineno, len(lines))))
