"""The `torchplace probe` sub-command (entry point `torchplace.commands`: probe)."""
from __future__ import annotations

import argparse
import json
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
    where.add_argument("--cell", type=int, help="0-based index of the cell to probe (default: the last)")
    where.add_argument("--line", type=int, help="probe the cell holding this 1-based line")
    parser.add_argument("--from-top", action="store_true", help="start a clean kernel and run every cell above first")
    parser.add_argument("--simulate-gpu", action="store_true",
                        help="simulate a CUDA device (automatic when there is no GPU and the code asks for one)")
    parser.add_argument("--no-simulate-gpu", action="store_true", help="never simulate a GPU")
    parser.add_argument("--python", help="interpreter to run the kernel with (default: this one)")
    parser.add_argument("--existing", metavar="CONNECTION_FILE", help="attach to a running kernel instead")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds a cell may run (default 60)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


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
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        return ["".join(c.get("source", "")) if isinstance(c.get("source"), list) else c.get("source", "")
                for c in nb.get("cells", []) if c.get("cell_type") == "code"]
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
    simulate = "on" if args.simulate_gpu else ("off" if args.no_simulate_gpu else "auto")
    options = ProbeOptions(python=args.python, existing=args.existing, simulate_gpu=simulate,
                           timeout=args.timeout, cwd=str(path.resolve().parent))
    with ProbeSession(options, name=path.name) as session:
        result = session.probe(document, cell=args.cell, line=args.line, from_top=args.from_top)
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
    return EXIT_OK if result.ok else EXIT_CELL_FAILED


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="torchplace probe")
    add_arguments(parser)
    return run(parser.parse_args(argv))
