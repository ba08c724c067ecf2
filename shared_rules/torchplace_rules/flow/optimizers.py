"""`torch.optim` optimizers: where their per-parameter state lives.

Checked with torch 2.13 (`tests/engine/test_truth_table.py`): `Optimizer.load_state_dict` casts the
loaded state tensors (momentum buffers, Adam's moments) to each parameter's device at load time
(`_process_value_according_to_param_policy`); `Module.to()`/`.cuda()` move the parameters in place,
keeping the Parameter objects the optimizer holds (`Module._apply`: `param.data = param_applied`), and
not the optimizer's state; so after a load and then a move, `optimizer.step()` combines the moved
parameters and gradients with state on the load-time device and raises "Expected all tensors to be on
the same device".  An optimizer that never loaded a state makes it lazily in `step()`, on the
parameters' device; one that loads after the move casts it there.  (The truth table steps each
optimizer of `STATEFUL`, and SGD with a momentum, per tensor: `foreach=False`.)
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from .devices import devices_conflict, join_dev
from .events import Conflict
from .state import linked_optimizers
from .values import (
    FRESH, LOADED, MAYBE_LOADED, NONE, STATE_UNKNOWN, UNKNOWN, DictV, OptimizerV, ParamsV, SeqV, TensorV, Value,
)

# optimizers whose `step()` keeps state tensors for every parameter (SGD only with a momentum)
STATEFUL = frozenset({"Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta"})
# what an optimizer's methods and attributes do to what the analysis knows of its state
_KEEPS_STATE = frozenset({"zero_grad", "state_dict", "param_groups", "defaults"})


def optimizer_class(qual: str) -> Optional[str]:
    """`torch.optim.Adam` (or `torch.optim.adam.Adam`) -> "Adam"; "SGD"; None for anything else."""
    head, _, last = qual.rpartition(".")
    if (head == "torch.optim" or head.startswith("torch.optim.") and not head.startswith("torch.optim.lr_scheduler")) \
            and (last in STATEFUL or last == "SGD"):
        return last
    return None


def make_optimizer(ev, node: ast.Call, name: str, args: list, kwargs: dict) -> Value:
    """`torch.optim.SGD(model.parameters(), lr=..., momentum=0.9)`: where its parameters are and which
    modules (by access path in this function) hold them."""
    if name == "SGD" and not _has_momentum(node):
        return UNKNOWN  # no momentum: its state holds no tensors
    params = kwargs.get("params", args[0] if args else UNKNOWN)
    groups = _parameter_sets(params)
    if not groups:
        return UNKNOWN
    dev = groups[0].dev
    if dev is None or any(g.dev != dev for g in groups):
        return UNKNOWN
    scope = ev.frame.func
    owners = tuple(sorted({g.owner for g in groups})) \
        if all(g.owner is not None and g.scope is scope for g in groups) else ()
    return OptimizerV(dev, owners, FRESH, None, scope, node)


def _has_momentum(node: ast.Call) -> bool:
    """SGD keeps momentum buffers only with a momentum that is not 0 (a literal here)."""
    value = next((k.value for k in node.keywords if k.arg == "momentum"), None)
    if value is None and len(node.args) >= 3:
        value = node.args[2]  # SGD(params, lr, momentum, ...)
    return isinstance(value, ast.Constant) and type(value.value) in (int, float) and value.value > 0


def _parameter_sets(params: Value) -> list:
    """The `model.parameters()` an optimizer is given: directly, or as the "params" of each group
    (a list of dicts); [] where any of them is not known."""
    if params.__class__ is ParamsV:
        return [params] if params.grad else []
    if params.__class__ is SeqV:
        items = params.items if params.items is not None else (params.elem,)
        out = []
        for item in items:
            found = _parameter_sets(item.get("params") if isinstance(item, DictV) else UNKNOWN)
            if not found:
                return []
            out += found
        return out
    return []


def optimizer_method(ev, node: ast.Call, opt: OptimizerV, name: str) -> Value:
    """`optimizer.load_state_dict(...)`, `optimizer.step()`, ..."""
    ev.eval_args(node)
    path = ev.path_of(node.func.value)
    if name == "step":
        _check_step(ev, node, opt)
        return UNKNOWN
    if name == "load_state_dict":
        # the loaded state is cast to the parameters' device now (unknown where they are unknown)
        known = opt.params_dev is not None
        loaded = replace(opt, state=LOADED if known else STATE_UNKNOWN, state_dev=opt.params_dev if known else None,
                         loaded_at=node)
        if path is not None:
            ev.frame.env[path] = loaded
        return NONE
    if name not in _KEEPS_STATE and path is not None:
        ev.frame.env[path] = forget_state(opt)  # add_param_group, a method of a subclass ...: not followed
    return UNKNOWN


def optimizer_attribute(ev, node: ast.Attribute, opt: OptimizerV) -> Value:
    """`optimizer.param_groups` (its learning rates) keeps what is known; `optimizer.state` is where
    code moves the state itself (`for s in optimizer.state.values(): s[k] = v.to(device)`)."""
    if node.attr not in _KEEPS_STATE:
        path = ev.path_of(node.value)
        if path is not None:
            ev.frame.env[path] = forget_state(opt)
    return UNKNOWN


def forget_state(opt: OptimizerV) -> OptimizerV:
    return replace(opt, state=STATE_UNKNOWN, state_dev=None)


def _check_step(ev, node: ast.Call, opt: OptimizerV) -> None:
    """A step whose loaded state is on another device than the parameters raises (an error where the
    state was loaded on every path here, a warning where only on some: every run that loads it raises)."""
    if opt.state not in (LOADED, MAYBE_LOADED) or opt.state_dev is None or opt.params_dev is None:
        return
    if not devices_conflict(opt.state_dev, opt.params_dev):
        return
    # the "CPU" side is the state (on the load-time device), the other the moved parameters
    state_side, params_side = (opt.state_dev, opt.params_dev) if opt.state_dev.is_cpu else (opt.params_dev, opt.state_dev)
    state_at = opt.loaded_at if opt.state_dev.is_cpu else opt.moved_at
    params_at = opt.moved_at if opt.state_dev.is_cpu else opt.loaded_at
    receiver = node.func.value
    ev.emit("conflict", Conflict(node, "optimizer_state" if opt.state == LOADED else "optimizer_state_maybe",
                                 TensorV(state_side, origin=state_at), receiver,
                                 TensorV(params_side, origin=params_at), receiver, params_side))


def same_optimizer(entry: Value, after: Value) -> bool:
    """Is `after` (what a callee's parameter holds at its end) the optimizer the caller passed, with
    what the callee did to its state (not another optimizer it bound to the name)?"""
    return after.__class__ is OptimizerV and entry.__class__ is OptimizerV and after.made_at is entry.made_at


def loaded_into(current: Optional[Value], after: OptimizerV) -> Value:
    """The caller's optimizer after a callee loaded (or touched) its state: the caller keeps its own
    view of the parameters (the modules it holds them for, where they are).  (`after` may come from a
    context analysed for another caller's optimizer that compares equal: its identity is not this one's.)"""
    if current.__class__ is not OptimizerV:
        return after if current is None else UNKNOWN
    if after.state == current.state and after.state_dev == current.state_dev and after.loaded_at is current.loaded_at:
        return current
    if after.params_dev is not current.params_dev and join_dev(after.params_dev, current.params_dev) is None:
        return forget_state(current)  # (the callee saw the parameters elsewhere: not this context's)
    return replace(current, state=after.state, state_dev=after.state_dev, loaded_at=after.loaded_at)


def unlink_rebound(ev, path: str) -> None:
    """`path` now holds another module: the optimizers holding the old one's parameters no longer
    follow what happens to `path`."""
    env = ev.frame.env
    for key in linked_optimizers(ev, path):
        env[key] = replace(env[key], owners=())


def owned_by_caller(value: Value, scope: ast.AST, paths: dict, caller_scope: Optional[ast.AST]) -> Value:
    """What a call returned, with the parameters of the callee's parameters' modules (`self.encoder`
    of a method called as `model.set_train_params(...)`) owned by the caller's access paths
    (`paths`: callee parameter -> the caller's path of its argument)."""
    return _remap(value, 0, scope, paths, caller_scope) if _owned(value, 0, scope) else value


# (module functions, not closures calling themselves: those are reference cycles, freed only by a
# cyclic collection)
def _owned(v: Value, depth: int, scope: ast.AST) -> bool:
    if v.__class__ is ParamsV:
        return v.owner is not None and v.scope is scope
    if depth > 4:
        return False
    if v.__class__ is SeqV:
        return any(_owned(i, depth + 1, scope) for i in v.items) if v.items is not None \
            else _owned(v.elem, depth + 1, scope)
    return isinstance(v, DictV) and v.items is not None and any(_owned(i, depth + 1, scope) for _, i in v.items)


def _remap(v: Value, depth: int, scope: ast.AST, paths: dict, caller_scope: Optional[ast.AST]) -> Value:
    if depth > 4:
        return v
    if v.__class__ is ParamsV:
        if v.owner is None or v.scope is not scope:
            return v
        root, dot, rest = v.owner.partition(".")
        base = paths.get(root)
        return replace(v, owner=base + dot + rest if base is not None else None,
                       scope=caller_scope if base is not None else None)
    if v.__class__ is SeqV:
        if v.items is not None:
            return SeqV(tuple(_remap(i, depth + 1, scope, paths, caller_scope) for i in v.items), v.elem, v.not_none)
        return replace(v, elem=_remap(v.elem, depth + 1, scope, paths, caller_scope))
    if isinstance(v, DictV) and v.items is not None:
        return replace(v, elem=_remap(v.elem, depth + 1, scope, paths, caller_scope),
                       items=tuple((k, _remap(i, depth + 1, scope, paths, caller_scope)) for k, i in v.items))
    return v
