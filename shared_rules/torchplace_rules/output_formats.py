"""Rendering findings: Ruff-like text, a stable JSON array, SARIF 2.1.0.

A notebook's findings are in its program's lines (`notebook_program`); here
they are shown in their cell's own lines: `nb.ipynb:cell 3:2:5` in text, and a
1-based `"cell"` (counting every cell of the notebook) in JSON and SARIF.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Optional

from .model import Finding, Severity, Span
from .notebook_program import NotebookProgram
from .text_lines import split_lines

VERSION = "0.1.0"


@dataclass
class ReportedFile:
    """One checked file's findings, with what is needed to show them."""

    path: str
    findings: list[Finding]
    text: str = ""  # what was checked (a notebook's program)
    program: Optional[NotebookProgram] = None  # a notebook: where its cells are in `text`

    def locate(self, span: Span) -> tuple[Optional[int], Span]:
        """(1-based cell number or None, the span in that cell's own lines)."""
        if self.program is None:
            return None, span
        cell, local = self.program.local(span)
        return (cell.index + 1 if cell is not None else None), local

    def where(self, span: Span) -> str:
        cell, local = self.locate(span)
        prefix = f"{self.path}:cell {cell}" if cell is not None else self.path
        return f"{prefix}:{local.start_line + 1}:{local.start_col + 1}"

    def line_text(self, span: Span) -> Optional[str]:
        """The source line where `span` starts (the cell's own text for a notebook)."""
        if self.program is None:
            lines = split_lines(self.text)
            return lines[span.start_line] if span.start_line < len(lines) else None
        cell = self.program.cell_at(span.start_line)
        if cell is None:
            return None
        lines = split_lines(cell.text)
        local = span.start_line - cell.first_line
        return lines[local] if local < len(lines) else None


def _pos(span: Span) -> dict:
    return {
        "line": span.start_line + 1,
        "column": span.start_col + 1,
        "end_line": span.end_line + 1,
        "end_column": span.end_col + 1,
    }


def _json_pos(file: ReportedFile, span: Span) -> dict:
    cell, local = file.locate(span)
    return {**_pos(local), "cell": cell} if file.program is not None else _pos(local)


def finding_to_json(file: ReportedFile, f: Finding) -> dict:
    item = {"path": file.path, **_json_pos(file, f.span), "code": f.code, "name": f.name,
            "severity": f.severity.label, "message": f.message,
            "related": [{"path": file.path, **_json_pos(file, r.span), "message": r.message} for r in f.related],
            "fix": None}
    if f.fix is not None:
        item["fix"] = {
            "title": f.fix.title,
            "applicability": f.fix.applicability.value,
            "edits": [{**_json_pos(file, e.span), "new_text": e.new_text} for e in f.fix.edits],
        }
    return item


def render_json(results: Iterable[ReportedFile]) -> str:
    items = [finding_to_json(r, f) for r in results for f in r.findings]
    out: list[str] = []
    try:
        _indented(items, "\n", out)
    except TypeError:  # a value `_indented` does not write: json's own encoder
        return json.dumps(items, indent=2) + "\n"
    out.append("\n")
    return "".join(out)


