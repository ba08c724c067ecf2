"""The precision review keeps hand verdicts across engine changes and reopens only what changed.

Exercises benchmarks/precision_review.py's merge on real CSV files: a verdict written for a
finding is merged back by repository, path, line, rule and message digest; a finding whose
message changed (or a new one) is open, quoting the earlier verdict of its line and rule; a
verdict whose finding is gone (or reworded) is counted, and a malformed verdict is refused.
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import precision_review  # noqa: E402
from verdict_book import VerdictBook, message_digest, read_table, write_table  # noqa: E402

VERDICT_FIELDS = ["repo", "path", "line", "code", "digest", "verdict", "reason"]


def _finding(line: int, message: str, code: str = "TP101") -> dict:
    return dict(repo="o/r", commit="c" * 40, path="train.py", line=line, code=code, severity="error",
                message=message, source_line="x + y")


def _write_verdicts(path: Path, rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, VERDICT_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def test_verdicts_survive_a_rerun_and_reworded_findings_reopen(tmp_path):
    verdicts = tmp_path / "verdicts.csv"
    _write_verdicts(verdicts, [
        dict(repo="o/r", path="train.py", line="3", code="TP101", digest=message_digest("a is on the CPU"),
             verdict="false", reason="0-dim CPU tensor"),
        dict(repo="o/r", path="train.py", line="9", code="TP101", digest=message_digest("old wording"),
             verdict="true", reason="real mismatch"),
        dict(repo="o/r", path="gone.py", line="1", code="TP204", digest=message_digest("m"),
             verdict="true", reason="fixed since"),
    ])
    rows = [_finding(3, "a is on the CPU"), _finding(9, "new wording"), _finding(12, "brand new")]
    book = VerdictBook.load(verdicts, precision_review.KEY)
    precision_review.merge_verdicts(rows, book)

    assert (rows[0]["verdict"], rows[0]["reason"]) == ("false", "0-dim CPU tensor")
    assert rows[1]["verdict"] == "" and "judged true: real mismatch" in rows[1]["reason"]
    assert (rows[2]["verdict"], rows[2]["reason"]) == ("", "")
    # the old wording's verdict and the vanished finding's verdict no longer match a finding
    assert sorted((v["path"], v["line"]) for v in book.unmatched(rows)) == [("gone.py", "1"), ("train.py", "9")]

    table = tmp_path / "findings.csv"
    write_table(table, precision_review.FIELDS, rows)
    assert [r["verdict"] for r in read_table(table)] == ["false", "", ""]


def test_a_verdict_must_be_true_or_false(tmp_path):
    verdicts = tmp_path / "verdicts.csv"
    _write_verdicts(verdicts, [dict(repo="o/r", path="a.py", line="1", code="TP101", digest="d",
                                    verdict="maybe", reason="unsure")])
    with pytest.raises(ValueError, match="true or false"):
        VerdictBook.load(verdicts, precision_review.KEY)
