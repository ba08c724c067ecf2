"""Does the simulated GPU point at the defect? Recall of the probe's error and root cause on the corpus.

    python benchmarks/probe_corpus.py [-v] [--timeout S] [--only SUBSTRING] [--json OUT]

Every case of tests/corpus/cases whose files do something at module level (a
script, not only definitions) is run as `torchplace run FILE` would run it: in
its folder, with two simulated GPUs and root-cause tracking, one process per
entry file.  For each expected defect of a case whose run raised a device error
(the simulation standing in for the GPU; its fidelity is tests/probe's fidelity
suite), the defect is *hit* when its line is the line that raised, a line of the
raising call chain, or the error's root cause (where the offending tensor was
created or last moved).  Target: >= 80 % of those defects.  Negative twins must
run without a device error.  Cases that only define functions, whose defect lines
never run (nothing calls them, or they need command-line arguments), or that need
data files, datasets or packages that are not here, are counted as not runnable.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "corpus"))

import corpus_scoring  # noqa: E402

# PyTorch's wordings for "this tensor is on the wrong device": the probe's own classification
from torchplace_probe.kernel_side.recorder import DEVICE_ERROR  # noqa: E402


def entry_files(case) -> list:
    """The case's files that do something when run (module-level code beyond imports and defs)."""
    entries = []
    for path in case.python_files():
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:
            continue
        passive = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        body = [n for n in tree.body if not isinstance(n, passive)
                and not (isinstance(n, ast.Expr) and isinstance(getattr(n, "value", None), ast.Constant))
                and not (isinstance(n, ast.Assign) and isinstance(n.value, (ast.Constant, ast.List, ast.Dict, ast.Tuple)))]
        if body:
            entries.append(path)
    return entries


