"""A probe result as LSP diagnostics, placed on the URIs the editor shows.

Why: one probe speaks about several places — the probed cell's lines, the line of a
device error's root cause (maybe in another cell or file), cells above that
raised — and about the engine's findings there (verdicts).  This module turns a
`ProbeResult` into diagnostics per URI; it is imported only inside the server
(lsprotocol), never by the probe's host library.
"""
from __future__ import annotations

from typing import Any, Optional

from lsprotocol import types
from pygls import uris as lsp_uris
from torchplace_rules.text_lines import split_lines

from .result import ProbeResult

SOURCE = "torchplace probe"
SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning,
            "information": types.DiagnosticSeverity.Information, "hint": types.DiagnosticSeverity.Hint}


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class Placement:
    """Where the probe's lines are: 1-based probe lines (and cells, files) -> (URI, 0-based line)."""

    def __init__(self, request: Any, texts: Optional[dict] = None) -> None:
        self.request = request
        self.notebook = bool(request.notebook_uri)
        self.texts = dict(texts or {})  # uri -> text, for ranges
        self.texts.setdefault(request.uri, request.text)

    def place(self, line: Optional[int], cell: Optional[int] = None, file: Optional[str] = None):
        """(uri, 0-based line) of a probe line, or None when the editor has no such place."""
        if line is None or line < 1:
            return None
        if file:
            return lsp_uris.from_fs_path(file), line - 1
        if self.notebook and cell is not None:
            cells = self.request.cell_uris
            return (cells[cell], line - 1) if 0 <= cell < len(cells) else None
        return self.request.uri, line - 1

    def range(self, uri: str, line: int) -> types.Range:
        text = self.texts.get(uri)
        lines = split_lines(text) if text is not None else []
        if 0 <= line < len(lines):
            content = lines[line]
            start = _utf16_len(content) - _utf16_len(content.lstrip())
            return types.Range(types.Position(line, start), types.Position(line, _utf16_len(content.rstrip())))
        return types.Range(types.Position(line, 0), types.Position(line, 0))


def _add(out: dict, placement: Placement, where, message: str, severity, code: str,
         related: Optional[list] = None) -> None:
    if where is None:
        return
    uri, line = where
    out.setdefault(uri, []).append(types.Diagnostic(
        range=placement.range(uri, line), message=message, severity=severity, source=SOURCE, code=code,
        related_information=related or None))


def diagnostics_by_uri(result: ProbeResult, placement: Placement) -> dict:
    """uri -> the probe's diagnostics there."""
    out: dict = {placement.request.uri: []}
    sim = " (simulated GPU)" if result.simulated else ""
    cell = result.cell
    for rec in result.lines:
        label = rec.label()
        if label:
            _add(out, placement, placement.place(rec.line, cell), label, types.DiagnosticSeverity.Information, "probe")
    error = result.error
    reported = set()
    if error is not None and error.cell in (None, cell):
        cause = error.root_cause or {}
        cause_at = placement.place(cause.get("line"), cause.get("cell", cell), cause.get("file"))
        related = None
        if cause_at is not None:
            related = [types.DiagnosticRelatedInformation(
                location=types.Location(uri=cause_at[0], range=placement.range(*cause_at)),
                message=f"root cause: {error.root_cause_text()}")]
        missed = " — no static finding explains this error" if error.static_finding is False else ""
        # A cancel or a timeout is not a bug of that line: say where the run stopped, without a red squiggle.
        severity = (types.DiagnosticSeverity.Information if error.kind in ("cancelled", "timeout", "interrupted")
                    else types.DiagnosticSeverity.Error)
        _add(out, placement, placement.place(error.line, cell), f"{error.type}: {error.message}{sim}{missed}",
             severity, error.kind, related)
        if cause_at is not None and cause_at != placement.place(error.line, cell):
            at_error = placement.place(error.line, cell)
            back = [types.DiagnosticRelatedInformation(
                location=types.Location(uri=at_error[0], range=placement.range(*at_error)),
                message=f"{error.type}: {error.message}")] if at_error else None
            _add(out, placement, cause_at, f"root cause of the device error at line {error.line}: "
                 f"{error.root_cause_text().split(': ', 1)[-1]}{sim}", types.DiagnosticSeverity.Warning,
                 "probe-root-cause", back)
        reported.add(error.message)
    for caught in result.device_errors:
        if caught["message"] not in reported:
            _add(out, placement, placement.place(caught["line"], cell),
                 f"{caught['type']} (caught by the cell): {caught['message']}{sim}",
                 types.DiagnosticSeverity.Warning, "device-mismatch")
    for above in result.above_errors:
        where = placement.place(above.get("line"), above["cell"])
        _add(out, placement, where, f"{above['type']} in cell {above['cell'] + 1}, which ran before the probed cell: "
             f"{above['message']}", types.DiagnosticSeverity.Warning, "probe-cell-above")
    return out


def verdicts_by_place(result: ProbeResult, placement: Placement) -> dict:
    """(uri, 0-based line, code) -> verdict, for the engine's findings the probe judged."""
    found = {}
    for finding in result.static_findings:
        verdict = finding.get("verdict")
        where = placement.place(finding["line"], finding.get("cell"))
        if verdict and where is not None:
            found[(where[0], where[1], finding["code"])] = verdict
    return found


def summary_message(result: ProbeResult, label: str) -> str:
    head = {"ok": "ran clean", "error": "raised", "error-above": "a cell above raised",
            "timeout": "timed out", "cancelled": "was cancelled", "kernel-died": "crashed the kernel",
            "setup-error": "could not run"}.get(result.status, result.status)
    text = f"torchplace probe: {label} {head}"
    if result.error is not None:
        at = f" at line {result.error.line}" if result.error.line else ""
        text += f"{at}: {result.error.type}: {result.error.message}"
        if result.error.root_cause_text():
            text += f" (root cause: {result.error.root_cause_text()})"
    if result.above_errors:
        first = result.above_errors[0]
        text += f"; cell {first['cell'] + 1} above raised {first['type']}"
    if result.status not in ("setup-error",):
        text += f" — {result.summary()}"
    return text
