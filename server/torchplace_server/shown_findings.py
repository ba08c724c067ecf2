"""What each document shows: its analysis, made calm while the user types.

Typing `loss.` leaves the file unparsable until the expression is complete; the
engine then has nothing but one syntax error (TP001) to say.  Showing that
would replace every finding in the file with one red line for a moment, again
and again.  Instead, while a document (or notebook cell) does not parse:

- the findings of its last parsable version stay, for the lines the edits did
  not touch (the common first and last lines of the two texts), moved by the
  change in line count; those carried findings offer no fix (it was computed
  for another text), but "Ignore" still works;
- the syntax error itself is shown only once the text has stayed unparsable
  for `syntaxErrorDelay` (1 s) after its last change, and never when
  `reportSyntaxErrors` is off (clients whose own parser already reports it).

`reveal_in(uri)` says when a withheld syntax error is due, so the diagnostics
module can publish again (push) or ask the client to pull again (pull).
"""
from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Optional

from torchplace_rules import Span
from torchplace_rules.incremental_parse import line_map

from .analysis_service import SYNTAX_CODE, Analysis, CellPart, PlacedFinding
from .text_positions import lsp_lines

if TYPE_CHECKING:
    from .server import TorchplaceServer


class ShownFindings:
    """Per document: its last parsable findings and when it last changed."""

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self._good: dict[str, tuple[str, list[PlacedFinding]]] = {}  # uri -> (text, findings) when it last parsed
        self._changed_at: dict[str, float] = {}

    def document_changed(self, uri: str) -> None:
        self._changed_at[uri] = time.monotonic()

    def forget(self, uris) -> None:
        for uri in uris:
            self._good.pop(uri, None)
            self._changed_at.pop(uri, None)

    def findings(self, analysis: Analysis, uri: str) -> list[PlacedFinding]:
        placed = analysis.placed(uri)
        part = analysis.unit.part_for_uri(uri)
        if part is None:
            return placed
        if part.uri not in analysis.broken_uris:
            self._good[part.uri] = (part.text, placed)
            return placed
        carried = self._carry(part)
        if self._syntax_error_due(part.uri) > 0:
            return carried
        return carried + [pf for pf in placed if pf.finding.code == SYNTAX_CODE]

    def reveal_in(self, analysis: Analysis, uri: str) -> Optional[float]:
        """Seconds until the withheld syntax error of `uri` is due; None when none is withheld."""
        part = analysis.unit.part_for_uri(uri)
        if part is None or part.uri not in analysis.broken_uris:
            return None
        due = self._syntax_error_due(part.uri)
        return due if 0 < due < float("inf") else None

    def result_id(self, analysis: Analysis, uri: str, extra: str = "") -> str:
        """Names what a pull of `uri` shows; `extra` is what else shows there (the probe's verdicts)."""
        digest = hashlib.sha1((repr(analysis.config) + extra).encode())
        for pf in self.findings(analysis, uri):
            f = pf.finding
            digest.update(repr((f.code, int(f.severity), f.message, pf.span, f.unnecessary,
                                [(p.uri, s, m) for p, s, m in pf.related], pf.edits is not None)).encode())
        return digest.hexdigest()[:16]

    # -- internals ------------------------------------------------------------
    def _syntax_error_due(self, uri: str) -> float:
        """Seconds until a syntax error in `uri` may be shown (0: now); infinite when it never may."""
        settings = self.server.settings
        if not settings.report_syntax_errors:
            return float("inf")
        changed = self._changed_at.get(uri)
        if changed is None:  # opened like this: say so at once
            return 0.0
        return max(0.0, changed + settings.syntax_error_delay_s - time.monotonic())

    def _carry(self, part: CellPart) -> list[PlacedFinding]:
        good = self._good.get(part.uri)
        if good is None:
            return []
        old_text, old_findings = good
        lines = line_map(lsp_lines(old_text), lsp_lines(part.text))

        def moved(span: Span) -> Optional[Span]:
            start, end = lines.line(span.start_line), lines.line(span.end_line)
            if start is None or end is None or end - start != span.end_line - span.start_line:
                return None
            return Span(start, span.start_col, end, span.end_col)

        out = []
        for pf in old_findings:
            if pf.finding.code == SYNTAX_CODE:
                continue
            span = moved(pf.span)
            if span is None:
                continue
            related = []
            for rpart, rspan, message in pf.related:
                rmoved = moved(rspan) if rpart.uri == part.uri else None
                if rmoved is not None:
                    related.append((part, rmoved, message))
            out.append(PlacedFinding(pf.finding, part, span, related, None))
        return out
