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
    while stack:
        node = stack.pop()
        out.append(node)
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST) and not isinstance(v, _SHARED))
            elif isinstance(value, ast.AST) and not isinstance(value, _SHARED):
                stack.append(value)
    return out


def calls_and_assignments(func: ast.AST) -> list[ast.AST]:
    """The calls and (annotated) assignments of `func`, nested code included, in `ast.walk`
    order: what the class scans read of `__init__` and `forward`.  One walk per function
    node, memoised on it (an edit that re-parses the function makes a new node)."""
    known = func.__dict__.get("_tp_calls_assigns")
    if known is None:
        known = []
        todo = [func]
        push = todo.append
        for node in todo:  # breadth first, as ast.walk (the list grows while it is read)
            if isinstance(node, _CALL_OR_ASSIGN):
                known.append(node)
            for name in node._fields:
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
