"""Checkpoints a program always writes with CPU tensors.

`torch.load` restores each tensor where it was saved.  When every writer in the file of the
state loaded here saves it from the CPU (`model.cpu()` or `model.eval().cpu()` before
`torch.save(model.state_dict(), ...)`, `torch.save(model.cpu().state_dict(), ...)`,
`{k: v.cpu() ...}`), the file holds CPU tensors and `map_location` changes nothing.

The writer and the reader are linked by the class of the module: the state is loaded into an
instance of class `C` (`net = C(); net.load_state_dict(torch.load(p))`) and the writers are the
`torch.save(<C instance>.state_dict(), ...)` calls of the same file.  The writer and the
reader are also linked by the file's path: every `torch.save` whose path has the load's format
template (`'%s_net_%s.pth' % (epoch, label)` in a `save_network` and a `load_network` helper) saves a
CPU-moved state (`torch.save(net.cpu().state_dict(), p)`).  Without such a link nothing is concluded.
"""
from __future__ import annotations

import ast
from typing import Optional

from .checkpoints import Scope, load_path, path_keys

_MOVES = {"to", "cuda", "cpu"}
_KEEPS = {"eval", "train", "float", "half", "double", "requires_grad_"}  # return the module itself


def saved_on_cpu(tree: ast.Module, load: ast.Call, scope_of, enclosing_function) -> bool:
    func = enclosing_function(load)
    scope = scope_of(func)
    receiver = _loaded_into(scope, load)
    if receiver is None:
        return False
    cls = _class_of(scope, receiver, load.lineno)
    if cls is None:
        return False
    writers = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and is_torch_save(node) and node.args):
            continue
        owner = _state_dict_owner(node.args[0])
        if owner is None:
            continue
        writer_scope = scope_of(enclosing_function(node))
        if _is_cpu_move(owner):
            name = _root_name(owner)
            if name is not None and _class_of(writer_scope, name, node.lineno) == cls:
                writers += 1
            continue
        if not isinstance(owner, ast.Name) or _class_of(writer_scope, owner.id, node.lineno) != cls:
            continue
        if _last_move(writer_scope, owner.id, node.lineno) != "cpu":
            return False  # a writer of this state saves it from wherever the module was
        writers += 1
    return writers > 0


def saved_on_cpu_at_path(tree: ast.Module, load: ast.Call, scope_of, enclosing_function) -> bool:
    """Does every `torch.save` of the file writing to the load's path template (or exact path) save a
    state moved to the CPU, and is there one?"""
    path = load_path(load)
    if path is None:
        return False
    keys = path_keys(path, scope_of(enclosing_function(load)), load.lineno)
    writers = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and is_torch_save(node) and len(node.args) >= 2):
            continue
        if not path_keys(node.args[1], scope_of(enclosing_function(node)), node.lineno) & keys:
            continue
        owner = _state_dict_owner(node.args[0])
        if owner is None or not _is_cpu_move(owner):
            return False  # a writer of this file that may save it from an accelerator
        writers += 1
    return writers > 0


def _state_dict_owner(saved: ast.AST) -> Optional[ast.AST]:
    """`net` of `torch.save(net.state_dict(), p)` (`net.cpu()` of `net.cpu().state_dict()`); None for any
    other saved object."""
    if isinstance(saved, ast.Call) and isinstance(saved.func, ast.Attribute) and saved.func.attr == "state_dict":
        return saved.func.value
    return None


def is_torch_save(call: ast.Call) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "save" and isinstance(func.value, ast.Name) \
        and func.value.id == "torch"


def _loaded_into(scope: Scope, load: ast.Call) -> Optional[str]:
    """The module whose `load_state_dict` receives the loaded state: `net.load_state_dict(torch.load(p))`,
    or `sd = torch.load(p)` ... `net.load_state_dict(sd)`."""
    loaded_names = set()
    for node in scope.nodes:
        if isinstance(node, ast.Assign) and node.value is load:
            loaded_names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    for node in scope.nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "load_state_dict" \
                and node.args and isinstance(node.func.value, ast.Name):
            arg = node.args[0]
            if arg is load or (isinstance(arg, ast.Name) and arg.id in loaded_names and node.lineno >= load.lineno):
                return node.func.value.id
    return None


def _class_of(scope: Scope, name: str, line: int) -> Optional[str]:
    """`C` when `name` was last bound to `C(...)` (possibly chained: `C(...).to(device)`)."""
    value = scope.value_before(name, line + 1)
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _MOVES | _KEEPS:
        value = value.func.value
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
        if name and name[:1].isupper():
            return name
    return None


def _is_cpu_move(node: ast.AST) -> bool:
    """`net.cpu()`, `net.eval().cpu()`, `net.to("cpu")`."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and _move_kind(node) == "cpu"


def _move_kind(call: ast.Call) -> Optional[str]:
    attr = call.func.attr
    if attr == "cpu":
        return "cpu"
    if attr == "cuda":
        return "accelerator"
    if attr == "to":
        arg = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            return "cpu" if arg.value.split(":")[0] == "cpu" else "accelerator"
        return "accelerator" if arg is not None else None
    return None


def _root_name(node: ast.AST) -> Optional[str]:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node.id if isinstance(node, ast.Name) else None


def _last_move(scope: Scope, name: str, line: int) -> Optional[str]:
    """Where the last `.cpu()`/`.cuda()`/`.to(...)` of `name` before `line` sends it."""
    last = None
    for node in scope.nodes:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.lineno < line \
                and node.func.attr in _MOVES and _root_name(node) == name:
            kind = _move_kind(node)
            if kind is not None and (last is None or (node.lineno, node.col_offset) > last[0]):
                last = ((node.lineno, node.col_offset), kind)
    return last[1] if last else None
