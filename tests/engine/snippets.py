"""Checking a snippet against the (line, code) findings it must get, lines counted from the snippet."""
from __future__ import annotations

import textwrap

from torchplace_rules import Severity, check_source


def assert_findings(header: str, body: str, expected: set) -> None:
    offset = header.count("\n")
    source = header + textwrap.dedent(body)
    findings = check_source(source, "flow.py")
    got = {(f.span.start_line + 1 - offset, f.code) for f in findings if f.severity <= Severity.INFORMATION}
    assert got == expected, "\n" + "\n".join(f"{i + 1 - offset:3}: {l}" for i, l in enumerate(source.splitlines())) + "\n" + \
        "\n".join(f"{f.span.start_line + 1 - offset}: {f.code} {f.message}" for f in findings)
