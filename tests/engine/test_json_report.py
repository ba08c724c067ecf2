"""`--format json` writes the report as `json.dumps(items, indent=2)` would (`output_formats._indented`
writes it without json's pure-Python encoder): the same text for every value a report can hold."""
from __future__ import annotations

import json
import random

from torchplace_rules.model import Finding, Related, Severity, Span
from torchplace_rules.output_formats import ReportedFile, _indented, render_json

SCALARS = [None, True, False, 0, -5, 10**20, "", "x", 'a"b\\c\n\t', "\u00e9\u2028\U0001f600", "\x00\x1f\x7f"]


def _value(depth: int, rng: random.Random):
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(SCALARS)
    if roll < 0.7:
        return [_value(depth + 1, rng) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["path", "\u00e9", "\n", ""]) + str(i): _value(depth + 1, rng) for i in range(rng.randint(0, 3))}


def test_the_writer_gives_json_dumps_text():
    rng = random.Random(0)
    for _ in range(5000):
        value = _value(0, rng)
        out: list = []
        _indented(value, "\n", out)
        assert "".join(out) == json.dumps(value, indent=2)


def test_values_it_does_not_write_go_to_json_itself():
    for value in ([1.5, float("nan")], {1: "a"}, [{"k": (1, 2)}]):
        try:
            _indented(value, "\n", [])
        except TypeError:
            continue
        raise AssertionError(f"{value!r} written")


def test_a_report_reads_as_before():
    finding = Finding("TP101", "mixed-devices", Severity.ERROR, "a \"cuda\" tensor meets a CPU one \u2192 raises",
                      Span(2, 4, 2, 9), [Related(Span(1, 0, 1, 3), "made here")])
    files = [ReportedFile("a/b.py", [finding, finding]), ReportedFile("c.py", [])]
    from torchplace_rules.output_formats import finding_to_json

    expected = json.dumps([finding_to_json(f, x) for f in files for x in f.findings], indent=2) + "\n"
    assert render_json(files) == expected
    assert render_json([]) == "[]\n"
