"""Custom autograd functions (`class F(torch.autograd.Function)` with static `forward(ctx, ...)` and
`backward(ctx, *grads)`): the bodies autograd runs on the caller's tensors.

Autograd calls `forward` with the tensors `F.apply(...)` received and `backward` with gradients on
the devices of forward's outputs; `ctx.saved_tensors` gives back what forward saved.  So, as a
module's `forward` gets tensors on the module's device, both bodies work on tensors on one device,
the inputs' (checked against torch: autograd on the `meta` device hands `backward` meta gradients
and meta saved tensors).  A tensor either body makes on the CPU and combines with them fails once
the inputs are on a GPU (TP202).
"""
from __future__ import annotations

import ast

from .devices import SELF_DEV
from .values import SeqV, TensorV

#: torch's bases of custom autograd functions (`torch.autograd.Function` is `function.Function`)
FUNCTION_BASES = frozenset({"torch.autograd.Function", "torch.autograd.function.Function",
                            "torch.autograd.function.InplaceFunction"})
#: the static methods autograd calls with the caller's tensors (or their gradients)
FUNCTION_ENTRIES = ("forward", "backward")
_SAVED = ("saved_tensors", "saved_variables")


def is_function_class(bases: list) -> bool:
    """Does one of the evaluated `bases` make the class a custom autograd function (a torch base, or
    a project class that is one)?"""
    for value in bases:
        name = getattr(value, "name", None)
        if isinstance(name, str) and name in FUNCTION_BASES:
            return True
        info = getattr(value, "info", None)
        if info is not None and getattr(info, "autograd_function", False):
            return True
    return False


def function_entry(node, cls) -> bool:
    """Is `node` a static `forward`/`backward` of the custom autograd function `cls`?"""
    return cls is not None and cls.autograd_function and node.name in FUNCTION_ENTRIES and any(
        d.__class__ is ast.Name and d.id == "staticmethod" for d in node.decorator_list)


def takes_ctx(node, cls) -> bool:
    """Does the entry's first parameter receive the context object?  `backward` always does; `forward`
    not where the class defines `setup_context` (the newer style: forward gets only the inputs)."""
    return node.name != "forward" or "setup_context" not in cls.methods


def bind_ctx(env: dict, name: str) -> None:
    """What `ctx.saved_tensors` gives back: tensors on the inputs' device (their number unknown)."""
    for attr in _SAVED:
        env[f"{name}.{attr}"] = SeqV(None, TensorV(SELF_DEV))
