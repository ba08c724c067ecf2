"""Rendering findings: Ruff-like text, a stable JSON array, SARIF 2.1.0."""
from __future__ import annotations

import json
from collections import Counter
from typing import Iterable

from .model import Finding, Severity, Span
from .text_lines import split_lines

VERSION = "0.1.0"


def _pos(span: Span) -> dict:
    return {
        "line": span.start_line + 1,
        "column": span.start_col + 1,
        "end_line": span.end_line + 1,
        "end_column": span.end_col + 1,
    }


def finding_to_json(path: str, f: Finding) -> dict:
    item = {"path": path, **_pos(f.span), "code": f.code, "name": f.name,
            "severity": f.severity.label, "message": f.message,
            "related": [{"path": path, **_pos(r.span), "message": r.message} for r in f.related],
            "fix": None}
    if f.fix is not None:
        item["fix"] = {
            "title": f.fix.title,
            "applicability": f.fix.applicability.value,
            "edits": [{**_pos(e.span), "new_text": e.new_text} for e in f.fix.edits],
        }
    return item


def render_json(results: Iterable[tuple[str, list[Finding]]]) -> str:
    return json.dumps([finding_to_json(p, f) for p, fs in results for f in fs], indent=2) + "\n"


def render_text(results: list[tuple[str, list[Finding]]], sources: dict[str, str], fixable_hint: bool = True) -> str:
    out: list[str] = []
    counts: Counter[str] = Counter()
    fixable = 0
    for path, findings in results:
        lines = split_lines(sources.get(path, ""))
        for f in findings:
            counts[f.severity.label] += 1
            mark = ""
            if f.fix is not None:
                fixable += f.fix.is_safe
                mark = " [*]" if f.fix.is_safe else " [unsafe fix]"
            out.append(f"{path}:{f.span.start_line + 1}:{f.span.start_col + 1}: {f.code} {f.message}{mark}")
            if f.span.start_line < len(lines):
                line = lines[f.span.start_line].rstrip("\n")
                width = (f.span.end_col if f.span.end_line == f.span.start_line else len(line)) - f.span.start_col
                out.append(f"  | {line}")
                out.append("  | " + " " * f.span.start_col + "^" * max(width, 1))
            for r in f.related:
                out.append(f"  = {path}:{r.span.start_line + 1}:{r.span.start_col + 1}: {r.message}")
    total = sum(counts.values())
    if total:
        parts = ", ".join(f"{counts[s.label]} {s.label}" for s in Severity if counts[s.label])
        out.append(f"Found {total} finding{'s' if total != 1 else ''} ({parts}).")
        if fixable and fixable_hint:
            out.append(f"[*] {fixable} fixable with `torchplace check --fix`.")
    else:
        out.append("All checks passed!")
    return "\n".join(out) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFORMATION: "note", Severity.HINT: "note"}


def render_sarif(results: list[tuple[str, list[Finding]]], rules: list) -> str:
    def region(span: Span) -> dict:
        return {"startLine": span.start_line + 1, "startColumn": span.start_col + 1,
                "endLine": span.end_line + 1, "endColumn": span.end_col + 1}

    def location(path: str, span: Span, message: str | None = None) -> dict:
        loc = {"physicalLocation": {"artifactLocation": {"uri": path.replace("\\", "/")}, "region": region(span)}}
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
    for path, findings in results:
        for f in findings:
            res = {"ruleId": f.code, "ruleIndex": index.get(f.code, 0), "level": _SARIF_LEVEL[f.severity],
                   "message": {"text": f.message}, "locations": [location(path, f.span)]}
            if f.related:
                res["relatedLocations"] = [dict(location(path, r.span, r.message), id=i) for i, r in enumerate(f.related)]
            if f.fix is not None:
                res["fixes"] = [{"description": {"text": f.fix.title}, "artifactChanges": [{
                    "artifactLocation": {"uri": path.replace("\\", "/")},
                    "replacements": [{"deletedRegion": region(e.span), "insertedContent": {"text": e.new_text}} for e in f.fix.edits],
                }]}]
            sarif_results.append(res)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "torchplace", "version": VERSION, "rules": sarif_rules}},
                  "results": sarif_results}],
    }
    return json.dumps(doc, indent=2) + "\n"
