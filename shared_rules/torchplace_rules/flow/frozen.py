"""`fast_init`: a faster constructor for the frozen dataclasses the analysis makes by the
hundred thousand per run (values, devices).

A frozen dataclass's generated `__init__` sets each field with `object.__setattr__`; this one
fills the instance's dict in one call (about twice as fast for `TensorV`'s eleven fields).
Same signature, same defaults; classes using what it does not handle (default factories,
fields left out of `__init__`, `__post_init__`) keep the generated one.
"""
from __future__ import annotations

import dataclasses


def fast_init(cls):
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(
            f.default_factory is not dataclasses.MISSING or not f.init or f.kw_only for f in fields):
        return cls
    namespace = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}" for f in fields)
    stores = ", ".join(f"{f.name}={f.name}" for f in fields)
    exec(f"def __init__(self, {params}):\n    self.__dict__.update({stores})\n", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init
    return cls
