"""Module containers a class builds empty and fills (`self.experts = nn.ModuleList()`, then
`expert = MLP(...)` / `self.experts.append(expert)` in a loop): the container holds parameters only
if something put into it does.  Counted as holding some when anything else may fill it (another
method, an index, an element the analysis cannot read)."""
from __future__ import annotations

import ast
from typing import Callable

_FILLS = frozenset({"append", "extend", "insert"})
_OTHER_WRITES = frozenset({"add_module", "register_module", "update", "__setitem__"})


class FilledContainers:
    """Per class scan: the empty containers seen so far and whether what filled them holds state."""

    def __init__(self, relevant: list, has_params: Callable[[ast.AST], bool]) -> None:
        self.has_params = has_params
        self.locals: dict = {}  # a local name of the scanned methods -> the values assigned to it
        for node in relevant:
            if node.__class__ is ast.Assign and len(node.targets) == 1 and node.targets[0].__class__ is ast.Name:
                self.locals.setdefault(node.targets[0].id, []).append(node.value)
        self.holds: dict = {}  # attribute -> does anything put in it so far hold state
        self.read: set = set()  # ids of the fills read

    def start(self, name: str, value) -> bool:
        """`self.<name> = nn.ModuleList()` (no argument): from now on it holds what is put in it.
        (`value` None: another module is bound to the name.)"""
        if value.__class__ is not ast.Call or value.args or value.keywords:
            self.holds.pop(name, None)
            return False
        self.holds[name] = False
        return True

    def fill(self, call: ast.Call) -> "tuple[str, bool] | None":
        """`self.<name>.append(m)` / `.extend([m, ...])` / `.insert(i, m)` of a container started empty:
        (name, whether it now holds state)."""
        owner = call.func.value
        if call.func.attr not in _FILLS or not _self_attribute(owner) or owner.attr not in self.holds or not call.args:
            return None
        self.read.add(id(call))
        item = call.args[-1]
        if call.func.attr == "extend":
            items = item.elts if item.__class__ in (ast.List, ast.Tuple) else \
                [item.elt] if item.__class__ in (ast.ListComp, ast.GeneratorExp) else None
            holds = True if items is None else any(self._holds(e) for e in items)
        else:
            holds = self._holds(item)
        self.holds[owner.attr] = self.holds[owner.attr] or holds
        return owner.attr, self.holds[owner.attr]

    def filled_elsewhere(self, class_node: ast.AST) -> set:
        """Containers started empty that code the scan did not read may fill: another method's
        `self.<name>.append(...)`, `self.<name>[k] = m`, `self.<name>.update(...)`."""
        names = {n for n, holds in self.holds.items() if not holds}
        out = set()
        if not names or class_node is None:
            return out
        for node in ast.walk(class_node):
            if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and id(node) not in self.read \
                    and node.func.attr in _FILLS | _OTHER_WRITES and _self_attribute(node.func.value) \
                    and node.func.value.attr in names:
                out.add(node.func.value.attr)
            elif node.__class__ is ast.Subscript and node.ctx.__class__ is ast.Store and _self_attribute(node.value) \
                    and node.value.attr in names:
                out.add(node.value.attr)
        return out

    def _holds(self, item: ast.AST) -> bool:
        if item.__class__ is ast.Name:
            values = self.locals.get(item.id)
            return True if not values else any(self.has_params(v) for v in values)
        return self.has_params(item)


def _self_attribute(node: ast.AST) -> bool:
    return node.__class__ is ast.Attribute and node.value.__class__ is ast.Name and node.value.id == "self"
