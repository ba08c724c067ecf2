"""`torchplace run SCRIPT [ARGS]`: a whole script under the simulated GPU, as in CI without a GPU.

Why: the device bugs a GPU job hits should fail on a CPU-only runner too.  The
script runs in this interpreter as `python SCRIPT ARGS` would run it (`sys.argv`,
`__main__`, the script's folder first on `sys.path`, the current folder kept), with
simulated CUDA devices; a device error ends it with the traceback and the root
cause (where the offending tensor was created or last moved).  Exit status: the
script's own, 1 when it raised, 2 for bad usage.
"""
from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import traceback
from typing import Optional, Sequence

EXIT_USAGE = 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-m", dest="module", metavar="MODULE", help="run a module (like `python -m MODULE`)")
    parser.add_argument("--gpus", type=int, default=None, help="how many simulated GPUs (default 2)")
    parser.add_argument("--report", metavar="FILE",
                        help="write the error's report (file:line chain, root cause of a device error) as JSON to FILE")
    parser.add_argument("--lines-run", metavar="FILE", help=argparse.SUPPRESS)  # benchmarks: which lines ran
    parser.add_argument("script", nargs="?", help="the script to run")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run", help="run a script with simulated CUDA devices (device bugs fail without a GPU)",
        description="Run a Python script (or -m module) with simulated CUDA GPUs: tensors compute on the CPU, "
                    "every op checks devices as on a GPU, and a device error names its root cause.",
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def _user_file(name: str) -> bool:
    return not name.startswith("<") and "site-packages" not in name


def _line_recorder(folder: str, seen: set):
    """A trace function that records (file, line) for code under `folder` only (benchmarks/probe_corpus)."""
    def local(frame, event, arg):
        if event == "line":
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def global_trace(frame, event, arg):
        return local if frame.f_code.co_filename.startswith(folder) else None
    return global_trace


def run(args: argparse.Namespace) -> int:
    if not args.module and not args.script:
        print("torchplace run: name a script (or -m MODULE)", file=sys.stderr)
        return EXIT_USAGE
    try:
        import torch  # noqa: F401 - the simulation needs torch in this interpreter
    except ImportError:
        print(f"torchplace run: torch is not installed in {sys.executable}; install it there first", file=sys.stderr)
        return EXIT_USAGE
    from . import device_report
    from .kernel_side import simulated_gpu as sim

    rest = list(args.args or [])
    if args.module and args.script:
        rest = [args.script] + rest
    target = args.module or os.path.abspath(args.script)
    if not args.module and not os.path.isfile(target):
        print(f"torchplace run: no such script: {args.script}", file=sys.stderr)
        return EXIT_USAGE
    model = sim.GpuModel.from_environment()
    if args.gpus is not None:
        model.count = max(1, args.gpus)
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    sys.argv = [target] + rest
    sys.path.insert(0, os.getcwd() if args.module else os.path.dirname(target))
    seen: set = set()
    if args.lines_run:
        sys.settrace(_line_recorder(os.getcwd() + os.sep, seen))
    try:
        with sim.simulation(model=model, track_origins=True, user_filter=_user_file):
            if args.module:
                runpy.run_module(args.module, run_name="__main__", alter_sys=True)
            else:
                runpy.run_path(target, run_name="__main__")
        return 0
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 - the script's error is the result
        traceback.print_exception(type(exc), exc, exc.__traceback__)
        report = device_report.describe(exc, any_error=True)
        if report is not None and report["root_cause"] is not None:
            print(device_report.text(report, os.getcwd()), file=sys.stderr)
        if args.report and report is not None:
            with open(args.report, "w", encoding="utf-8") as fh:
                json.dump(report, fh, indent=2)
        return 1
    finally:
        sys.argv, sys.path[:] = saved_argv, saved_path
        if args.lines_run:
            sys.settrace(None)
            with open(args.lines_run, "w", encoding="utf-8") as fh:
                json.dump(sorted([f, n] for f, n in seen), fh)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="torchplace run")
    add_arguments(parser)
    return run(parser.parse_args(argv))
