"""The `torchplace probe` sub-command (entry point `torchplace.commands`: probe)."""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import Optional, Sequence

EXIT_OK, EXIT_CELL_FAILED, EXIT_USAGE, EXIT_FAULT = 0, 1, 2, 3


def _split_lines(text: str) -> list:
    from torchplace_rules.text_lines import split_lines
    return split_lines(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a .py file with `# %%` cells, or a .ipynb notebook")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--cell", type=int,
                       help="the cell to probe, numbered as the editor shows it: 1 is the first cell, markdown "
                            "cells included (default: the last)")
    where.add_argument("--line", type=int, help="probe the cell holding this 1-based line")
    parser.add_argument("--from-top", action="store_true", help="start a clean kernel and run every cell above first")
    parser.add_argument("--simulate-gpu", action="store_true",
                        help="simulate a CUDA device (automatic when there is no GPU and the code asks for one)")
    parser.add_argument("--no-simulate-gpu", action="store_true", help="never simulate a GPU")
    parser.add_argument("--python", help="interpreter to run the kernel with (default: this one)")
    parser.add_argument("--existing", metavar="CONNECTION_FILE", help="attach to a running kernel instead")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a cell may run (default 60)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--args", default="", metavar="ARGS",
                        help="the script's command-line arguments (sys.argv[1:]), one string split like a shell")
    parser.add_argument("--no-static", action="store_true",
                        help="do not check the engine's findings against the run (confirmed / not reproduced)")
    parser.add_argument("--report-miss", metavar="DIR",
                        help="when a device error has no static finding on its chain, write a corpus case draft "
                             "(tests/corpus format) under DIR")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "probe", help="run a cell in a Jupyter kernel and show where its tensors live",
        description="Run one cell (and the cells above it) in a Jupyter kernel of your interpreter and "
                    "report, per line, tensor devices, host/device copies, syncs and the first error. "
                    "This executes your code.",
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def _read_document(path: Path):
    """A `# %%` file's text, or a notebook's cells as (source, is_code) in the editor's order."""
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return [("".join(c.get("source", "")) if isinstance(c.get("source"), list) else c.get("source", ""),
                 c.get("cell_type") == "code") for c in nb.get("cells", [])]
    return path.read_text(encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    from .session import ProbeOptions, ProbeSession

    path = Path(args.file)
    try:
        document = _read_document(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"torchplace probe: cannot read {path}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.timeout <= 0:
        print("torchplace probe: --timeout must be positive", file=sys.stderr)
        return EXIT_USAGE
    if args.cell is not None and args.cell < 1:
        print("torchplace probe: --cell counts from 1, as the editor does", file=sys.stderr)
        return EXIT_USAGE
    try:
        script_args = tuple(shlex.split(args.args))
    except ValueError as exc:
        print(f"torchplace probe: --args: {exc}", file=sys.stderr)
        return EXIT_USAGE
    simulate = "on" if args.simulate_gpu else ("off" if args.no_simulate_gpu else "auto")
    options = ProbeOptions(python=args.python, existing=args.existing, simulate_gpu=simulate,
                           timeout=args.timeout, cwd=str(path.resolve().parent), script=str(path.resolve()),
                           args=script_args)
    with ProbeSession(options, name=path.name) as session:
        result = session.probe(document, cell=None if args.cell is None else args.cell - 1, line=args.line,
                               from_top=args.from_top)
    if not args.no_static:
        from . import verdicts

        verdicts.apply(result, verdicts.static_findings(document, str(path)))
    if args.report_miss:
        from .miss_report import write_case

        folder = write_case(result, document, path, Path(args.report_miss), result.torch_version)
        note = (f"wrote a corpus case draft to {folder}" if folder is not None
                else "no device error without a static finding: no corpus case written")
        result.notes.append(note)
    if args.format == "json":
        print(result.to_json())
    else:
        source_lines = _split_lines(document) if isinstance(document, str) else None
        print(result.to_text(source_lines, str(path)))
    if result.status == "setup-error":
        if args.format == "text" and result.error:
            print(f"torchplace probe: {result.error.message}", file=sys.stderr)
        return EXIT_USAGE
    if result.status in ("timeout", "kernel-died", "cancelled"):
        return EXIT_FAULT
    return EXIT_OK if result.ok and not result.above_errors else EXIT_CELL_FAILED


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="torchplace probe")
    add_arguments(parser)
    return run(parser.parse_args(argv))