def _indented(value, newline: str, out: list) -> None:
    """Append `json.dumps(value, indent=2)` to `out` for the JSON a report holds (dicts with str keys,
    lists, str, int, bool, None; TypeError for anything else).  The same text as `json.dumps`, which
    with an indent runs json's pure-Python encoder: 3 % of a `--format json` run over 2,000 files.
    `newline`: a line break and the indentation of `value`'s own line."""
    cls = value.__class__
    if cls is str:
        out.append(_quoted(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif cls is int:
        out.append(int.__repr__(value))
    elif cls is dict or cls is list:
        if not value:
            out.append("{}" if cls is dict else "[]")
            return
        inner = newline + "  "
        out.append("{" if cls is dict else "[")
        separator = inner
        if cls is dict:
            for key, item in value.items():
                if key.__class__ is not str:
                    raise TypeError(key)
                out.append(separator)
                out.append(_quoted(key))
                out.append(": ")
                _indented(item, inner, out)
                separator = "," + inner
        else:
            for item in value:
                out.append(separator)
                _indented(item, inner, out)
                separator = "," + inner
        out.append(newline)
        out.append("}" if cls is dict else "]")
    else:
        raise TypeError(value)


_quoted = json.encoder.encode_basestring_ascii  # (what `json.dumps` writes a str as: ensure_ascii)


def render_text(results: list[ReportedFile], fixable_hint: bool = True, checked_any: bool = True) -> str:
    out: list[str] = []
    counts: Counter[str] = Counter()
    fixable = 0
    for file in results:
        for f in file.findings:
            counts[f.severity.label] += 1
            mark = ""
            if f.fix is not None:
                fixable += f.fix.is_safe
                mark = " [*]" if f.fix.is_safe else " [unsafe fix]"
            out.append(f"{file.where(f.span)}: {f.code} {f.message}{mark}")
            line = file.line_text(f.span)
            if line is not None:
                width = (f.span.end_col if f.span.end_line == f.span.start_line else len(line)) - f.span.start_col
                out.append(f"  | {line}")
                out.append("  | " + " " * f.span.start_col + "^" * max(width, 1))
            for r in f.related:
                out.append(f"  = {file.where(r.span)}: {r.message}")
    total = sum(counts.values())
    if total:
        parts = ", ".join(f"{counts[s.label]} {s.label}" for s in Severity if counts[s.label])
        out.append(f"Found {total} finding{'s' if total != 1 else ''} ({parts}).")
        if fixable and fixable_hint:
            out.append(f"[*] {fixable} fixable with `torchplace check --fix`.")
    elif checked_any:
        out.append("All checks passed!")
    else:
        out.append("No files checked.")
    return "\n".join(out) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


def render_sarif(results: list[ReportedFile], rules: list) -> str:
    def region(file: ReportedFile, span: Span) -> dict:
        cell, span = file.locate(span)
        out = {"startLine": span.start_line + 1, "startColumn": span.start_col + 1,
               "endLine": span.end_line + 1, "endColumn": span.end_col + 1}
        if cell is not None:  # SARIF has no cells: lines are the cell's, the cell a property
            out["properties"] = {"cell": cell}
        return out

    def location(file: ReportedFile, span: Span, message: str | None = None) -> dict:
        loc = {"physicalLocation": {"artifactLocation": {"uri": file.path.replace("\\", "/")}, "region": region(file, span)}}
        cell = file.locate(span)[0]
        if cell is not None:
            loc["properties"] = {"cell": cell}
        if message:
            loc["message"] = {"text": message}
        return loc

    index = {r.code: i for i, r in enumerate(rules)}
    sarif_rules = [{
        "id": r.code, "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": r.summary},
        "help": {"text": r.docs_markdown(), "markdown": r.docs_markdown()},
        "defaultConfiguration": {"level": _SARIF_LEVEL[r.severity]},
        "properties": {"tags": ["pytorch", "device-placement"]},
    } for r in rules]
    sarif_results = []
    for file in results:
        for f in file.findings:
            res = {"ruleId": f.code, "ruleIndex": index.get(f.code, 0), "level": _SARIF_LEVEL[f.severity],
                   "message": {"text": f.message}, "locations": [location(file, f.span)]}
            if f.related:
                res["relatedLocations"] = [dict(location(file, r.span, r.message), id=i) for i, r in enumerate(f.related)]
            if f.fix is not None:
                res["fixes"] = [{"description": {"text": f.fix.title}, "artifactChanges": [{
                    "artifactLocation": {"uri": file.path.replace("\\", "/")},
                    "replacements": [{"deletedRegion": region(file, e.span), "insertedContent": {"text": e.new_text}} for e in f.fix.edits],
                }]}]
            sarif_results.append(res)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "torchplace", "version": VERSION, "rules": sarif_rules}},
                  "results": sarif_results}],
    }
    return json.dumps(doc, indent=2) + "\n"
