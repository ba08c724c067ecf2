"""Tests on a class the project handed in: `layer.__bases__[0] is nn.modules.conv._ConvNd`,
`issubclass(layer, nn.modules.conv._ConvNd)`.  A module class of the project whose bases lead, one
each, to `torch.nn.Module` is no torch class and derives from no torch class but `nn.Module` (and
`object`), so such a test of it is decided: a wrapper that pads a convolution it is handed does not
build the padding for a class of its own (`HEALPixLayer(layer=MulX)`).

What torch says (truth rows in tests/engine/test_truth_table.py): no name under `torch` other than
`Module` is bound to `nn.Module`, and none under `torch.nn` is bound to `object`."""
from __future__ import annotations

import ast
from typing import Optional

from .values import UNKNOWN, ClassV

_MODULE_NAMES = ("torch.nn.Module", "torch.nn.modules.module.Module", "torch.nn.modules.Module")


def class_test_answer(ev, test) -> Optional[bool]:
    """`C.__bases__[0] is T` / `is not T`, `issubclass(C, T)`: True or False where `C` is a project
    module class of single bases down to `torch.nn.Module` and `T` a class of torch named by its
    qualified name; None otherwise (also for a name rebound here)."""
    if test.__class__ is ast.Compare and len(test.ops) == 1 and test.ops[0].__class__ in (ast.Is, ast.IsNot):
        left, right = test.left, test.comparators[0]
        if not (left.__class__ is ast.Subscript and left.value.__class__ is ast.Attribute
                and left.value.attr == "__bases__" and left.slice.__class__ is ast.Constant and left.slice.value == 0):
            return None
        chain = _single_base_chain(ev.eval(left.value.value))
        kind = ev.qualname(right)
        if chain is None or not kind or not kind.startswith("torch.") or kind.rsplit(".", 1)[1] == "Module" \
                and kind not in _MODULE_NAMES:
            return None
        same = len(chain) == 1 and kind in _MODULE_NAMES  # (a project base is no torch object)
        return same if test.ops[0].__class__ is ast.Is else not same
    if test.__class__ is ast.Call and test.func.__class__ is ast.Name and test.func.id == "issubclass" \
            and len(test.args) == 2 and not test.keywords and ev.lookup("issubclass") is UNKNOWN:
        chain = _single_base_chain(ev.eval(test.args[0]))
        kind = ev.qualname(test.args[1])
        if chain is None or not kind or not kind.startswith("torch.nn.") \
                or kind.rsplit(".", 1)[1] == "Module" and kind not in _MODULE_NAMES:
            return None
        return kind in _MODULE_NAMES
    return None


def _single_base_chain(value) -> Optional[list]:
    """The project classes from `value` up through their one base each, when the last one's only
    base is `torch.nn.Module`; None for anything else (several bases, a base not resolved, a class
    of torch or of a library)."""
    if value.__class__ is not ClassV:
        return None
    chain = []
    info = value.info
    while True:
        node = info.node
        if not info.is_module or not info.plain_bases or info.unresolved_base or node is None \
                or len(node.bases) != 1 or node.keywords or len(chain) > 8:
            return None
        chain.append(info)
        if not info.bases:
            return chain  # (plain, a module, one base, none of the project: `torch.nn.Module`)
        info = info.bases[0]
