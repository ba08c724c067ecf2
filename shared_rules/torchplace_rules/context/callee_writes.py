"""A checkpoint a chain of the file's own functions saved before the load, to a path built from
what the loader handed them.

CLAM's `train` calls `validate(cur, ..., early_stopping, ..., args.results_dir)` in its epoch loop,
`validate` calls `early_stopping(..., ckpt_name=os.path.join(results_dir, "s_{}_checkpoint.pt".format(cur)))`,
the `EarlyStopping` object's `__call__` hands `ckpt_name` to `self.save_checkpoint`, which does
`torch.save(model.state_dict(), ckpt_name)`; after the loop `train` loads
`os.path.join(args.results_dir, "s_{}_checkpoint.pt".format(cur))`.  With each callee's parameters
replaced by what its caller passed, the saved path is the loaded one: the file may be this run's,
saved on this machine, so a missing GPU is not proven.  Followed: functions of the file called
by name, methods of the caller's class (`self.m(...)`), and `obj(...)` / `obj.m(...)` where the
object is a name some binding of which (in the loader, or handed down as an argument) builds a
class of the file; at most `_MAX_DEPTH` calls deep.  Only `torch.save` counts as the write.
"""
from __future__ import annotations

import ast
import copy
from typing import Optional

from .checkpoints import Scope, expand, load_path, method_named, path_keys, saved_to

_MAX_DEPTH = 4
_MAX_VISITS = 64  # functions (with their arguments) read per load: the walk stays small in a big file


def saved_by_callee_chain(provenance, load: ast.Call, func, scope: Scope) -> bool:
    """Did a call before `load` (in its function) run, through functions of this file, a
    `torch.save` to the loaded path (see the module docstring)?"""
    path = load_path(load)
    if path is None:
        return False
    keys = path_keys(path, scope, load.lineno)
    chain = _Chain(provenance, keys, func)
    for call in scope.calls_before(load.lineno):
        if call is load:
            continue
        target = chain.resolve(call, scope, {}, func)
        if target is not None and chain.writes(target[0], chain.bind(target, call, scope, {}, expand_in=scope), 1):
            return True
    return False


class _Chain:
    """The walk down the calls, with the classes and functions of the file looked up once."""

    def __init__(self, provenance, keys: set, func) -> None:
        self.provenance, self.keys = provenance, keys
        self.functions = provenance.functions
        self.classes = {n.name: n for n in provenance.classes}
        self.seen: set = set()

    def writes(self, fn, env: dict, depth: int) -> bool:
        """Does `fn`, its parameters bound to `env` (expressions in the loader's terms), save to a
        path of the loaded keys, itself or through the calls it makes?"""
        key = (id(fn), tuple(sorted((k, ast.unparse(v)) for k, v in env.items())))
        if key in self.seen or len(self.seen) >= _MAX_VISITS:
            return False
        self.seen.add(key)
        scope = self.provenance.scope(fn)
        for call in scope.calls_before(fn.end_lineno + 1):
            target = saved_to(call)
            if target is not None:
                written = _substitute(expand(target, scope, call.lineno), env)
                if path_keys(written, _EMPTY, 0) & self.keys:
                    return True
            elif depth < _MAX_DEPTH:
                target = self.resolve(call, scope, env, fn)
                if target is not None and self.writes(target[0], self.bind(target, call, scope, env), depth + 1):
                    return True
        return False

    def resolve(self, call: ast.Call, scope: Scope, env: dict, fn) -> Optional[tuple]:
        """(function node, whether it takes `self`) of what `call` runs, or None."""
        callee = call.func
        if callee.__class__ is ast.Name:
            if callee.id in self.functions and scope.binding_before(callee.id, call.lineno) is None \
                    and callee.id not in scope.params:
                return self.functions[callee.id], False
            cls = self._class_of(callee.id, scope, env, call.lineno)
            method = method_named(cls, "__call__") if cls is not None else None
            return (method, True) if method is not None else None
        if callee.__class__ is ast.Attribute and callee.value.__class__ is ast.Name:
            owner = callee.value.id
            cls = self.provenance.class_holding(fn) if owner == "self" else self._class_of(owner, scope, env, call.lineno)
            method = method_named(cls, callee.attr) if cls is not None else None
            return (method, True) if method is not None else None
        return None

    def _class_of(self, name: str, scope: Scope, env: dict, line: int):
        """A class of the file some binding of `name` before `line` builds (`stopper = EarlyStopping(...)`),
        or, for a parameter, some binding of the name the caller handed in."""
        if name in env:
            handed = env[name]
            return self._built(handed) if handed.__class__ is ast.Call else None
        for at, value in scope.bindings.get(name, ()):
            if at < line and value.__class__ is ast.Call:
                built = self._built(value)
                if built is not None:
                    return built
        return None

    def _built(self, value: ast.Call):
        return self.classes.get(value.func.id) if value.func.__class__ is ast.Name else None

    def bind(self, target: tuple, call: ast.Call, scope: Scope, env: dict, expand_in: Optional[Scope] = None) -> dict:
        """The callee's parameters -> the argument expressions in the loader's terms (expanded through
        the loader's bindings at the first call, substituted through `env` below it); a parameter left
        out takes its default.  An object passed in is kept as the call that built it, if one did."""
        fn, takes_self = target
        a = fn.args
        params = [p.arg for p in a.posonlyargs + a.args]
        if takes_self and params:
            params = params[1:]
        bound = {}
        defaults = a.defaults
        positional = a.posonlyargs + a.args
        for p, d in zip(positional[len(positional) - len(defaults):], defaults):
            bound[p.arg] = d
        for p, d in zip(a.kwonlyargs, a.kw_defaults):
            if d is not None:
                bound[p.arg] = d
        pairs = [(p, arg) for p, arg in zip(params, call.args) if arg.__class__ is not ast.Starred]
        pairs += [(k.arg, k.value) for k in call.keywords if k.arg is not None]
        for name, arg in pairs:
            built = None
            if arg.__class__ is ast.Name:
                built = next((v for at, v in (expand_in or scope).bindings.get(arg.id, ())
                              if at < call.lineno and v.__class__ is ast.Call and self._built(v) is not None), None)
            if built is not None:
                bound[name] = built
            elif expand_in is not None:
                bound[name] = expand(arg, expand_in, call.lineno)
            else:
                bound[name] = _substitute(expand(arg, scope, call.lineno), env)
        return bound


def _substitute(expr: ast.AST, env: dict) -> ast.AST:
    """`expr` with the callee's parameter names replaced by what the caller passed."""
    if not env:
        return expr
    return _Substituter(env).visit(copy.deepcopy(expr))


class _Substituter(ast.NodeTransformer):
    def __init__(self, env: dict) -> None:
        self.env = env

    def visit_Name(self, node):
        value = self.env.get(node.id)
        return copy.deepcopy(value) if value is not None else node


_EMPTY = Scope(ast.Module(body=[], type_ignores=[]))
