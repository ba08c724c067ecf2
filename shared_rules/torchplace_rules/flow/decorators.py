"""A `def` under decorators of the project: its name is bound to what the decorators return.

`@make_recursive_func def tocuda(x): ...` binds `tocuda` to `make_recursive_func(tocuda)`, a wrapper that
walks dicts and lists and calls the body on each leaf; reading the body in the decorated name's place gives
the wrong value for every call (a dict handed in would come back unchanged, its CPU tensors and all).
Only decorators whose value is a function of the project are applied, as the call `deco(f)` Python makes;
the others (torch.no_grad(), functools.wraps, lru_cache, a decorator imported from another file of the
project) leave the function as it is, as before.
"""
from __future__ import annotations

import ast

from .values import FuncV, Value

_FUNCTION = "#decorated"
_DECORATOR = "#decorator"


def decorated(ev, stmt, func: Value, decorators: list) -> Value:
    """`func` under `decorators` (the values of `stmt.decorator_list`, None where not evaluated), the
    innermost applied first."""
    if not any(d.__class__ is FuncV for d in decorators):
        return func
    calls = _application_calls(stmt)
    env = ev.frame.env
    value = func
    try:
        for index in range(len(decorators) - 1, -1, -1):
            if decorators[index].__class__ is not FuncV:
                continue
            env[_DECORATOR], env[_FUNCTION] = decorators[index], value
            value = ev.eval(calls[index])
    finally:
        env.pop(_DECORATOR, None)
        env.pop(_FUNCTION, None)
    return value


def _application_calls(stmt) -> list:
    """One `#decorator(#decorated)` call per decorator, at the decorator's place (made once per `def`,
    so that what is remembered by node stays the same when the statement runs again)."""
    calls = getattr(stmt, "_tp_decorator_calls", None)
    if calls is None:
        calls = []
        for deco in stmt.decorator_list:
            call = ast.Call(func=ast.Name(id=_DECORATOR, ctx=ast.Load()),
                            args=[ast.Name(id=_FUNCTION, ctx=ast.Load())], keywords=[])
            for node in (call, call.func, call.args[0]):
                ast.copy_location(node, deco)
            calls.append(call)
        stmt._tp_decorator_calls = calls
    return calls
