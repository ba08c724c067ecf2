"""A project class's iteration protocol, run as Python runs it.

`for batch in loader`, `enumerate(loader)`, `zip(...)`, a comprehension, `iter(obj)` and `next(obj)` over an
instance of a class of the project call its `__iter__` (and the `__next__` of the iterator that returns):
a hand-written loader (`__iter__` returning an iterator object, `return self`, a generator `__iter__`
that yields moved batches, `return iter(self.loader)`) gives the batches those methods give, where
before each loop step was unknown (torchkge's `DataLoader(use_cuda='all')`, corpus batch b25).
Nothing changes for other values: the cost is one class test per loop.
"""
from __future__ import annotations

import ast
from typing import Optional

from .project_calls import call_method, find_method
from .values import UNKNOWN, EnumerateV, ObjectV, SelfV, SeqV, Value, ZipV

_INSTANCES = (ObjectV, SelfV)


def protocol_iterable(ev, node: ast.AST, value: Value) -> Value:
    """What `for _ in <node>` walks, where `value` is what `node` evaluated to: for an instance whose
    class defines `__iter__`, what that returns (a sequence of what `__next__` returns for an iterator
    object); inside `enumerate(...)`/`zip(...)` the same for what they wrap; else `value` itself."""
    kind = value.__class__
    if kind is EnumerateV or kind is ZipV:
        if node.__class__ is not ast.Call or node.keywords:
            return value
        if kind is EnumerateV:
            if not node.args:
                return value
            inner = protocol_iterable(ev, node.args[0], value.inner)
            return value if inner is value.inner else EnumerateV(inner)
        if len(node.args) != len(value.inner):
            return value
        parts = tuple(protocol_iterable(ev, a, v) for a, v in zip(node.args, value.inner))
        return value if parts == value.inner else ZipV(parts)
    if kind not in _INSTANCES:
        return value
    iterator = _protocol_call(ev, node, value, "__iter__", ev.path_of(node))
    if iterator is None:
        return value
    if iterator.__class__ in _INSTANCES:
        step = next_value(ev, node, iterator, same=iterator.info is value.info)
        return SeqV(None, step) if step is not None else UNKNOWN
    return iterator


def next_value(ev, node: ast.AST, value: Value, same: bool = True) -> Optional[Value]:
    """`next(obj)` for an instance whose class defines `__next__`: what that returns (None: no such
    method).  `same`: `obj` is what `node` names (its attributes the call sets are kept there)."""
    if value.__class__ not in _INSTANCES:
        return None
    if value.__class__ is SelfV and not same:
        value = ObjectV(value.info, value.key, value.attrs or ())  # (an iterator `__iter__` made and returned)
    return _protocol_call(ev, node, value, "__next__", ev.path_of(node) if same else None)


def _protocol_call(ev, node: ast.AST, value: Value, name: str, path: Optional[str]) -> Optional[Value]:
    """`<value>.<name>()` for the method `name` of the instance's class (None where it defines none);
    `path`: where the caller holds the instance (None: a temporary)."""
    method = find_method(value, name)
    if method is None:
        return None
    return call_method(ev, _call_node(node, name), method[0], method[1], value, path, evaluated=([], {}), arg_nodes=[])


def _call_node(node: ast.AST, name: str) -> ast.Call:
    """The call `node.<name>()` Python makes, one per node and name (a stable node: contexts and
    findings are keyed by call nodes), placed where `node` is.  Its receiver is a twin of `node` over
    the same children, not `node` itself, which keeps it (no reference cycle through the tree)."""
    calls = node.__dict__.setdefault("_tp_protocol_calls", {})
    call = calls.get(name)
    if call is None:
        twin = ast.copy_location(node.__class__(**{f: getattr(node, f, None) for f in node._fields}), node)
        call = ast.Call(func=ast.copy_location(ast.Attribute(value=twin, attr=name, ctx=ast.Load()), node),
                        args=[], keywords=[])
        calls[name] = ast.copy_location(call, node)
    return call
