"""`fast_init`: a faster constructor for the frozen dataclasses the analysis makes by the
hundred thousand per run (values, devices).

A frozen dataclass's generated `__init__` sets each field with `object.__setattr__`, and its
`__setattr__` (which raises `FrozenInstanceError`) is Python code that keeps every attribute
store of the class off the interpreter's fast path.  The values are never changed after they
are made (nothing in the engine assigns to one: `dataclasses.replace` makes a new one), so this
constructor stores the fields as plain attributes and the class drops the guard: a third of
the instructions per `TensorV` (callgrind: 7,000 -> 3,200 per construction; the guarded
version that filled the instance dict in one `update` call was 6,400), -1.8 % of a 30-file
cross-file check.  Equality, hashing, `repr` and `replace` are dataclasses' own, unchanged.
Under `python -X dev` (Python's development mode), or with TORCHPLACE_FROZEN_VALUES=1 in the
environment (the test suite sets it and calls `keep_guard`: tests/conftest.py), the guard stays, so a change to a value
raises there as before.
Same signature, same defaults; classes using what it does not handle (default factories,
fields left out of `__init__`, `__post_init__`) keep the generated one, and the guard.
"""
from __future__ import annotations

import dataclasses
import os
import sys

KEEP_GUARD = sys.flags.dev_mode or os.environ.get("TORCHPLACE_FROZEN_VALUES") == "1"
_UNGUARDED: list[tuple] = []  # (class, its fields, its __init__'s doc, the guard's methods) for keep_guard


def fast_init(cls):
    """`cls` with the fast constructor (see the module's docstring), or unchanged where it does not apply."""
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(
            f.default_factory is not dataclasses.MISSING or not f.init or f.kw_only for f in fields):
        return cls
    if KEEP_GUARD:
        cls.__init__ = _guarded_constructor(cls, fields)
        return cls
    doc = cls.__init__.__doc__
    cls.__init__ = _constructor(cls, fields, "".join(f"\n    self.{f.name} = {f.name}" for f in fields), doc)
    guard = {name: cls.__dict__[name] for name in ("__setattr__", "__delattr__") if name in cls.__dict__}
    for name in guard:  # (the frozen dataclass's own: they raise)
        delattr(cls, name)
    _UNGUARDED.append((cls, fields, doc, guard))
    return cls


def keep_guard() -> None:
    """Put the frozen guard back on every class made fast so far (the tests call it before any test runs,
    so that a change to a value raises there).  The guarded constructor is made here, not with the
    class: a `torchplace check` never needs it (each `exec` of generated code costs start-up time)."""
    while _UNGUARDED:
        cls, fields, doc, guard = _UNGUARDED.pop()
        cls.__init__ = _guarded_constructor(cls, fields, doc)
        for name, method in guard.items():
            setattr(cls, name, method)


def _guarded_constructor(cls, fields, doc=None):
    """The constructor that fills the instance dict in one call, past the frozen guard."""
    stores = "\n    self.__dict__.update(" + ", ".join(f"{f.name}={f.name}" for f in fields) + ")"
    return _constructor(cls, fields, stores, cls.__init__.__doc__ if doc is None else doc)


def _constructor(cls, fields, stores: str, doc):
    namespace = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}" for f in fields)
    exec(f"def __init__(self, {params}):{stores}\n", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = doc
    return init
