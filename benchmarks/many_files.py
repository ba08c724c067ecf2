#!/usr/bin/env python3
"""`torchplace check` on a generated project of many files, on this machine's cores.

    python benchmarks/many_files.py [--files 10000] [--jobs 2]

Writes N files under a temporary folder: packages of 100 modules, each module
one of the bundled seed examples (examples/seeds/) plus an import of a sibling
helper module, so cross-file resolution has work to do.  Then runs the CLI
(cross-file on, the default) in a child process and prints wall seconds, CPU
seconds (user + system of the checker and its workers) and the peak RSS of
the largest process.  The issue asks that a 10,000-file project "runs on a
2-core machine": this shows how long and how much memory.
"""
from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_commit import engine_commit  # noqa: E402

HELPER = "import torch\n\n\ndef to_device(x, device):\n    return x.to(device)\n"


def generate(folder: Path, count: int) -> int:
    seeds = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples" / "seeds").glob("*.py"))]
    (folder / "pyproject.toml").write_text("[project]\nname = 'many'\n")
    lines = 0
    for i in range(count):
        package = folder / f"pkg{i // 100:03d}"
        if not package.exists():
            package.mkdir()
            (package / "__init__.py").write_text("")
            (package / "helpers.py").write_text(HELPER)
        text = "from .helpers import to_device\n" + seeds[i % len(seeds)]
        (package / f"mod{i % 100:02d}.py").write_text(text)
        lines += text.count("\n")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="torchplace-many-"))
    try:
        lines = generate(folder, args.files)
        cmd = [sys.executable, "-m", "torchplace_rules.cli", "check", "--format", "json", "--jobs", str(args.jobs), str(folder)]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            print(done.stderr[-2000:], file=sys.stderr)
            return 2
        findings = len(json.loads(done.stdout))
        print(f"engine commit {engine_commit()}")
        print(f"{args.files} files ({lines} lines), --jobs {args.jobs}: wall {wall:.1f} s, "
              f"CPU {usage.ru_utime + usage.ru_stime:.1f} s, peak RSS {usage.ru_maxrss / 1024:.0f} MB, {findings} findings")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
