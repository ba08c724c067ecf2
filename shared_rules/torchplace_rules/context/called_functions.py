"""The functions a call by name reaches from a file's code: its own module-level functions and the
project functions it imports, for rules that follow an argument into the function it is handed
(`host_uses`: a tensor only read on the host there never meets the weights)."""
from __future__ import annotations

import ast
from typing import Optional

from ..flow.cross_file import LazyImportV, ProjectModuleV, resolved
from ..flow.values import FuncV
from .scopes import top_level_functions


class CalledFunctions:
    """By name (`name in it`, `it[name]`: the function's node): one file's module-level functions, and
    the project functions it imports (`from pkg.util import add_boundary`), looked up on first ask.
    `inside(name)`: what a call by name reaches inside the function given under `name`."""

    def __init__(self, ev, own: dict, env: dict) -> None:
        self._ev, self._own, self._env, self._imported = ev, own, env, {}

    def __contains__(self, name: str) -> bool:
        return name in self._own or self._import(name) is not None

    def __getitem__(self, name: str) -> ast.AST:
        own = self._own.get(name)
        return own if own is not None else self._import(name).node

    def __bool__(self) -> bool:
        return True

    @classmethod
    def of_file(cls, ev, home) -> "CalledFunctions":
        """What a call by name reaches in the checked file (`home` None) or in another file (its summary)."""
        if home is None:
            return cls(ev, top_level_functions(ev.tree), ev.module_env)
        own = {n: v.node for n, v in home.env.items() if v.__class__ is FuncV and v.owner is None and v.home is home}
        return cls(ev, own, home.env)

    def inside(self, name: str) -> "CalledFunctions":
        return self if name in self._own else CalledFunctions.of_file(self._ev, self._import(name).home)

    def in_module(self, module: str, name: str) -> Optional[ast.AST]:
        """`module.name(...)` where `module` is an imported project module (`from pkg import utils`):
        the node of its module-level function `name`, or None."""
        found = self._member(module, name)
        return found.node if found is not None else None

    def inside_module(self, module: str, name: str) -> "CalledFunctions":
        return CalledFunctions.of_file(self._ev, self._member(module, name).home)

    def _member(self, module: str, name: str) -> Optional[FuncV]:
        key = (module, name)
        if key not in self._imported:
            value = self._env.get(module)
            value = resolved(self._ev, value) if type(value) is LazyImportV else value
            member = value.member(self._ev, name) if value.__class__ is ProjectModuleV else None
            found = member.__class__ is FuncV and member.home is not None and member.owner is None \
                and member.scope is None and isinstance(member.node, (ast.FunctionDef, ast.AsyncFunctionDef))
            self._imported[key] = member if found else None
        return self._imported[key]

    def _import(self, name: str) -> Optional[FuncV]:
        """The imported project function `name` is bound to (not a method, not a nested one), or None."""
        if name not in self._imported:
            value = self._env.get(name)
            value = resolved(self._ev, value) if type(value) is LazyImportV else value
            found = value.__class__ is FuncV and value.home is not None and value.owner is None \
                and value.scope is None and isinstance(value.node, (ast.FunctionDef, ast.AsyncFunctionDef))
            self._imported[name] = value if found else None
        return self._imported[name]
