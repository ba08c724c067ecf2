"""Run `torchplace check` on one archived repository and turn its report into finding rows.

The repository is checked the way a user checks a project: `torchplace check --jobs 2
--format json` in the repository's root folder (cross-file resolution on, the CLI's own
file walk, tests included), under `nice`.  Error and warning findings become rows; a rule
or analysis crash the CLI reports on stderr becomes a row with code CRASH, so crashes are
reviewed like findings and never pass unnoticed.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from repo_sources import Repo

REVIEWED_SEVERITIES = ("error", "warning")
_CRASH = re.compile(r"^torchplace: warning: (?:rule \S+|the torchplace analysis) crashed on (?P<path>.+?): (?P<error>.*)$")


@dataclass
class RepoRun:
    rows: list[dict]
    cpu_s: float  # user + system CPU of the check and its worker processes
    wall_s: float


def _torchplace() -> list[str]:
    exe = shutil.which("torchplace", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "torchplace_rules.cli"]


def _source_line(root: Path, rel: str, line: int, cache: dict[str, list[str]]) -> str:
    if rel not in cache:
        from torchplace_rules.files import read_source
        from torchplace_rules.text_lines import split_lines

        text, _ = read_source(root / rel)
        cache[rel] = split_lines(text or "")
    lines = cache[rel]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _crash_rows(repo: Repo, root: Path, stderr: str) -> list[dict]:
    rows = []
    for text in stderr.splitlines():
        m = _CRASH.match(text)
        if m:
            rel = Path(m["path"]).as_posix().removeprefix("./")
            rows.append(dict(repo=repo.name, commit=repo.commit, path=rel, line=0, code="CRASH",
                             severity="error", message=m["error"], source_line=""))
    return rows


def check_repo(repo: Repo, root: Path, jobs: int = 2) -> RepoRun:
    """Findings (errors and warnings) of `torchplace check` on `root`, as review rows."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(["nice", "-n", "10", *_torchplace(), "check", "--format", "json",
                           "--min-severity", "warning", "--jobs", str(jobs), "."],
                          cwd=root, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"torchplace check failed on {repo.name} (exit {proc.returncode}):\n{proc.stderr[-4000:]}")
    cache: dict[str, list[str]] = {}
    rows = []
    for item in json.loads(proc.stdout):
        if item["severity"] not in REVIEWED_SEVERITIES:
            continue
        rel = Path(item["path"]).as_posix().removeprefix("./")
        rows.append(dict(repo=repo.name, commit=repo.commit, path=rel, line=item["line"], code=item["code"],
                         severity=item["severity"], message=item["message"],
                         source_line=_source_line(root, rel, item["line"], cache)))
    rows += _crash_rows(repo, root, proc.stderr)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return RepoRun(rows, cpu, wall)
