"""The rule catalog: every rule module in this package, in code order."""
from __future__ import annotations

import importlib
import pkgutil

from ..rule_base import Rule


def _discover() -> list[Rule]:
    found: list[Rule] = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, Rule) and value is not Rule and value.__module__ == module.__name__:
                found.append(value())
    found.sort(key=lambda r: r.code)
    codes = [r.code for r in found]
    assert len(codes) == len(set(codes)), f"duplicate rule codes: {codes}"
    return found


ALL_RULES: list[Rule] = _discover()
RULES_BY_CODE: dict[str, Rule] = {r.code: r for r in ALL_RULES}
RULES_BY_NAME: dict[str, Rule] = {r.name: r for r in ALL_RULES}
SYNTAX_ERROR: Rule = RULES_BY_CODE["TP001"]
# Rules the device-flow analysis drives (TP001 comes from the parser).
ACTIVE_RULES: list[Rule] = [r for r in ALL_RULES if r is not SYNTAX_ERROR]


def get_rule(code_or_name: str) -> Rule:
    key = code_or_name.strip()
    rule = RULES_BY_CODE.get(key.upper()) or RULES_BY_NAME.get(key.lower())
    if rule is None:
        raise KeyError(f"unknown rule {code_or_name!r}; `torchplace rules` lists them")
    return rule


def explain(code_or_name: str) -> str:
    return get_rule(code_or_name).docs_markdown()
