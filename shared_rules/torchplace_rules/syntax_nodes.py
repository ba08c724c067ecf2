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
