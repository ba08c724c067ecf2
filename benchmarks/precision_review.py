#!/usr/bin/env python3
"""Precision review of `torchplace check` on public repositories nobody here wrote (issue 11).

    python benchmarks/precision_review.py                  # check every repository in review/repos.toml
    python benchmarks/precision_review.py --repo pytorch/examples --repo openai/whisper
                                                           # only these; other rows kept from the last table
    python benchmarks/precision_review.py --merge-only     # no checking: merge verdicts, print figures
    python benchmarks/precision_review.py --open           # ... and list every open finding

Each repository is archived at its pinned commit into /tmp/tp-review/<owner>+<name> (from the
`fetch` snapshot, see review/repo_sources.py) and checked whole, tests included, by
`torchplace check --jobs 2` with cross-file resolution on, under `nice`.  Error and warning
findings go to review/repo_findings.csv; verdicts written by hand in review/repo_verdicts.csv
(repo, path, line, code, digest of the message, verdict, reason) are merged back, so after
an engine change only findings it did not report before are open.  Prints lines checked,
findings per rule and severity, precision per rule, false findings per 100k lines (errors
and warnings apart) and the open findings.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "review"))
sys.path.insert(0, str(HERE))
import repo_check  # noqa: E402
import repo_sources  # noqa: E402
import review_figures  # noqa: E402
from engine_commit import engine_commit  # noqa: E402
from verdict_book import VerdictBook, message_digest, read_table, write_table  # noqa: E402

FINDINGS_CSV = HERE / "review" / "repo_findings.csv"
VERDICTS_CSV = HERE / "review" / "repo_verdicts.csv"
FIELDS = ["repo", "commit", "path", "line", "code", "severity", "message", "source_line", "verdict", "reason",
          "digest"]
KEY = ("repo", "path", "line", "code", "digest")


def merge_verdicts(rows: list[dict], book: VerdictBook) -> None:
    """Fill `verdict`/`reason` of each row from the book; a finding reworded since its review stays
    open, with the earlier verdict of the same line and rule quoted to speed up the new one."""
    earlier = {(v["repo"], v["path"], v["line"], v["code"]): v for v in book.entries.values()}
    for r in rows:
        r["digest"] = message_digest(r["message"])
        v = book.lookup(r)
        if v:
            r["verdict"], r["reason"] = v["verdict"], v["reason"]
            continue
        r["verdict"] = ""
        old = earlier.get((r["repo"], r["path"], str(r["line"]), r["code"]))
        r["reason"] = f"(open; earlier message on this line was judged {old['verdict']}: {old['reason']})" if old else ""


def run_checks(repos: list[repo_sources.Repo], jobs: int) -> tuple[list[dict], dict[str, int]]:
    rows, lines_by_repo = [], {}
    total_cpu = 0.0
    for repo in repos:
        root = repo_sources.checkout(repo)
        files, lines = repo_sources.count_lines(root)
        run = repo_check.check_repo(repo, root, jobs)
        total_cpu += run.cpu_s
        rows += run.rows
        lines_by_repo[repo.name] = lines
        note = "" if lines == repo.python_lines else f"  (repos.toml says {repo.python_lines:,} lines)"
        print(f"  {repo.name}: {files} files, {lines:,} lines, {len(run.rows)} findings, "
              f"{run.cpu_s:.1f} CPU s, {run.wall_s:.1f} s wall{note}", flush=True)
    print(f"  checking took {total_cpu:.1f} CPU s")
    return rows, lines_by_repo


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", action="append", help="check only this repository (owner/name); repeatable")
    parser.add_argument("--merge-only", action="store_true", help="check nothing: merge verdicts into the last table")
    parser.add_argument("--open", action="store_true", help="list every open (unreviewed) finding")
    parser.add_argument("--per-repo", action="store_true", help="print lines and findings of each repository")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes of `torchplace check` (default 2)")
    args = parser.parse_args(argv)

    repos = repo_sources.load_repos()
    names = {r.name for r in repos}
    unknown = sorted(set(args.repo or ()) - names)
    if unknown:
        parser.error(f"not in {repo_sources.REPOS_TOML.name}: {', '.join(unknown)}")
    lines_by_repo = {r.name: r.python_lines for r in repos}
    kept = read_table(FINDINGS_CSV) if FINDINGS_CSV.exists() else []
    print(f"engine: last shared_rules commit {engine_commit()}")
    if args.merge_only:
        rows = [r for r in kept if r["repo"] in names]
    else:
        chosen = [r for r in repos if not args.repo or r.name in args.repo]
        try:
            new_rows, measured = run_checks(chosen, args.jobs)
        except repo_sources.SourceMissing as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        lines_by_repo.update(measured)
        rows = [r for r in kept if r["repo"] in names and r["repo"] not in measured] + new_rows
    rows.sort(key=lambda r: (r["repo"], r["path"], int(r["line"]), r["code"]))
    book = VerdictBook.load(VERDICTS_CSV, KEY)
    merge_verdicts(rows, book)
    write_table(FINDINGS_CSV, FIELDS, rows)

    lines_checked = sum(lines_by_repo.values())
    open_rows = [r for r in rows if not r["verdict"]]
    print(f"{len(repos)} repositories, {lines_checked:,} lines checked; {len(rows)} error/warning findings "
          f"-> {FINDINGS_CSV.relative_to(HERE.parent)}")
    if args.per_repo:
        print(review_figures.per_repo_table(rows, lines_by_repo))
    print(review_figures.per_rule_table(rows))
    print(review_figures.false_rate(rows, lines_checked))
    stale = book.unmatched(rows)
    print(f"open (unreviewed) findings: {len(open_rows)}; verdicts whose finding is no longer reported: {len(stale)}")
    if args.open:
        for r in open_rows:
            print(f"OPEN {r['repo']} {r['path']}:{r['line']} {r['code']} {r['severity']} [{r['digest']}] "
                  f"{r['message']}\n     | {r['source_line']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
