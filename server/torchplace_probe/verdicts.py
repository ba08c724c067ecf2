"""Static findings checked against what the probe saw: one loop between the two analyses.

Why: the engine proves from the source; the probe watches one real run.  After a
probe, each static finding on a line that ran is *confirmed* (the run failed there,
or its root cause is there, or it shows the copy or sync the rule is about) or
*not reproduced* (the line ran on the GPU, simulated or real, without it).  A device
error that no static finding explains is a *miss*: `torchplace probe --report-miss`
turns it into a corpus case.  Host side: no torch, no editor code.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .result import ProbeResult

CONFIRMED = "confirmed"
NOT_REPRODUCED = "not-reproduced"
# What a run cannot show either way: syntax, a checkpoint's origin, pinned-memory flags, hints.
NOT_OBSERVABLE = frozenset({"TP001", "TP204", "TP401", "TP403"})
# Rules about wasted copies and syncs: the run shows them as transfers and syncs on the line.
COST_RULES = frozenset({"TP301", "TP302", "TP402"})
FINISHED = ("ok", "error", "error-above")


@dataclass
class StaticFinding:
    """One engine finding, placed where the probe counts lines (cell None: a `# %%` document line)."""

    line: int  # 1-based
    code: str
    severity: str  # error | warning | information | hint
    message: str
    cell: Optional[int] = None
    verdict: Optional[str] = None

    def to_json(self) -> dict:
        return {"line": self.line, "cell": self.cell, "code": self.code, "severity": self.severity,
                "message": self.message, "verdict": self.verdict}


def evidence_lines(result: ProbeResult) -> set:
    """Lines of the probed cell where a device error showed: the failing call chain, its root
    cause, errors the cell caught, and moves whose copy was dropped unused."""
    lines = {e["line"] for e in result.device_errors if e.get("line")}
    error = result.error
    if error is not None and error.kind == "device-mismatch" and error.cell in (None, result.cell):
        lines |= set(error.stack or ([error.line] if error.line else []))
        cause = error.root_cause or {}
        if cause.get("line") and not cause.get("file") and cause.get("cell", result.cell) == result.cell:
            lines.add(cause["line"])
    for rec in result.lines:
        if getattr(rec, "discarded_moves", 0):
            lines.add(rec.line)
    return lines


def judge(result: ProbeResult, finding: StaticFinding, evidence: set) -> Optional[str]:
    if finding.code in NOT_OBSERVABLE or finding.severity == "hint":
        return None
    if finding.cell is not None and finding.cell != result.cell:
        return None
    rec = result.line(finding.line)
    if finding.line in evidence:
        return CONFIRMED
    if finding.code in COST_RULES and rec is not None and (rec.transfers or rec.syncs):
        return CONFIRMED
    if rec is None or not rec.hits or result.status not in FINISHED:
        return None
    if result.error is not None and result.error.line == finding.line:
        return None  # the line raised something else: it did not finish
    return NOT_REPRODUCED


def apply(result: ProbeResult, findings: Sequence[StaticFinding]) -> list:
    """Give each finding its verdict; mark the result's device error when no finding explains it."""
    evidence = evidence_lines(result)
    for finding in findings:
        finding.verdict = judge(result, finding, evidence)
    error = result.error
    if error is not None and error.kind == "device-mismatch" and error.cell in (None, result.cell):
        chain = set(error.stack or []) | ({error.line} if error.line else set())
        cause = (error.root_cause or {}).get("line")
        if cause and not (error.root_cause or {}).get("file"):
            chain.add(cause)
        explained = any(f.line in chain and f.cell in (None, result.cell) and f.severity != "hint" for f in findings)
        error.static_finding = explained
    result.static_findings = [f.to_json() for f in findings]
    return list(findings)


def static_findings(document, path: Optional[str] = None) -> list:
    """The engine's findings for a `# %%` text (document lines) or a notebook's cells (cell lines)."""
    from torchplace_rules import check_source

    def convert(found, cell=None, offset=0):
        return [StaticFinding(f.span.start_line + 1 - offset, f.code, f.severity.name.lower(), f.message, cell)
                for f in found]

    if isinstance(document, str):
        return convert(check_source(document, path))
    document = [item if isinstance(item, str) else (item[0] if item[1] else "") for item in document]
    from torchplace_rules.text_lines import split_lines

    joined, starts, line = [], [], 0
    for source in document:
        starts.append(line)
        text = source if source.endswith(("\n", "\r")) else source + "\n"
        joined.append(text)
        line += max(len(split_lines(text)), 1)
    findings = []
    for f in check_source("".join(joined), path):
        row = f.span.start_line
        cell = max(i for i, start in enumerate(starts) if start <= row)
        findings += convert([f], cell, starts[cell])
    return findings
