"""Check the pinned wheels with the engine and write findings.csv for hand review.

One row per error/warning finding: wheel, path inside the wheel, 1-based line,
code, message, the source line, and a `verdict` column.  Verdicts are kept in
verdicts.csv (keyed by wheel+path+line+code) and merged back on every run, so a
re-run after an engine change keeps the review already done.  Engine crashes are
written as rows with code CRASH.  Imports between a wheel's modules are resolved
(one ProjectIndex per wheel per worker process), as `torchplace check` does.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import wheel_sources
from verdict_book import VerdictBook, write_table

HERE = Path(__file__).resolve().parent
FINDINGS_CSV = HERE / "findings.csv"
VERDICTS_CSV = HERE / "verdicts.csv"
FIELDS = ["wheel", "path", "line", "code", "severity", "message", "source_line", "verdict"]
VERDICT_KEY = ("wheel", "path", "line", "code")


_indexes: dict = {}


def _project(root: str):
    """One import index per wheel per worker, as the CLI keeps one per worker (cross-file on)."""
    if root not in _indexes:
        from torchplace_rules.project_index import ProjectIndex

        _indexes[root] = ProjectIndex(root)
    return _indexes[root]


def _check_file(job: tuple[str, str, str]) -> tuple[list[dict], float]:
    wheel, root, rel = job
    from torchplace_rules import Config, Severity, check_source

    path = Path(root) / rel
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.splitlines()
    start = time.process_time()
    try:
        findings = check_source(text, str(path), Config(), project=_project(root))
    except Exception as exc:  # the engine must never raise: report it as a row
        return [dict(wheel=wheel, path=rel, line=0, code="CRASH", severity="error",
                     message=f"{type(exc).__name__}: {exc}", source_line="")], 0.0
    cpu = time.process_time() - start
    rows = []
    for f in findings:
        if f.severity > Severity.WARNING:
            continue
        n = f.span.start_line
        rows.append(dict(wheel=wheel, path=rel, line=n + 1, code=f.code, severity=f.severity.label,
                         message=f.message, source_line=lines[n].strip() if n < len(lines) else ""))
    return rows, cpu


def collect(jobs: int | None = None) -> tuple[list[dict], dict[str, float]]:
    work = []
    for name in wheel_sources.WHEELS:
        root = wheel_sources.unpacked(name)
        label = wheel_sources.wheel_label(name)
        work += [(label, str(root), p.relative_to(root).as_posix()) for p in wheel_sources.python_files(name)]
    rows, slowest = [], {}
    with ProcessPoolExecutor(max_workers=jobs or os.cpu_count()) as pool:
        for (label, _, rel), (file_rows, cpu) in zip(work, pool.map(_check_file, work, chunksize=8)):
            rows += file_rows
            slowest[f"{label}/{rel}"] = cpu
    return rows, slowest


def main(jobs: int | None = None) -> int:
    rows, cpu_by_file = collect(jobs)
    book = VerdictBook.load(VERDICTS_CSV, VERDICT_KEY)
    for r in rows:
        v = book.lookup(r)
        r["verdict"] = f"{v['verdict']}: {v['reason']}" if v else ""
    write_table(FINDINGS_CSV, FIELDS, rows)
    by_code: dict[str, int] = {}
    for r in rows:
        by_code[r["code"]] = by_code.get(r["code"], 0) + 1
    reviewed = [r for r in rows if r["verdict"]]
    false = [r for r in reviewed if r["verdict"].startswith("false")]
    print(f"{len(rows)} error/warning findings in {len(cpu_by_file)} files -> {FINDINGS_CSV}")
    print("by code: " + ", ".join(f"{c} {n}" for c, n in sorted(by_code.items())))
    print(f"reviewed {len(reviewed)}, judged false {len(false)}, open {len(rows) - len(reviewed)}")
    for path, cpu in sorted(cpu_by_file.items(), key=lambda kv: -kv[1])[:3]:
        print(f"slowest: {cpu * 1000:.0f} ms CPU {path}")
    return 0
