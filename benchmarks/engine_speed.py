#!/usr/bin/env python3
"""Checker speed on real code: torchplace vs TorchFix (and Fixit 2 for one file).

    python benchmarks/engine_speed.py              # first 120 transformers models/*/modeling_*.py
    python benchmarks/engine_speed.py --limit 0    # all 530 modeling files (TorchFix takes ~11 CPU min)
    python benchmarks/engine_speed.py --all --limit 0   # every transformers .py file

Prints, for torchplace and TorchFix over the same transformers files: files,
lines, CPU seconds, lines per CPU second and findings (each torchplace row the
median of --runs runs: on a shared machine one run can be 25 % off); then the CPU time of one
whole-file check of the modeling file closest to 1,500 lines for torchplace,
TorchFix and Fixit 2 (first, cold, check and the median of warm repeats).
"torchplace" resolves the project's own imports (cross-file, the CLI default, one
import index per process rooted at the unpacked wheel); "torchplace -1" checks
each file alone.

Each tool runs in its own subprocess (its own venv: TorchFix and Fixit live in
/tmp venvs made on first use, never pulling torch); the corpus figure is the
subprocess's whole CPU time (user + system, interpreter start-up included), read
with resource.getrusage(RUSAGE_CHILDREN); the one-file figure is time.process_time
around the check call inside the subprocess.  Each driver ends as the tool's command
does: `torchplace check` exits once its report is out, without the interpreter's
teardown (`cli.exit_now`: freeing what a cross-file run holds costs ~1 CPU s here);
"torchplace +teardown" is the same run ending with the teardown, for comparison.
Targets for torchplace: >= 25,000 lines per CPU second, <= 50 ms per 1,500-line file.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks" / "review"))
import wheel_sources  # noqa: E402
from engine_commit import engine_commit  # noqa: E402

TORCHFIX_VENV = Path("/tmp/torchfix-venv")
FIXIT_VENV = Path("/tmp/fixit-venv")
TARGET_LINES_PER_S = 25_000
TARGET_FILE_MS = 50.0

# Each driver reads a JSON job {"files": [...], "repeat": n} from argv[1] and prints JSON.
# `count(path, text)` runs one whole-file check and returns the number of findings.
PRELUDE = r'''
import json, sys, time
job = json.load(open(sys.argv[1]))
END = lambda: None  # how the tool's own command ends (the interpreter's teardown is counted)
'''
RUNNER = r'''
total_findings = 0
lines = 0
for path in job["files"]:
    text = open(path, encoding="utf-8", errors="replace").read()
    lines += text.count("\n") + (not text.endswith("\n"))
    start = time.process_time()
    total_findings += count(path, text)
    first = time.process_time() - start
warm = []
for _ in range(job["repeat"]):
    start = time.process_time()
    count(path, text)
    warm.append(time.process_time() - start)
print(json.dumps({"findings": total_findings, "lines": lines, "first_s": first, "warm_s": warm}))
END()
'''
DRIVERS = {
    "torchplace": r'''
from torchplace_rules import Config, check_source
from torchplace_rules.cli import exit_now
END = lambda: exit_now(0)  # as `torchplace check` ends: no interpreter teardown
from torchplace_rules.parallel_check import collect_when_grown, tune_gc
from torchplace_rules.project_index import ProjectIndex
tune_gc()
CONFIG = Config()
INDEX = ProjectIndex(job["root"], static=True)  # cross-file on, set up as `torchplace check` does
def count(path, text):  # one file, then the collector's turn, as `torchplace check` does
    found = len(check_source(text, path, CONFIG, project=INDEX))
    collect_when_grown()
    return found
''',
    "torchplace -1": r'''
from torchplace_rules import Config, check_source
from torchplace_rules.cli import exit_now
END = lambda: exit_now(0)
from torchplace_rules.parallel_check import collect_when_grown, tune_gc
tune_gc()  # as `torchplace check` does
CONFIG = Config()
def count(path, text):  # single-file: imports of the project's own modules left unresolved
    found = len(check_source(text, path, CONFIG))
    collect_when_grown()
    return found
''',
    "TorchFix": r'''
from torchfix.torchfix import TorchChecker, DISABLED_BY_DEFAULT
def count(path, text):
    # The flake8 plug-in entry point, with flake8's default ignore list applied.
    results = TorchChecker(None, text.splitlines(keepends=True)).run()
    return sum(1 for r in results if not any(r[2].startswith(code) for code in DISABLED_BY_DEFAULT))
''',
    "Fixit 2": r'''
from pathlib import Path
from fixit.api import fixit_bytes
from fixit.ftypes import Config
def count(path, text):
    p = Path(path)
    results = fixit_bytes(p, text.encode("utf-8"), config=Config(path=p, root=p.parent))
    return sum(1 for r in results if r.violation is not None)
''',
}
# the same run ending with the interpreter's teardown, as a program that does not skip it
DRIVERS["torchplace +teardown"] = DRIVERS["torchplace"] + "END = lambda: None\n"


def ensure_venv(path: Path, installs: list[list[str]]) -> Path:
    python = path / "bin" / "python"
    marker = path / ".torchplace-bench-ready"
    if not marker.exists():
        if not python.exists():
            venv.create(path, with_pip=True)
        for args in installs:
            subprocess.run([str(python), "-m", "pip", "install", "-q", *args], check=True)
        marker.write_text("")
    return python


def interpreters() -> dict[str, Path]:
    torchfix = ensure_venv(TORCHFIX_VENV, [
        # TorchFix needs only flake8, PyYAML and libcst; --no-deps guarantees no torch is pulled.
        ["--no-deps", "torchfix==0.7.*"],
        ["flake8", "PyYAML", "libcst>=1.5.0,<1.6.0"],
    ])
    fixit = ensure_venv(FIXIT_VENV, [["fixit>=2,<3"]])
    return {"torchplace": Path(sys.executable), "torchplace -1": Path(sys.executable),
            "torchplace +teardown": Path(sys.executable),
            "TorchFix": torchfix, "Fixit 2": fixit}


def run_tool(python: Path, tool: str, files: list[Path], repeat: int = 0) -> dict:
    """Run the tool's driver in a subprocess; add the subprocess's total CPU seconds."""
    root = str(wheel_sources.unpacked("transformers"))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump({"files": [str(f) for f in files], "repeat": repeat, "root": root}, fh)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([str(python), "-c", PRELUDE + DRIVERS[tool] + RUNNER, fh.name],
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    Path(fh.name).unlink()
    if proc.returncode != 0:
        raise RuntimeError(f"{tool} failed:\n{proc.stderr[-2000:]}")
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    result["cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return result


def compile_torchplace() -> None:
    """Byte-compile the engine first, as installing a wheel does: the TorchFix and Fixit venvs were
    installed by pip, which compiles their modules; the editable torchplace would otherwise be
    compiled again in every subprocess where PYTHONDONTWRITEBYTECODE is set (~0.1 CPU s)."""
    import compileall
    import torchplace_rules

    compileall.compile_dir(str(Path(torchplace_rules.__file__).parent), quiet=1)


def corpus_files(all_files: bool, limit: int | None) -> list[Path]:
    files = wheel_sources.python_files("transformers")
    if not all_files:
        files = [f for f in files if f.parent.parent.name == "models" and f.name.startswith("modeling_")]
    return files[:limit] if limit else files


def file_near(lines: int, files: list[Path]) -> Path:
    return min(files, key=lambda f: (abs(f.read_text(encoding="utf-8").count("\n") - lines), str(f)))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every transformers .py file, not only modeling files")
    parser.add_argument("--limit", type=int, default=120,
                        help="only the first N files, sorted by path (0: no limit; default 120)")
    parser.add_argument("--repeat", type=int, default=5, help="warm repeats for the one-file figure")
    parser.add_argument("--runs", type=int, default=3,
                        help="runs of each torchplace row over the corpus, the median reported (TorchFix: one run, ~90 s)")
    args = parser.parse_args(argv)

    pythons = interpreters()
    compile_torchplace()
    files = corpus_files(args.all, args.limit)
    label = wheel_sources.wheel_label("transformers")
    print(f"engine commit {engine_commit()}; corpus: {label}, {len(files)} files"
          f" ({'all .py files' if args.all else 'models/*/modeling_*.py'}, sorted, limit {args.limit or 'none'})")
    print(f"{'tool':<21}{'files':>7}{'lines':>10}{'CPU s':>9}{'lines/CPU s':>13}{'findings':>10}")
    rates, spreads = {}, []
    for tool in ("torchplace", "torchplace +teardown", "torchplace -1", "TorchFix"):
        runs = [run_tool(pythons[tool], tool, files) for _ in range(args.runs if tool != "TorchFix" else 1)]
        r = sorted(runs, key=lambda x: x["cpu_s"])[len(runs) // 2]  # the median run
        rates[tool] = r["lines"] / r["cpu_s"]
        print(f"{tool:<21}{len(files):>7}{r['lines']:>10}{r['cpu_s']:>9.2f}{rates[tool]:>13,.0f}{r['findings']:>10}")
        if len(runs) > 1:
            spreads.append(f"{tool} " + " / ".join(f"{x['cpu_s']:.2f}" for x in runs))
    if spreads:
        print(f"(torchplace rows: the median of {args.runs} runs, CPU s of each: " + "; ".join(spreads) + ")")

    one = file_near(1500, wheel_sources.python_files("transformers"))
    n_lines = one.read_text(encoding="utf-8").count("\n")
    print(f"\none whole-file check of {one.relative_to(one.parents[3])} ({n_lines} lines), CPU ms:")
    print(f"{'tool':<12}{'first':>9}{'warm median':>13}{'findings':>10}")
    first_ms = {}
    for tool in ("torchplace", "torchplace -1", "TorchFix", "Fixit 2"):
        r = run_tool(pythons[tool], tool, [one], repeat=args.repeat)
        first_ms[tool] = r["first_s"] * 1000
        warm = statistics.median(r["warm_s"]) * 1000 if r["warm_s"] else float("nan")
        print(f"{tool:<12}{first_ms[tool]:>9.1f}{warm:>13.1f}{r['findings']:>10}")

    ok_rate = rates["torchplace"] >= TARGET_LINES_PER_S
    ok_file = first_ms["torchplace"] <= TARGET_FILE_MS
    print(f"\ntargets: >= {TARGET_LINES_PER_S:,} lines/CPU s: {'met' if ok_rate else 'NOT met'}"
          f" ({rates['torchplace']:,.0f}); <= {TARGET_FILE_MS:.0f} ms per 1,500-line file (first check):"
          f" {'met' if ok_file else 'NOT met'} ({first_ms['torchplace']:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
