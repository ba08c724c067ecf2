"""What every rule file declares: identity, four-part docs, and its own proof.

A rule is a class in one file under `torchplace_rules/rules/`.  It carries its
code (`TP###`), kebab-case name, severity, docs in Ruff's four parts and the
VALID/INVALID examples that the test-suite runs (Fixit's style).  Detection
happens in `on_<event>` methods that the device-flow analysis calls.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import ClassVar, Optional

from .model import Severity


@dataclass(frozen=True)
class Invalid:
    """An example the rule must flag.

    `line` is the 1-based line the finding starts on; `fixed`, when given, is
    the exact text after applying this rule's fixes (safe and unsafe).
    """

    code: str
    line: Optional[int] = None
    fixed: Optional[str] = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", textwrap.dedent(self.code).lstrip("\n"))
        if self.fixed is not None:
            object.__setattr__(self, "fixed", textwrap.dedent(self.fixed).lstrip("\n"))


def valid(code: str) -> str:
    return textwrap.dedent(code).lstrip("\n")


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    summary: ClassVar[str]
    what_it_does: ClassVar[str]
    why_bad: ClassVar[str]
    example: ClassVar[str]
    fix_doc: ClassVar[str]
    fix_safety: ClassVar[str] = "This rule has no automatic fix."
    # What the analysis must have proven before it reports, and what it leaves alone: an error is a
    # fact on every path, a warning a proven hazard, a hint says "may".
    when_it_reports: ClassVar[str] = ""
    VALID: ClassVar[list[str]] = []
    INVALID: ClassVar[list[Invalid]] = []

    def docs_markdown(self) -> str:
        """The single source for `torchplace explain`, hover text and docs pages."""
        parts = [
            f"# {self.name} ({self.code})",
            f"Severity: {self.severity.label}",
            "## What it does",
            _dedent(self.what_it_does),
            "## Why is this bad?",
            _dedent(self.why_bad),
            *(["## When it reports", _dedent(self.when_it_reports)] if self.when_it_reports else []),
            "## Example",
            "```python\n" + _dedent(self.example) + "\n```",
            "## Fix",
            _dedent(self.fix_doc),
            "Fix safety: " + _dedent(self.fix_safety),
        ]
        return "\n\n".join(parts) + "\n"


def _dedent(text: str) -> str:
    return textwrap.dedent(text).strip("\n")
