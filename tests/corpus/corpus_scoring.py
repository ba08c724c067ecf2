"""Load the real-bug corpus (tests/corpus/cases/*/case.toml) and score engine findings against it.

Shared by tests/test_real_bug_corpus.py (precision guard) and
benchmarks/corpus_precision.py (precision/recall table).  Lines in case.toml are
1-based, as an editor shows them; the engine's spans are 0-based.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Optional

CASES_DIR = Path(__file__).resolve().parent / "cases"

#: The rule codes the corpus may name (the engine lands rules progressively, so
#: this list is fixed here rather than read from ALL_RULES).
KNOWN_CODES = {
    "TP001", "TP101", "TP102", "TP103", "TP104", "TP201", "TP202", "TP203", "TP204",
    "TP301", "TP302", "TP401", "TP402", "TP403",
}


@dataclass(frozen=True)
class Expectation:
    """A finding a correct checker must (expected) or may (acceptable) report."""

    file: str
    line: int
    code: str
    also: tuple[str, ...] = ()

    def matches(self, file: str, line: int, code: str) -> bool:
        return file == self.file and line == self.line and (code == self.code or code in self.also)


@dataclass
class Case:
    name: str
    path: Path
    source: str
    summary: str
    kind: str
    verified: str
    expected: list[Expectation]
    acceptable: list[Expectation]
    twin_of: Optional[str] = None
    batch: str = "b0"  # when the case was added (fresh recall is measured per batch, before the engine sees it)
    known_false: list[Expectation] = field(default_factory=list)  # false findings the engine still makes

    @property
    def is_negative(self) -> bool:
        return not self.expected

    def python_files(self) -> list[Path]:
        return sorted(self.path.rglob("*.py"))


@dataclass(frozen=True)
class Reported:
    """One engine finding, reduced to what the corpus compares (1-based line)."""

    file: str
    line: int
    code: str
    severity: int
    message: str


@dataclass
class CaseScore:
    case: Case
    reported: list[Reported]
    true_positives: list[Expectation] = field(default_factory=list)
    false_negatives: list[Expectation] = field(default_factory=list)
    false_positives: list[Reported] = field(default_factory=list)

    @property
    def unknown_false_positives(self) -> list[Reported]:
        """False findings the case does not list under `known_false_positives`."""
        return [r for r in self.false_positives
                if not any(k.matches(r.file, r.line, r.code) for k in self.case.known_false)]


def _expectations(raw: Iterable[dict]) -> list[Expectation]:
    return [
        Expectation(str(e["file"]), int(e["line"]), str(e["code"]), tuple(e.get("also", ())))
        for e in raw
    ]


def load_case(folder: Path) -> Case:
    data = tomllib.loads((folder / "case.toml").read_text(encoding="utf-8"))
    return Case(
        name=folder.name,
        path=folder,
        source=data["source"],
        summary=data["summary"],
        kind=data["kind"],
        verified=data.get("verified", ""),
        expected=_expectations(data.get("expected", [])),
        acceptable=_expectations(data.get("acceptable", [])),
        twin_of=data.get("twin_of"),
        batch=str(data.get("batch", "b0")),
        known_false=_expectations(data.get("known_false_positives", [])),
    )


def load_cases(root: Path = CASES_DIR) -> list[Case]:
    return [load_case(d) for d in sorted(root.iterdir()) if (d / "case.toml").is_file()]


FRESH_FILE = Path(__file__).resolve().parent / "fresh_recall.toml"


@dataclass(frozen=True)
class FreshRecord:
    """A batch's fresh recall: its expected findings the engine (`engine`, a main commit) found when the
    batch was added, before any change made for it."""

    batch: str
    found: int
    expected: int
    engine: str


def fresh_records(path: Path = FRESH_FILE) -> list[FreshRecord]:
    """The recorded fresh figures, newest batch first."""
    rows = tomllib.loads(path.read_text(encoding="utf-8")).get("batch", [])
    return [FreshRecord(r["name"], int(r["found"]), int(r["expected"]), str(r["engine"])) for r in rows]


def latest_batches(cases: list[Case], records: list[FreshRecord], at_least: int) -> list[FreshRecord]:
    """The newest recorded batches that together hold at least `at_least` cases (all there are, if fewer)."""
    taken, count = [], 0
    for record in records:
        if count >= at_least:
            break
        taken.append(record)
        count += sum(1 for c in cases if c.batch == record.batch)
    return taken


def run_engine(case: Case, cross_file: bool = True, alone: bool = False, backward: bool = False) -> list[Reported]:
    """Check every file of the case with default settings; hints are left out.
    With `cross_file`, imports between the case's files are resolved (project root = the case folder).
    `alone`: each file with an index of its own, as an editor checks the one file it opens (nothing
    the other files' checks summarised is there).  `backward`: the files in the reverse order."""
    from torchplace_rules import Config, Severity, check_path
    from torchplace_rules.project_index import ProjectIndex

    config = Config()
    project = ProjectIndex(case.path) if cross_file else None
    out = []
    files = case.python_files()
    for path in files[::-1] if backward else files:
        rel = path.relative_to(case.path).as_posix()
        if cross_file and alone:
            project = ProjectIndex(case.path)
        for f in check_path(path, config, project=project):
            if f.severity == Severity.HINT:
                continue
            out.append(Reported(rel, f.span.start_line + 1, f.code, int(f.severity), f.message))
    return out


def score(case: Case, reported: list[Reported]) -> CaseScore:
    result = CaseScore(case, reported)
    for exp in case.expected:
        hit = any(exp.matches(r.file, r.line, r.code) for r in reported)
        (result.true_positives if hit else result.false_negatives).append(exp)
    allowed = case.expected + case.acceptable
    for r in reported:
        if not any(e.matches(r.file, r.line, r.code) for e in allowed):
            result.false_positives.append(r)
    return result


def score_all(cases: Optional[list[Case]] = None, cross_file: bool = True) -> tuple[list[CaseScore], dict[str, str]]:
    """Scores of the cases the engine could check, and {case: error} for the ones it crashed on."""
    scores, crashes = [], {}
    for c in cases if cases is not None else load_cases():
        try:
            scores.append(score(c, run_engine(c, cross_file)))
        except Exception as exc:  # the engine must never raise; report it instead of stopping
            crashes[c.name] = f"{type(exc).__name__}: {exc}"
    return scores, crashes
