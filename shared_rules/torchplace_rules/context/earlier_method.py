"""A checkpoint another method of the same object wrote before every call of the loading method.

`exp.train(setting)` saves `checkpoint.pth` under `os.path.join(self.args.checkpoints, setting)`
(`early_stopping(val_loss, self.model, path)`), and `exp.predict(setting, True)` loads that path
into `self.model`.  When every call of the loading method in the project (the checked file and the
files importing it) comes after a call of the writing method on the same object, with the same
arguments for the parameters the path is built from and nothing rebound between, the file is
read in the process that wrote it, on its devices: `map_location` changes nothing.  One call of the
loader that no such write precedes (`exp.test(setting, test=1)` of a `--is_training 0` run), or a
path built from anything but `self`, the method's parameters and constants, keeps the finding.
"""
from __future__ import annotations

import ast
from typing import Optional

from .checkpoints import Provenance, _arguments, _loaded_into, _saves_model_to, base_dirs, expand, is_writer_call, \
    load_path, path_keys
from .load_callers import importer_trees
from .scopes import containing_block, enclosing_statement, own_nodes, parent_map


def written_by_earlier_method(ev, ctx, load: ast.Call) -> bool:
    """Is `load`, in a method, reading what another method of its class writes, and does every call
    of the loading method that the project makes follow a call of that writer on the same object?"""
    func = ctx.enclosing_function(load)
    cls = ctx.parents.get(id(func)) if func is not None else None
    if not isinstance(cls, ast.ClassDef) or not func.args.args:
        return False
    path = load_path(load)
    if path is None:
        return False
    scope = ctx.provenance.scope(func)
    expanded = expand(path, scope, load.lineno)
    params = _path_parameters(expanded, func)
    if params is None:
        return False
    writers = _writing_methods(ctx.provenance, cls, func, load, path, scope, params)
    if not writers:
        return False
    trees = _caller_trees(ev, ctx)
    if trees is None:
        return False
    found = False
    for tree in trees:
        parents = ctx.parents if tree is ctx.tree else parent_map(tree)
        for caller_scope, call in _calls_of(tree, func.name):
            if not _after_a_writer(parents, caller_scope, call, func, writers, params):
                return False
            found = True
    return found


def _path_parameters(expanded: ast.AST, func) -> Optional[set]:
    """The parameters of `func` the expanded path is built from; None when it also reads another
    name (a local the expansion did not reach, a global) besides `self`."""
    a = func.args
    names = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    receiver = a.args[0].arg
    called = {id(n) for node in ast.walk(expanded) if isinstance(node, ast.Call) for n in ast.walk(node.func)}
    used = {n.id for n in ast.walk(expanded) if n.__class__ is ast.Name and id(n) not in called}
    if used - names:
        return None
    return used - {receiver}


def _writing_methods(provenance: Provenance, cls: ast.ClassDef, func, load, path, scope, params: set) -> list:
    """The methods of `cls` (other than `func`) that write the loaded path, built from parameters of
    the same names: a writer call given the path, or a call handed the loaded module and the path or
    its directory (`early_stopping(val_loss, self.model, path)`)."""
    keys = path_keys(path, scope, load.lineno)
    bases = base_dirs(path) | base_dirs(expand(path, scope, load.lineno))
    model = _loaded_into(func, load)
    found = []
    for method in cls.body:
        if not isinstance(method, ast.FunctionDef) or method is func or not method.args.args:
            continue
        a = method.args
        if not params <= {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}:
            continue
        own = provenance.scope(method)
        for call in own.calls_before(method.end_lineno + 1):
            if is_writer_call(call) and any(path_keys(arg, own, call.lineno) & keys for arg in _arguments(call)) \
                    or model is not None and _saves_model_to(call, model, own, keys, bases):
                found.append(method)
                break
    return found


def _caller_trees(ev, ctx) -> Optional[list]:
    """The checked file's tree and those of the files importing it; None when there are more importers
    than are read, or one cannot be read (a call among them would go unseen)."""
    importers = importer_trees(ev)
    if importers is None or any(tree is None for tree in importers):
        return None
    return [ctx.tree, *importers]


def _calls_of(tree: ast.Module, name: str) -> list:
    """(scope, call) of each `<receiver>.<name>(...)` in `tree`, the scope being the function (or module
    body) whose own statements hold it."""
    out = []
    for scope in [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
        for node in own_nodes(scope.body):
            if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == name:
                out.append((scope, node))
    return out


def _after_a_writer(parents: dict, scope, call: ast.Call, func, writers: list, params: set) -> bool:
    """Does a call of one of the writers on the same receiver come before `call`, in a statement list that
    also holds `call` (so it ran first), passing the same text for each parameter the path is built from,
    with neither the receiver nor those arguments' names rebound between?"""
    receiver = ast.unparse(call.func.value)
    reader_args = _bound_arguments(func, call)
    for writer in writers:
        for node in own_nodes(scope.body):
            if node.__class__ is not ast.Call or node.func.__class__ is not ast.Attribute \
                    or node.func.attr != writer.name or ast.unparse(node.func.value) != receiver:
                continue
            writer_args = _bound_arguments(writer, node)
            if any(p not in reader_args or p not in writer_args or reader_args[p][0] != writer_args[p][0] for p in params):
                continue
            names = {receiver.split(".")[0]} | {n.id for p in params for n in ast.walk(reader_args[p][1])
                                                if n.__class__ is ast.Name}
            holder = _later_statement(parents, node, call)
            if holder is not None and not _rebound_between(scope, names, node.lineno, holder.end_lineno):
                return True
    return False


def _bound_arguments(method, call: ast.Call) -> dict:
    """Parameter name -> (source text, node) of the argument a call through an instance passes for it
    (two calls pass the same argument where the texts are equal)."""
    a = method.args
    params = [p.arg for p in a.posonlyargs + a.args][1:]
    out = {}
    for param, arg in zip(params, call.args):
        if arg.__class__ is ast.Starred:
            break
        out[param] = (ast.unparse(arg), arg)
    names = set(params) | {p.arg for p in a.kwonlyargs}
    out.update({k.arg: (ast.unparse(k.value), k.value) for k in call.keywords if k.arg in names})
    return out


def _later_statement(parents: dict, first: ast.AST, then: ast.AST) -> Optional[ast.AST]:
    """The statement after `first`'s in the statement list holding it that is or holds `then` (so
    `first` ran before it, on every path reaching it); None when there is none."""
    stmt = enclosing_statement(parents, first)
    block = containing_block(parents, stmt) if stmt is not None else None
    if block is None:
        return None
    holder = parents.get(id(stmt))
    index = next(i for i, s in enumerate(block) if s is stmt)
    later = {id(s) for s in block[index + 1:]}
    node = then
    while node is not None and id(node) not in later:
        if node is holder:
            return None
        node = parents.get(id(node))
    return node


def _rebound_between(scope, names: set, start: int, end: int) -> bool:
    """Does the scope bind one of `names` on a line from `start` to `end` (a loop or `with` target too;
    `end`: the end of the statement holding the reader's call, so a loop rebinding after it counts)?"""
    for node in own_nodes(scope.body):
        if node.__class__ is ast.Name and node.id in names and node.ctx.__class__ is not ast.Load \
                and start <= node.lineno <= end:
            return True
    return False
