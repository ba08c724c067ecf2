"""Checking a snippet against the (line, code) findings it must get, lines counted from the snippet."""
from __future__ import annotations

import textwrap

from torchplace_rules import Severity, check_source


def assert_findings(header: str, body: str, expected: set, hints_of: tuple = ()) -> None:
    """`hints_of`: codes whose hints count too (TP203 says "may" where only the text of `forward` is
    evidence: a twin that a fix must quiet has none, at any severity)."""
    offset = header.count("\n")
    source = header + textwrap.dedent(body)
    findings = check_source(source, "flow.py")
    got = {(f.span.start_line + 1 - offset, f.code) for f in findings
           if f.severity <= Severity.INFORMATION or f.code in hints_of}
    assert got == expected, "\n" + "\n".join(f"{i + 1 - offset:3}: {l}" for i, l in enumerate(source.splitlines())) + "\n" + \
        "\n".join(f"{f.span.start_line + 1 - offset}: {f.code} {f.message}" for f in findings)


def assert_truth_row(name: str, code: str, raises: bool, expected) -> None:
    """A truth-table row: `import torch` + code raises under a fake GPU exactly when `raises`, and the
    engine reports exactly `expected` (a code, or None) at warning level or above."""
    from .fake_gpu import run_on_fake_gpu  # (imports torch: only the tests that run PyTorch need it)

    source = "import torch\n" + code
    error = run_on_fake_gpu(source)
    assert (error is not None) == raises, f"PyTorch disagrees for {name}: {error!r}"
    loud = [f.code for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]
    assert loud == ([] if expected is None else [expected])


def assert_pytorch_agrees(header: str, body: str, expected: set, run: str = "") -> None:
    """The snippet (and `run` after it) raises on the fake GPU exactly when findings are `expected`."""
    from .fake_gpu import run_on_fake_gpu  # (imports torch: only the tests that run PyTorch need it)

    error = run_on_fake_gpu(header + textwrap.dedent(body) + run)
    assert (error is not None) == bool(expected), repr(error)


def case_tests(header: str, cases: dict) -> tuple:
    """The two tests of a `{name: (body, expected)}` table: the engine's findings, and PyTorch raising
    on the fake GPU exactly where findings are expected (`test_engine, test_pytorch_agrees = ...`)."""
    import pytest

    @pytest.mark.parametrize("name", sorted(cases))
    def test_engine(name):
        body, expected = cases[name]
        assert_findings(header, body, expected)

    @pytest.mark.parametrize("name", sorted(cases))
    def test_pytorch_agrees(name):
        body, expected = cases[name]
        assert_pytorch_agrees(header, body, expected)

    return test_engine, test_pytorch_agrees
