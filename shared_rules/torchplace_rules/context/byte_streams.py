"""In-memory checkpoints: a `torch.load` of a byte stream this run filled with `torch.save`.

`buffer = io.BytesIO()` starts empty, so what a load reads from it is what this run wrote there:
the stream a helper of the file returns after `torch.save(state, buffer)` (a test class's
`save_state_dict_to_buffer(sd)`), or `io.BytesIO(data)` over the bytes `getvalue()` took from such
a stream (and passed round the job's ranks with `broadcast_object_list`).  The tensors come back
on the devices of this run's machine, so `map_location` changes nothing.  A stream made from
bytes the code was handed (`io.BytesIO(data)` of a parameter, a download) may hold any file.
"""
from __future__ import annotations

import ast
from typing import Optional

from .checkpoints import Scope, _called_name, _path_text, load_path, saved_to

_STREAMS = {"BytesIO"}
_MAX_DEPTH = 4
# torch.distributed's collectives that replace the objects of a list with those another rank of the
# same job holds in its list (the same code's values): they bring in nothing from outside the run
_OBJECT_COLLECTIVES = {"broadcast_object_list"}


def reads_saved_stream(provenance, load: ast.Call, func, scope: Scope) -> bool:
    """Does `load` read a byte stream this run filled with `torch.save` (see the module docstring)?"""
    path = load_path(load)
    return path is not None and _saved_stream(provenance, path, func, scope, load.lineno, 0)


def _saved_stream(provenance, expr: ast.AST, func, scope: Scope, line: int, depth: int) -> bool:
    """Is `expr`, read at `line`, a stream holding what this run saved?"""
    if depth > _MAX_DEPTH:
        return False
    if _is_stream(expr) and len(expr.args) == 1 and not expr.keywords:  # `io.BytesIO(data)`
        return _saved_bytes(provenance, expr.args[0], func, scope, line, depth + 1)
    key = _path_text(expr)
    if key is not None:
        bound = scope.binding_before(key, line)
        if bound is None:
            return False
        at, value = bound
        if _is_stream(value) and not value.args and not value.keywords:  # `buffer = io.BytesIO()`
            return any(at <= c.lineno and (target := saved_to(c)) is not None and _path_text(target) == key
                       for c in scope.calls_before(line))
        return _saved_stream(provenance, value, func, scope, at, depth + 1)
    if expr.__class__ is ast.Call:  # `self.save_to_buffer(sd)`, `to_buffer(sd)`: every return is such a stream
        helper = _helper(provenance, expr.func, func)
        if helper is None:
            return False
        own = provenance.scope(helper)
        returns = [n for n in own.nodes if n.__class__ is ast.Return]
        return bool(returns) and all(r.value is not None and _saved_stream(provenance, r.value, helper, own, r.lineno, depth + 1)
                                     for r in returns)
    return False


def _saved_bytes(provenance, expr: ast.AST, func, scope: Scope, line: int, depth: int) -> bool:
    """Is `expr` the bytes of a stream this run saved (`stream.getvalue()`), through a name every
    binding of which before `line` is such bytes, None, or the name's own value in or out of a list
    (`data = [data]`, `data = data[0]`) that only an object collective was handed in between?"""
    if depth > _MAX_DEPTH:
        return False
    if expr.__class__ is ast.Call and expr.func.__class__ is ast.Attribute and expr.func.attr == "getvalue" \
            and not expr.args:
        return _saved_stream(provenance, expr.func.value, func, scope, line, depth + 1)
    if expr.__class__ is not ast.Name:
        return False
    name = expr.id
    bindings = [(at, v) for at, v in scope.bindings.get(name, ()) if at < line]
    if not bindings or name in scope.params:
        return False
    saved = False
    for at, value in bindings:
        if value.__class__ is ast.Constant and value.value is None or _wraps_itself(value, name):
            continue
        if not _saved_bytes(provenance, value, func, scope, at, depth + 1):
            return False
        saved = True
    handed = [c for c in scope.calls_before(line) if any(a.__class__ is ast.Name and a.id == name for a in c.args)
              or any(k.value.__class__ is ast.Name and k.value.id == name for k in c.keywords)]
    return saved and all(_called_name(c.func) in _OBJECT_COLLECTIVES for c in handed)


def _wraps_itself(value: ast.AST, name: str) -> bool:
    """`[name]` or `name[0]`: the same object put in a list or taken out of one."""
    if value.__class__ is ast.List and len(value.elts) == 1:
        value = value.elts[0]
    elif value.__class__ is ast.Subscript and value.slice.__class__ is ast.Constant and value.slice.value == 0:
        value = value.value
    else:
        return False
    return value.__class__ is ast.Name and value.id == name


def _is_stream(node: ast.AST) -> bool:
    return node.__class__ is ast.Call and _called_name(node.func) in _STREAMS


def _helper(provenance, callee: ast.AST, func) -> Optional[ast.AST]:
    """The function of this file a call runs: `name(...)` a function defined at the top of the
    module, `self.name(...)` a method of the class `func` belongs to."""
    if callee.__class__ is ast.Name:
        return provenance.functions.get(callee.id)
    if callee.__class__ is ast.Attribute and callee.value.__class__ is ast.Name and callee.value.id == "self":
        return provenance.method_of(func, callee.attr)
    return None
