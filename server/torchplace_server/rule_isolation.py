"""Run the engine so that one crashing rule never silences the others.

`check_source` promises not to raise on user input, but a rule is code and code
has bugs.  When it raises, the rule is found in the traceback (the `Rule`
instance whose method was running, or the rule module it came from), recorded,
switched off for this run, and the check is repeated; the other rules still
report.  A crash that cannot be pinned on a rule yields no findings for that
document (and is recorded too) rather than an exception in the server.
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, replace
from typing import Optional

from torchplace_rules import Config, Finding, check_source
from torchplace_rules.rule_base import Rule

_RULES_PACKAGE = "torchplace_rules.rules."


@dataclass(frozen=True)
class RuleCrash:
    """One exception raised inside the engine while checking one file."""

    rule: Optional[str]  # "TP101 mixed-devices", or None when no rule was to blame
    path: str
    error: str
    traceback: str

    def describe(self) -> str:
        who = f"rule {self.rule}" if self.rule else "the torchplace engine"
        return f"{who} crashed on {self.path}: {self.error} (its other findings are still reported)"


def check_with_isolation(text: str, path: Optional[str], config: Config, label: str) -> tuple[list[Finding], list[RuleCrash]]:
    crashes: list[RuleCrash] = []
    cfg = config
    for _ in range(64):
        try:
            return check_source(text, path, cfg), crashes
        except Exception as exc:  # noqa: BLE001 - the point is to survive any bug
            rule = _rule_in_traceback(exc)
            crashes.append(
                RuleCrash(
                    rule=f"{rule.code} {rule.name}" if rule else None,
                    path=label,
                    error=f"{type(exc).__name__}: {exc}",
                    traceback="".join(traceback.format_exception(exc)),
                )
            )
            if rule is None or rule.code in cfg.ignore:
                return [], crashes
            cfg = replace(cfg, ignore=cfg.ignore | {rule.code})
    return [], crashes


def _rule_in_traceback(exc: BaseException) -> Optional[Rule]:
    """The innermost rule on the stack when `exc` was raised."""
    found: Optional[Rule] = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        candidate = frame.f_locals.get("self")
        if isinstance(candidate, Rule):
            found = candidate
        else:
            module = frame.f_globals.get("__name__", "")
            if module.startswith(_RULES_PACKAGE):
                rule = _rule_of_module(module)
                if rule is not None:
                    found = rule
        tb = tb.tb_next
    return found


def _rule_of_module(module: str) -> Optional[Rule]:
    from torchplace_rules.rules import ALL_RULES

    for rule in ALL_RULES:
        if type(rule).__module__ == module:
            return rule
    return None
