"""The `torchplace` command: check, rules, explain (+ plug-in sub-commands).

Exit codes: 0 nothing reported, 1 findings reported, 2 a bad path, setting,
usage or internal error (reported; the other files are still checked).
`serve` and `probe` come from the `torchplace.commands` entry-point group so
that the engine never imports editor or kernel code.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from .check_command import MAX_FIX_ROUNDS, run_check
from .config import Config, rule_code
from .engine import check_source
from .fixes import fix_until_stable
from .output_formats import VERSION
from .parallel_check import ends_with_check
from .rules import ALL_RULES, explain


def _codes(text: str) -> list[str]:
    """`--select`/`--ignore` values: codes, prefixes or names that match a rule (else a usage error)."""
    try:
        return [rule_code(c) for c in text.split(",") if c.strip()]
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _size(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number of bytes > 0, got {text!r}")
    return value


BUILT_IN_COMMANDS = ("check", "rules", "explain")


def build_parser(plugins: bool = True) -> argparse.ArgumentParser:
    """The command line; `plugins`: also the commands other packages add (`serve`): finding them
    reads the metadata of every installed distribution, which a built-in command does not need."""
    parser = argparse.ArgumentParser(prog="torchplace", description="Find and fix PyTorch device-placement bugs.")
    parser.add_argument("--version", action="version", version=f"torchplace {VERSION}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = sub.add_parser("check", help="check files and folders for device-placement bugs")
    check.add_argument("paths", nargs="*", default=["."], metavar="PATH")
    check.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    check.add_argument("--select", type=_codes, help="comma-separated codes or prefixes (TP1,TP201)")
    check.add_argument("--ignore", type=_codes, help="comma-separated codes or prefixes to skip")
    check.add_argument("--min-severity", default="information", choices=["error", "warning", "information", "hint"])
    check.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    check.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff, apply unsafe fixes too")
    check.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; change nothing")
    check.add_argument("--config", metavar="PYPROJECT", help="read [tool.torchplace] from this file instead of the nearest one")
    check.add_argument("--jobs", "-j", type=int, default=0, metavar="N", help="worker processes (default: CPU count)")
    check.add_argument("--no-cross-file", dest="cross_file", action="store_false",
                       help="do not resolve imports of the project's own modules")
    check.add_argument("--max-file-size", type=_size, metavar="BYTES",
                       help="skip larger files (default: max-file-size in [tool.torchplace], else 5000000)")
    check.add_argument("--fix-symlinks", action="store_true",
                       help="with --fix, also write files reached through a symbolic link (never outside the paths given)")
    check.set_defaults(func=run_check)

    rules = sub.add_parser("rules", help="list the rule catalog")
    rules.add_argument("--format", choices=["text", "json"], default="text")
    rules.set_defaults(func=run_rules)

    exp = sub.add_parser("explain", help="print a rule's documentation")
    exp.add_argument("rule", metavar="CODE", help="a code (TP101) or name (mixed-devices)")
    exp.set_defaults(func=run_explain)

    if plugins:  # (imported here: `importlib.metadata` costs a built-in command's start ~0.1 CPU s)
        from importlib import metadata
    for entry in metadata.entry_points(group="torchplace.commands") if plugins else ():
        try:
            entry.load()(sub)
        except Exception as exc:  # a broken plug-in must not break `check`
            broken = sub.add_parser(entry.name, help=f"(unavailable: {exc})")
            broken.set_defaults(func=lambda args, e=exc, n=entry.name: _unavailable(n, e))
    return parser


def _unavailable(name: str, exc: Exception) -> int:
    print(f"torchplace {name}: not available: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 2


def _fix_text(text: str, path: str, config: Config, unsafe: bool, project=None) -> str:
    """What `check --fix` writes for `text`."""
    check = lambda t: check_source(t, path, config, project=project)  # noqa: E731
    return fix_until_stable(text, check, unsafe=unsafe, max_rounds=MAX_FIX_ROUNDS).text


def run_rules(args) -> int:
    if args.format == "json":
        import json

        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.label, "summary": r.summary,
                           "fixable": bool(r.fix_safety and "no automatic fix" not in r.fix_safety)} for r in ALL_RULES], indent=2))
        return 0
    width = max(len(r.name) for r in ALL_RULES)
    for r in ALL_RULES:
        print(f"{r.code}  {r.name:<{width}}  {r.severity.label:<11}  {r.summary}")
    return 0


def run_explain(args) -> int:
    try:
        print(explain(args.rule), end="")
    except KeyError as exc:
        print(f"torchplace: error: {exc.args[0]}", file=sys.stderr)
        return 2
    return 0


def exit_now(code: int) -> None:
    """End the process once its output is out, without tearing the interpreter down: after a
    cross-file check, freeing the syntax trees and module summaries it holds costs about a
    second of CPU on a large project (transformers: 1.0-1.1 s of 7-8), for nothing."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more to say
            pass
    os._exit(code)


def run() -> None:
    """The `torchplace` program: `check` ends at once (`exit_now`), every other command normally
    (the language server and the probe have kernels and threads to close)."""
    checking = sys.argv[1:2] == ["check"]
    if checking:
        ends_with_check()
    code = main()
    if checking:
        exit_now(code)
    sys.exit(code)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args_given = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(plugins=not args_given or args_given[0] not in BUILT_IN_COMMANDS)
    try:
        args = parser.parse_args(args_given)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code or 0)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # internal error: say what and where, exit 2
        import traceback

        traceback.print_exc()
        print(f"torchplace: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    run()
