"""`apply_fixes` at scale: every fix of 10,000 findings applied in one call, overlapping
fixes left for the next round, and a fix that breaks the code dropped alone.
(Its speed is printed by benchmarks/apply_fixes.py, not timed here.)"""
import ast
import re
import sys
from pathlib import Path

from torchplace_rules import check_source
from torchplace_rules.fixes import apply_fixes
from torchplace_rules.model import Applicability, Edit, Finding, Fix, Severity, Span

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from apply_fixes import program  # noqa: E402


def test_ten_thousand_fixes_apply_in_one_call():
    text = program(10_000)
    findings = check_source(text, "many.py")
    assert len(findings) == 10_000
    new_text, applied = apply_fixes(text, findings)
    assert applied == 10_000
    assert len(re.findall(r"^x(\d+) = x\1\.to\(device\)$", new_text, re.M)) == 10_000
    assert "\nx0.to(device)" not in new_text
    ast.parse(new_text)


def _finding(line: int, col: int, end_col: int, new_text: str) -> Finding:
    span = Span(line, col, line, end_col)
    return Finding("TP201", "discarded-to", Severity.WARNING, "m", span,
                   fix=Fix("t", Applicability.SAFE, (Edit(span, new_text),)))


def test_a_breaking_fix_is_dropped_and_the_others_kept():
    text = "".join(f"x{i}.to(d)\n" for i in range(200))
    findings = [_finding(i, 0, 0, f"x{i} = ") for i in range(200)]
    findings[137] = _finding(137, 0, 0, "x137 = (")  # leaves an open bracket
    new_text, applied = apply_fixes(text, findings)
    assert applied == 199
    assert "x137 = (" not in new_text and new_text.splitlines()[137] == "x137.to(d)"
    assert new_text.splitlines()[138] == "x138 = x138.to(d)"


def test_overlapping_fixes_wait_for_the_next_round():
    text = "a.to(d)\n"
    first = _finding(0, 0, 7, "a = a.to(d)")
    inside = _finding(0, 2, 4, "TO")
    same_point = _finding(0, 0, 0, "# x\n")
    also_same_point = _finding(0, 0, 0, "# y\n")
    new_text, applied = apply_fixes(text, [first, inside, same_point, also_same_point])
    assert applied == 2 and new_text == "# x\na = a.to(d)\n"
