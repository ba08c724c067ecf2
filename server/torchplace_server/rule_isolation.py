"""Run the engine and collect its crash records, so a crashing rule is logged.

The engine isolates rules itself: a rule that raises loses only its own
findings and is reported as an `EngineError` through `check_source(...,
errors=[...])`.  Here the records are labelled with the document the user sees
(a notebook cell URI rather than a path) for the server's log.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from torchplace_rules import Config, EngineError, Finding, check_source


def check_with_isolation(text: str, path: Optional[str], config: Config, label: str,
                         project=None, memo=None) -> tuple[list[Finding], list[EngineError]]:
    errors: list[EngineError] = []
    findings = check_source(text, path, config, errors=errors, project=project, memo=memo)
    return findings, [replace(e, path=label) for e in errors]