def run_entry(case, path: Path, timeout: float, gpus: int) -> dict:
    cli = str(Path(sys.executable).with_name("torchplace"))
    with tempfile.TemporaryDirectory(prefix="probe-corpus-") as scratch:
        report_path = Path(scratch) / "report.json"
        lines_path = Path(scratch) / "lines.json"
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", MPLBACKEND="Agg")
        started = time.monotonic()
        try:
            done = subprocess.run([cli, "run", "--gpus", str(gpus), "--report", str(report_path),
                                   "--lines-run", str(lines_path), str(path)], cwd=case.path,
                                  capture_output=True, text=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            return {"file": path.name, "status": "timeout", "seconds": timeout}
        report = json.loads(report_path.read_text()) if report_path.exists() else None
        ran = [(_relative(case, f), n) for f, n in json.loads(lines_path.read_text())] if lines_path.exists() else []
    status = "ok" if done.returncode == 0 else "error"
    out = {"file": path.name, "status": status, "seconds": round(time.monotonic() - started, 2), "lines_run": ran}
    if report is not None:
        out["report"] = report
        out["device_error"] = bool(DEVICE_ERROR.search(report["error"]))
    elif done.returncode != 0:
        out["stderr"] = done.stderr[-400:]
    return out


def _relative(case, file: str) -> str:
    try:
        return str(Path(file).resolve().relative_to(case.path.resolve()))
    except ValueError:
        return file


def located(case, run: dict) -> dict:
    """(file, line) places of a device error: raised, chain, root cause (and where the tensor was made)."""
    report = run["report"]
    places = {"raised": set(), "chain": set(), "root_cause": set()}
    if report.get("raised_at"):
        places["raised"].add((_relative(case, report["raised_at"]["file"]), report["raised_at"]["line"]))
    for frame in report.get("stack") or []:
        places["chain"].add((_relative(case, frame["file"]), frame["line"]))
    cause = report.get("root_cause") or {}
    for where in (cause, cause.get("created") or {}):
        if where.get("file") and where.get("line"):
            places["root_cause"].add((_relative(case, where["file"]), where["line"]))
    return places


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per entry file (default 90)")
    parser.add_argument("--only", default="", help="cases whose name contains this text")
    parser.add_argument("--json", help="write every case's runs and verdicts here")
    parser.add_argument("--gpus", type=int, default=8,
                        help="simulated GPUs (default 8: the reports come from GPU nodes; some use cuda:3)")
    args = parser.parse_args()
    cases = [c for c in corpus_scoring.load_cases() if args.only in c.name]
    totals = {"cases": len(cases), "runnable": 0, "raising": 0, "defects": 0, "hit": 0, "hit_raised": 0,
              "hit_chain": 0, "hit_cause": 0, "negatives": 0, "negatives_clean": 0, "not_raising_bugs": 0,
              "cases_located": 0}
    rows = []
    for case in cases:
        entries = entry_files(case)
        if not entries:
            rows.append({"case": case.name, "runnable": False, "why": "defines functions only"})
            continue
        runs = [run_entry(case, path, args.timeout, args.gpus) for path in entries]
        device = [r for r in runs if r.get("device_error")]
        other_failures = [r for r in runs if r["status"] != "ok" and not r.get("device_error")]
        ran = {tuple(spot) for r in runs for spot in r.get("lines_run", [])}
        defect_ran = case.is_negative or any((e.file, e.line) in ran for e in case.expected)
        runnable = bool(device) or (not other_failures and defect_ran)
        row = {"case": case.name, "runnable": runnable, "runs": runs}
        rows.append(row)
        if not runnable:
            row["why"] = "; ".join((r.get("report") or {}).get("error", r.get("stderr", r["status"]))[:120]
                                   for r in other_failures) or "the defect lines never run (nothing calls them)"
            continue
        totals["runnable"] += 1
        if case.is_negative:
            totals["negatives"] += 1
            totals["negatives_clean"] += not device
            row["verdict"] = "clean" if not device else "device error on fixed code"
            continue
        if not device:
            totals["not_raising_bugs"] += 1
            row["verdict"] = "no device error"
            continue
        totals["raising"] += 1
        places = [located(case, r) for r in device]
        hits = []
        for exp in case.expected:
            spot = (exp.file, exp.line)
            how = next((kind for kind in ("raised", "chain", "root_cause") if any(spot in p[kind] for p in places)), None)
            totals["defects"] += 1
            if how:
                totals["hit"] += 1
                totals["hit_" + {"raised": "raised", "chain": "chain", "root_cause": "cause"}[how]] += 1
            hits.append({"file": exp.file, "line": exp.line, "code": exp.code, "hit": how})
        row["defects"] = hits
        totals["cases_located"] += any(h["hit"] for h in hits)
    if args.verbose:
        for row in rows:
            if not row.get("runnable"):
                print(f"  not runnable  {row['case']}: {row.get('why', '')}")
            elif "defects" in row:
                for d in row["defects"]:
                    print(f"  {'hit ' + d['hit'] if d['hit'] else 'MISS':<16} {row['case']}: {d['file']}:{d['line']} {d['code']}")
            else:
                print(f"  {row['verdict']:<16} {row['case']}")
    t = totals
    share = t["hit"] / t["defects"] if t["defects"] else 0.0
    print(f"{t['cases']} cases, {t['runnable']} runnable; {t['raising']} bug cases raise a device error under the "
          f"simulated GPU, {t['not_raising_bugs']} runnable bug cases do not")
    print(f"defects of the raising cases: {t['hit']}/{t['defects']} located ({share:.0%}; target >= 80 %): "
          f"{t['hit_raised']} by the raising line, {t['hit_chain']} by its call chain, {t['hit_cause']} by the root cause")
    print(f"raising bug cases whose error or root cause is on one of their defect lines: "
          f"{t['cases_located']}/{t['raising']} (a run stops at its first error: a case's other defects "
          f"raise only once that one is fixed)")
    print(f"negative twins and fixed code: {t['negatives_clean']}/{t['negatives']} run without a device error")
    if args.json:
        Path(args.json).write_text(json.dumps({"totals": totals, "cases": rows}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
