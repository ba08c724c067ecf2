"""The engine's public data model: findings, fixes and text positions.

Positions are 0-based lines and 0-based columns counted in Unicode code points
(Python string indices).  Editors that count UTF-16 units (LSP) convert at the
edge; the JSON/SARIF writers convert to 1-based.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Optional


class Severity(enum.IntEnum):
    """Same numbering as LSP's DiagnosticSeverity, so the server maps 1:1."""

    ERROR = 1
    WARNING = 2
    INFORMATION = 3
    HINT = 4

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> "Severity":
        key = text.strip().upper()
        aliases = {"INFO": "INFORMATION", "WARN": "WARNING"}
        key = aliases.get(key, key)
        try:
            return cls[key]
        except KeyError:
            raise ValueError(
                f"unknown severity {text!r}: expected error, warning, information or hint"
            ) from None


@dataclass(frozen=True, order=True)
class Span:
    start_line: int
    start_col: int
    end_line: int
    end_col: int


@dataclass(frozen=True)
class Edit:
    """Replace the text in `span` with `new_text` (an insertion has an empty span)."""

    span: Span
    new_text: str


class Applicability(str, enum.Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"


@dataclass(frozen=True)
class Fix:
    title: str
    applicability: Applicability
    edits: tuple[Edit, ...]

    @property
    def is_safe(self) -> bool:
        return self.applicability is Applicability.SAFE


@dataclass(frozen=True)
class Related:
    """A second location that explains a finding ("created on the CPU here")."""

    span: Span
    message: str


@dataclass
class Finding:
    code: str
    name: str
    severity: Severity
    message: str
    span: Span
    related: list[Related] = field(default_factory=list)
    fix: Optional[Fix] = None
    unnecessary: bool = False

    @property
    def sort_key(self) -> tuple:
        return (self.span.start_line, self.span.start_col, self.code)


@dataclass(frozen=True)
class EngineError:
    """A bug inside the engine while checking one file (never the user's fault).

    `rule` is "TP101 mixed-devices" when a rule raised (that rule is switched
    off for the file, the others still report), or None for the analysis core.
    """

    rule: Optional[str]
    path: Optional[str]
    error: str
    traceback: str

    def describe(self) -> str:
        who = f"rule {self.rule}" if self.rule else "the torchplace analysis"
        where = self.path or "<unsaved>"
        return f"{who} crashed on {where}: {self.error}; the other rules still report"
