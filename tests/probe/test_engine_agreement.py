"""Closing the loop: what the engine flags statically, the probe sees at run time.

Discovered dynamically: every runnable example in examples/seeds/*.py and every
rule's INVALID example.  Each is probed under the simulated GPU; for each finding:

* an error-severity finding must be where the run fails, with a device error;
* a warning/information finding must show the runtime evidence its rule names
  (a transfer or a sync on the flagged line), or the failure it leads to;
* hints are not observable at run time and are not checked.

Then the engine's fixes are applied and the fixed code must run clean.  Known
disagreements are listed in DISAGREEMENTS with the reason; a new one fails.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import torchplace_rules
from torchplace_probe import ProbeOptions, ProbeSession
from torchplace_rules import Severity, apply_fixes, check_source

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "examples" / "seeds").glob("*.py"))

# case id -> why the probe and the engine disagree (for the report; reviewed by hand).
DISAGREEMENTS: dict[str, str] = {}

# Errors that mean "this example cannot run here", not "the probe disagrees".
NOT_RUNNABLE = ("ModuleNotFoundError", "ImportError", "FileNotFoundError", "NameError", "Timeout", "KernelDied")


def _cases():
    for path in SEEDS:
        yield pytest.param(path.read_text(encoding="utf-8"), None, id=f"seed:{path.stem}")
    for rule in torchplace_rules.ALL_RULES:
        for n, invalid in enumerate(rule.INVALID):
            yield pytest.param(invalid.code, rule.code, id=f"rule:{rule.code}:{n}")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    # Examples may write files (torch.save): they run in a scratch folder.
    cwd = str(tmp_path_factory.mktemp("agreement"))
    s = ProbeSession(ProbeOptions(simulate_gpu="on", timeout=30, cwd=cwd), name="agreement")
    yield s
    s.close()


def _probe(session, code):
    session.reset()
    return session.probe(code)


def _evidence(result, line: int) -> bool:
    rec = result.line(line)
    return bool(rec and (rec.transfers or rec.syncs))


def _device_error_lines(result) -> set:
    """Lines where a device error happened: the failing call chain and errors the code caught."""
    lines = {e["line"] for e in result.device_errors}
    if result.error and result.error.kind == "device-mismatch":
        lines |= set(result.error.stack or [result.error.line])
    return lines


@pytest.mark.parametrize("code, only_rule", list(_cases()))
def test_probe_agrees_with_engine(session, request, code, only_rule):
    case = request.node.callspec.id
    all_findings = check_source(code)
    findings = [f for f in all_findings if only_rule is None or f.code == only_rule]
    result = _probe(session, code)
    if result.error and result.error.type in NOT_RUNNABLE and result.error.kind != "device-mismatch":
        pytest.skip(f"cannot run here: {result.error.type}: {result.error.message[:120]}")
    exercised = [f for f in findings if result.line(f.span.start_line + 1) is not None]
    if findings and not exercised and not result.device_errors:
        pytest.skip("the flagged lines never run in this example (a function or class nobody calls)")
    problems = []
    error_lines = _device_error_lines(result)
    for f in exercised:
        line = f.span.start_line + 1
        if f.severity == Severity.ERROR:
            if line not in error_lines:
                problems.append(f"{f.code} flags line {line}; the probe " + (
                    f"fails at line {result.error.line}: {result.error.message}" if result.error else
                    "sees no device error there"))
        elif f.severity in (Severity.WARNING, Severity.INFORMATION):
            if not (_evidence(result, line) or error_lines):
                problems.append(f"{f.code} flags line {line}; the probe sees no transfer, sync or failure there")
    flagged = {f.span.start_line + 1 for f in all_findings}
    if result.error and result.error.kind == "device-mismatch" and not flagged & set(result.error.stack):
        problems.append(f"the probe fails at line {result.error.line} ({result.error.message}); "
                        "the engine flags no line of that call chain")
    for caught in result.device_errors:
        if caught["line"] not in flagged and not (result.error and caught["message"] == result.error.message):
            problems.append(f"the probe sees {caught['type']} at line {caught['line']} ({caught['message']}); "
                            "the engine flags nothing there")
    fixed, applied = apply_fixes(code, findings, unsafe=True)
    if applied and error_lines:
        after = _probe(session, fixed)
        if after.status != "ok" or after.device_errors:
            where = after.error or (after.device_errors[0] if after.device_errors else None)
            problems.append(f"after the engine's fixes the probe still sees a failure: {where}")
    if case in DISAGREEMENTS:
        if not problems:
            pytest.fail(f"{case} now agrees; remove it from DISAGREEMENTS")
        pytest.xfail(DISAGREEMENTS[case])
    assert not problems, "\n".join(problems)
