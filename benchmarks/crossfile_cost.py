#!/usr/bin/env python3
"""What cross-file resolution costs on a large real package, and what it finds.

    python benchmarks/crossfile_cost.py                       # transformers wheel source, --jobs 2
    python benchmarks/crossfile_cost.py --path SRC --jobs 1   # any folder

Runs `torchplace check --format json` on the folder twice, with
`--no-cross-file` and with cross-file resolution (the default), and prints CPU
seconds (user+sys of the checker and its worker processes), peak RSS of the
largest process, wall seconds (noisy on a shared machine; CPU is the figure to
compare), findings of each run and the findings only one of them has.  Target:
the cross-file run costs at most 2x the single-file run.

The transformers source is the unpacked wheel that
`benchmarks/corpus_precision.py --wheels` fetches (pip download transformers
--no-deps, unzip to /tmp/tp-wheels-src/).
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from engine_commit import engine_commit  # noqa: E402  (this folder is on sys.path when run as a script)

DEFAULT = Path("/tmp/tp-wheels-src/transformers-5.23.0/transformers")


def measure(path: str, jobs: int, cross_file: bool) -> dict:
    """Run the checker in a child process; this process's children-usage is then exactly that run."""
    cmd = [sys.executable, "-m", "torchplace_rules.cli", "check", "--format", "json", "--jobs", str(jobs), path]
    if not cross_file:
        cmd.insert(-1, "--no-cross-file")
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"checker failed ({done.returncode}):\n{done.stderr[-2000:]}")
    findings = json.loads(done.stdout)
    return {"cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mb": usage.ru_maxrss / 1024, "wall_s": wall,
            "findings": [(f["path"], f["line"], f["code"], f["severity"]) for f in findings]}


def run_isolated(path: str, jobs: int, cross_file: bool) -> dict:
    cmd = [sys.executable, __file__, "--measure", "cross" if cross_file else "single", "--path", path, "--jobs", str(jobs)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default=str(DEFAULT))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--measure", choices=["single", "cross"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.path, args.jobs, args.measure == "cross")))
        return 0
    if not Path(args.path).is_dir():
        print(f"{args.path}: not found (see `benchmarks/corpus_precision.py --wheels` for fetching the wheels)")
        return 2
    files = sum(1 for _ in Path(args.path).rglob("*.py"))
    single = run_isolated(args.path, args.jobs, False)
    cross = run_isolated(args.path, args.jobs, True)
    print(f"engine commit {engine_commit()}; {args.path}: {files} files, --jobs {args.jobs}")
    print(f"{'run':<12}{'CPU s':>9}{'peak RSS MB':>13}{'wall s':>9}{'findings':>10}{'err+warn':>10}")
    for label, r in (("single-file", single), ("cross-file", cross)):
        loud = sum(1 for f in r["findings"] if f[3] in ("error", "warning"))
        print(f"{label:<12}{r['cpu_s']:>9.1f}{r['peak_rss_mb']:>13.0f}{r['wall_s']:>9.1f}{len(r['findings']):>10}{loud:>10}")
    print(f"cross/single CPU: {cross['cpu_s'] / max(single['cpu_s'], 1e-9):.2f}x  (target <= 2x)")
    a = {tuple(f) for f in single["findings"]}
    b = {tuple(f) for f in cross["findings"]}
    gained, lost = sorted(b - a), sorted(a - b)
    print(f"only with cross-file: {len(gained)}  {dict(Counter(f[2] for f in gained))}")
    print(f"only without:         {len(lost)}  {dict(Counter(f[2] for f in lost))}")
    for f in gained + lost:
        print(f"  {'+' if f in b else '-'} {f[0]}:{f[1]} {f[2]} ({f[3]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
