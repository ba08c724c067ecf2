"""The `torchplace` command: check, rules, explain (+ plug-in sub-commands).

Exit codes: 0 nothing reported, 1 findings reported, 2 usage or internal error.
`serve` and `probe` come from the `torchplace.commands` entry-point group so
that the engine never imports editor or kernel code.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from importlib import metadata
from pathlib import Path
from typing import Optional, Sequence

from .config import Config, ConfigError, load_config
from .engine import check_source
from .files import iter_python_files
from .fixes import fix_until_stable
from .model import Finding, Severity
from .parallel_check import check_files, check_one, new_index
from .output_formats import VERSION, render_json, render_sarif, render_text
from .rules import ALL_RULES, explain

MAX_FIX_ROUNDS = 8


def _codes(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def build_parser() -> argparse.ArgumentParser:
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
    check.set_defaults(func=run_check)

    rules = sub.add_parser("rules", help="list the rule catalog")
    rules.add_argument("--format", choices=["text", "json"], default="text")
    rules.set_defaults(func=run_rules)

    exp = sub.add_parser("explain", help="print a rule's documentation")
    exp.add_argument("rule", metavar="CODE", help="a code (TP101) or name (mixed-devices)")
    exp.set_defaults(func=run_explain)

    for entry in metadata.entry_points(group="torchplace.commands"):
        try:
            entry.load()(sub)
        except Exception as exc:  # a broken plug-in must not break `check`
            broken = sub.add_parser(entry.name, help=f"(unavailable: {exc})")
            broken.set_defaults(func=lambda args, e=exc, n=entry.name: _unavailable(n, e))
    return parser


def _unavailable(name: str, exc: Exception) -> int:
    print(f"torchplace {name}: not available: {type(exc).__name__}: {exc}", file=sys.stderr)
    return 2


def _config_for(args, path: Path) -> Config:
    if args.config:
        base = load_config(args.config)
    else:
        base = load_config(path)
    overrides = {}
    if args.select:
        overrides["select"] = args.select
    if args.ignore:
        overrides["ignore"] = list(base.ignore) + args.ignore
    return Config.from_dict(overrides, base=base) if overrides else base


def run_check(args) -> int:
    min_sev = Severity.parse(args.min_severity)
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        for p in missing:
            print(f"torchplace: error: {p}: no such file or directory", file=sys.stderr)
        return 2
    try:
        root_config = _config_for(args, Path(args.paths[0]))
    except ConfigError as exc:
        print(f"torchplace: error: {exc}", file=sys.stderr)
        return 2
    results: list[tuple[str, list[Finding]]] = []
    sources: dict[str, str] = {}
    configs: dict[Path, Config] = {}
    items: list[tuple[str, Config]] = []
    for path in iter_python_files(args.paths, root_config):
        try:
            if args.config:
                config = root_config
            elif path.parent in configs:
                config = configs[path.parent]
            else:
                config = configs[path.parent] = _config_for(args, path)
        except ConfigError as exc:
            print(f"torchplace: error: {exc}", file=sys.stderr)
            return 2
        items.append((str(path), config))
    config_of = dict(items)
    project = new_index(args.cross_file, static=not args.fix)
    checked = (check_one(item, project) for item in items) if args.fix or args.diff \
        else check_files(items, args.jobs, args.cross_file)
    for shown, text, error, findings, errors in checked:
        path, config = Path(shown), config_of[shown]
        if text is None:
            print(f"torchplace: warning: {shown}: {error}", file=sys.stderr)
            continue
        for error in errors:
            print(f"torchplace: warning: {error.describe()}", file=sys.stderr)
        if args.fix or args.diff:
            fixed, fixed_findings = fix_until_stable(
                text, lambda t: check_source(t, shown, config, project=project), findings, args.unsafe_fixes, MAX_FIX_ROUNDS)
            if fixed != text:
                if args.diff:
                    sys.stdout.writelines(difflib.unified_diff(
                        text.splitlines(keepends=True), fixed.splitlines(keepends=True), f"a/{shown}", f"b/{shown}"))
                else:
                    path.write_text(fixed, encoding="utf-8")
                    text, findings = fixed, fixed_findings
        sources[shown] = text
        results.append((shown, [f for f in findings if f.severity <= min_sev]))
    reported = sum(len(fs) for _, fs in results)
    if args.diff:
        return 1 if reported else 0
    if args.format == "json":
        sys.stdout.write(render_json(results))
    elif args.format == "sarif":
        sys.stdout.write(render_sarif(results, ALL_RULES))
    else:
        sys.stdout.write(render_text(results, sources, fixable_hint=not args.fix))
    return 1 if reported else 0


def _fix_text(text: str, path: str, config: Config, unsafe: bool, project=None) -> str:
    """What `check --fix` writes for `text`."""
    check = lambda t: check_source(t, path, config, project=project)  # noqa: E731
    return fix_until_stable(text, check, unsafe=unsafe, max_rounds=MAX_FIX_ROUNDS)[0]


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


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
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
    sys.exit(main())
