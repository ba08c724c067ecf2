"""The real-bug corpus (tests/corpus/cases): well-formed, and no false alarms on fixed code.

Each case re-creates a device-placement bug from a public issue thread (or its
fix, a "negative twin").  Precision is guarded here: a case whose `expected` is
empty must get no finding above hint level, and no case may get an
error/warning that the corpus does not list.  Recall is not asserted (rules
land progressively); `python benchmarks/corpus_precision.py` prints it.  Cases
are checked with cross-file resolution (project root = the case folder), as
the CLI and the server do.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
import corpus_scoring  # noqa: E402

CASES = corpus_scoring.load_cases()
BY_NAME = {c.name: c for c in CASES}


def _ids(cases):
    return [c.name for c in cases]


def test_corpus_size_and_mix():
    bugs = [c for c in CASES if not c.is_negative]
    negatives = [c for c in CASES if c.is_negative]
    assert len(bugs) >= 30
    assert len(negatives) * 4 >= len(bugs), "about a third of the bugs should have a negative twin"
    cross = [c for c in bugs if c.kind == "cross-file"]
    assert 0.35 <= len(cross) / len(bugs) <= 0.65, "about half of the bugs should be cross-file"


def test_fresh_recall_records_match_the_corpus():
    """tests/corpus/fresh_recall.toml (what benchmarks/corpus_precision.py prints as fresh recall) names
    batches the corpus holds, each with its expected findings as the corpus counts them now, newest first;
    the newest batch of the corpus (past b7, when fresh figures began to be kept per batch) has its row."""
    records = corpus_scoring.fresh_records()
    numbers = [int(r.batch[1:]) for r in records]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    for record in records:
        expected = sum(len(c.expected) for c in CASES if c.batch == record.batch)
        assert record.expected == expected > 0, record.batch
        assert 0 <= record.found <= record.expected and len(record.engine) >= 7, record.batch
    newest = max(int(c.batch[1:]) for c in CASES)
    assert newest == numbers[0], "add the new batch's fresh figure to tests/corpus/fresh_recall.toml"


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_case_is_well_formed(case):
    assert case.source.startswith("https://github.com/"), "source must be the public thread that was read"
    assert case.summary.strip() and case.verified.strip()
    files = case.python_files()
    assert files, "a case needs at least one .py file"
    assert case.kind == ("cross-file" if len(files) > 1 else "single-file")
    for path in files:
        ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for exp in case.expected + case.acceptable:
        assert exp.code in corpus_scoring.KNOWN_CODES and set(exp.also) <= corpus_scoring.KNOWN_CODES
        lines = (case.path / exp.file).read_text(encoding="utf-8").splitlines()
        assert 1 <= exp.line <= len(lines) and lines[exp.line - 1].strip(), f"{exp} points at no code"
    for known in case.known_false:
        assert known.code in corpus_scoring.KNOWN_CODES
    assert case.batch in ("b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15", "b16", "b17", "b18", "b19", "b20", "b21", "b22", "b23", "b24", "b25", "b26", "b27"), "batch: when the case was added (see tests/corpus/README.md)"
    if case.twin_of:
        assert case.twin_of in BY_NAME and not BY_NAME[case.twin_of].is_negative
        assert case.is_negative, "a negative twin has expected = []"


NEGATIVES = [c for c in CASES if c.is_negative]


@pytest.mark.parametrize("case", NEGATIVES, ids=_ids(NEGATIVES))
def test_no_findings_on_correct_code(case):
    result = corpus_scoring.score(case, corpus_scoring.run_engine(case))
    unlisted = result.unknown_false_positives
    assert unlisted == [], "\n".join(f"{r.file}:{r.line} {r.code} {r.message}" for r in unlisted)


@pytest.mark.parametrize("case", NEGATIVES, ids=_ids(NEGATIVES))
def test_no_errors_or_warnings_on_correct_code_checked_file_by_file(case):
    """Each file checked alone (an editor opening it): the other files are read only through the
    imports, so what is known of them comes from summaries, not from their own checks."""
    result = corpus_scoring.score(case, corpus_scoring.run_engine(case, alone=True))
    loud = [r for r in result.unknown_false_positives if r.severity <= 2]
    assert loud == [], "\n".join(f"{r.file}:{r.line} {r.code} {r.message}" for r in loud)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_no_unlisted_errors_or_warnings(case):
    result = corpus_scoring.score(case, corpus_scoring.run_engine(case))
    loud = [r for r in result.unknown_false_positives if r.severity <= 2]
    assert loud == [], "\n".join(f"{r.file}:{r.line} {r.code} {r.message}" for r in loud)


CROSS_FILE = [c for c in CASES if c.kind == "cross-file"]


@pytest.mark.parametrize("case", CROSS_FILE, ids=_ids(CROSS_FILE))
def test_findings_do_not_depend_on_the_order_the_files_are_checked_in(case):
    """One index for the whole case (a CLI run): what the checks of earlier files summarised must
    not change the findings of later ones."""
    def found(reported):
        return sorted({(r.file, r.line, r.code, r.severity) for r in reported})
    assert found(corpus_scoring.run_engine(case)) == found(corpus_scoring.run_engine(case, backward=True))


def test_cross_file_resolution_only_adds_true_positives():
    """Resolving imports finds what single-file analysis finds, and more on cross-file cases."""
    single, single_crashes = corpus_scoring.score_all(CASES, cross_file=False)
    cross, cross_crashes = corpus_scoring.score_all(CASES, cross_file=True)
    assert single_crashes == {} and cross_crashes == {}  # else zip() below would pair different cases
    for s, c in zip(single, cross):
        assert set(s.true_positives) <= set(c.true_positives), c.case.name
    gained = sum(len(c.true_positives) - len(s.true_positives) for s, c in zip(single, cross) if c.case.kind == "cross-file")
    # crossentropy_weight_on_cpu needs `torch.tensor(<parameter>)` to be a CPU tensor, but the
    # parameter may hold a tensor on any device (false positives in transformers' d_fine): unknown.
    assert gained >= 2
