"""Run the engine so that one crashing rule never silences the others.

Engines that isolate rules themselves report crashes through
`check_source(..., errors=[...])` (`EngineError`s); those are collected here.
For an exception that still escapes `check_source`, the rule is found in the traceback (the `Rule`
instance whose method was running, or the rule module it came from), recorded,
switched off for this run, and the check is repeated; the other rules still
report.  A crash that cannot be pinned on a rule yields no findings for that
document (and is recorded too) rather than an exception in the server.
"""
from __future__ import annotations

import inspect
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
        if self.rule:
            return f"rule {self.rule} crashed on {self.path}: {self.error} (the other rules still report)"
        return f"the torchplace engine crashed on {self.path}: {self.error} (no findings for this file)"


_REPORTS_ERRORS = "errors" in inspect.signature(check_source).parameters


def _check(text: str, path: Optional[str], config: Config, label: str, crashes: list[RuleCrash],
           project=None) -> list[Finding]:
    if not _REPORTS_ERRORS:
        return check_source(text, path, config)
    errors: list = []
    findings = check_source(text, path, config, errors=errors, project=project)
    for e in errors:
        crashes.append(RuleCrash(rule=e.rule, path=label, error=e.error, traceback=e.traceback))
    return findings


def check_with_isolation(text: str, path: Optional[str], config: Config, label: str,
                         project=None) -> tuple[list[Finding], list[RuleCrash]]:
    crashes: list[RuleCrash] = []
    cfg = config
    for _ in range(64):
        try:
            return _check(text, path, cfg, label, crashes, project), crashes
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
