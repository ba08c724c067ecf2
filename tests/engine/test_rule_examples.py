"""Every rule proves itself: its VALID examples are clean of it, its INVALID
examples are flagged on the stated line, and its fixes give the stated text."""
import pytest

from torchplace_rules import ALL_RULES, Config, apply_fixes, check_source
from torchplace_rules.fixes import parses

CASES_VALID = [(r.code, i, code) for r in ALL_RULES for i, code in enumerate(r.VALID)]
CASES_INVALID = [(r.code, i, case) for r in ALL_RULES for i, case in enumerate(r.INVALID)]


def only(code):
    return Config(select=frozenset({code}))


@pytest.mark.parametrize("code,index,source", CASES_VALID, ids=[f"{c}-valid{i}" for c, i, _ in CASES_VALID])
def test_valid_example_is_clean(code, index, source):
    findings = check_source(source, "example.py")
    assert [f for f in findings if f.code == code] == []


@pytest.mark.parametrize("code,index,case", CASES_INVALID, ids=[f"{c}-invalid{i}" for c, i, _ in CASES_INVALID])
def test_invalid_example_is_flagged_and_fixed(code, index, case):
    findings = [f for f in check_source(case.code, "example.py", only(code))]
    assert findings, f"{code} did not flag:\n{case.code}"
    if case.line is not None:
        assert case.line in [f.span.start_line + 1 for f in findings]
    if case.fixed is not None:
        fixed, applied = apply_fixes(case.code, findings, unsafe=True)
        assert applied >= 1
        assert fixed == case.fixed
        assert parses(fixed)
        # Idempotent: the fixed code has nothing left for this rule to fix.
        again = check_source(fixed, "example.py", only(code))
        assert [f for f in again if f.fix is not None] == []


def test_every_rule_has_docs_and_examples():
    for rule in ALL_RULES:
        docs = rule.docs_markdown()
        for heading in ("## What it does", "## Why is this bad?", "## Example", "## Fix"):
            assert heading in docs, (rule.code, heading)
        assert rule.name == rule.name.lower() and " " not in rule.name
        if rule.code != "TP001":
            assert rule.VALID and rule.INVALID, rule.code
