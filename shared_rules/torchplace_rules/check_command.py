"""`torchplace check`: walk, configure, check, fix, report.

Bad input never ends the run early: a missing path, an unreadable file or an
invalid `[tool.torchplace]` is reported on stderr and the rest is checked; the
exit code is 2 at the end if any path or setting was wrong, else 1 when
something is reported, else 0.  `--fix` and `--diff` apply exactly the fixes
of what would be reported (`--min-severity`, `--select`, `--ignore`,
per-file ignores), write each file in its own encoding, and never write
outside the paths given or through a symbolic link unless asked.
"""
from __future__ import annotations

import os
import sys
from dataclasses import replace
from typing import Optional

from .config import Config, load_config_checked
from .engine import check_source
from .files import WalkIssue, walk
from .fixes import fix_until_stable
from .model import Finding, Severity
from .notebook_files import with_sources
from .notebook_program import fixed_cells, join_cells
from .output_formats import ReportedFile, render_json, render_sarif, render_text
from .parallel_check import CheckedFile, check_files, check_notebook_program, check_one, new_index
from .rules import ALL_RULES
from .source_files import write_fixed
from .text_lines import split_lines

MAX_FIX_ROUNDS = 8


class _Run:
    """What one `check` run has said so far, and the configs it has read."""

    def __init__(self, args) -> None:
        self.args = args
        self.failed = False  # a bad path or setting: exit 2 at the end
        self.said: set[str] = set()
        self.configs: dict[str, Config] = {}
        self.min_severity = Severity.parse(args.min_severity)
        # A folder given is a root; a file given is written only inside its own folder.
        self.roots = [os.path.realpath(p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))) for p in args.paths]

    def say(self, level: str, message: str) -> None:
        if message not in self.said:
            self.said.add(message)
            print(f"torchplace: {level}: {message}", file=sys.stderr)

    def warn(self, message: str) -> None:
        self.say("warning", message)

    def error(self, message: str) -> None:
        self.failed = True
        self.say("error", message)

    def config_for(self, path: str) -> Config:
        """The config of the folder holding `path` (a file or folder): the nearest
        [tool.torchplace] at or above it, or --config, with the CLI's overrides."""
        folder = "" if self.args.config else os.path.dirname(os.path.abspath(path))
        config = self.configs.get(folder)
        if config is None:
            config, problems = load_config_checked(self.args.config or folder)
            for problem in problems:
                self.error(problem)
            config = self.configs[folder] = _with_overrides(config, self.args)
        return config

    def writable(self, path: str) -> Optional[str]:
        """None if `--fix` may write `path`, else why not."""
        real = os.path.realpath(path)
        if any(real.startswith(root.rstrip(os.sep) + os.sep) for root in self.roots):
            return None
        return "not fixed: it resolves to a file outside the paths given"


def _with_overrides(config: Config, args) -> Config:
    changes: dict = {}
    if args.select:
        changes["select"] = frozenset(args.select)
    if args.ignore:
        changes["ignore"] = config.ignore | frozenset(args.ignore)
    if args.max_file_size:
        changes["max_file_size"] = args.max_file_size
    return replace(config, **changes) if changes else config


def run_check(args) -> int:
    run = _Run(args)
    if args.config and not os.path.isfile(args.config):
        print(f"torchplace: error: --config {args.config}: no such file", file=sys.stderr)
        return 2
    items: list[tuple[str, Config]] = []
    # A file or folder found by the walk is left out by its own folder's extend-exclude;
    # a path named on the command line is always checked.
    for entry in walk(args.paths, lambda p: run.config_for(p).is_excluded(p)):
        if isinstance(entry, WalkIssue):
            (run.error if entry.error else run.warn)(f"{entry.path}: {entry.message}")
            continue
        items.append((str(entry), run.config_for(str(entry))))
    if not items and not run.failed:
        run.warn("No Python files found under the given path(s)")
    fixing = args.fix or args.diff
    named = tuple(p for p in args.paths if os.path.isdir(p))  # `check DIR` names the project (no marker: its root)
    project = new_index(args.cross_file, static=not args.fix, named_roots=named)
    checked = (check_one(item, project) for item in items) if fixing else \
        check_files(items, args.jobs, args.cross_file, named)
    config_of = dict(items)
    reported: list[ReportedFile] = []
    fixed_total = 0
    for result in checked:
        if result.text is None:
            run.warn(f"{result.path}: {result.error}")
            continue
        for error in result.engine_errors:
            run.warn(error.describe())
        result.findings = _reportable(result.findings, run.min_severity)
        if fixing:
            fixed_total += _fix(run, result, config_of[result.path], project)
        reported.append(ReportedFile(result.path, result.findings, result.text, result.program))
    remaining = sum(len(r.findings) for r in reported)
    if not args.diff:
        _print_report(args, reported, fixed_total, remaining, checked_any=bool(items))
    if run.failed:
        return 2
    return 1 if remaining else 0


def _reportable(findings: list[Finding], min_severity: Severity) -> list[Finding]:
    return [f for f in findings if f.severity <= min_severity]


def _print_report(args, reported: list[ReportedFile], fixed: int, remaining: int, checked_any: bool) -> None:
    if args.format == "json":
        sys.stdout.write(render_json(reported))
    elif args.format == "sarif":
        sys.stdout.write(render_sarif(reported, ALL_RULES))
    else:
        sys.stdout.write(render_text(reported, fixable_hint=not args.fix, checked_any=checked_any))
    if args.fix:
        stream = sys.stdout if args.format == "text" else sys.stderr
        stream.write(f"Fixed {fixed} ({remaining} remaining).\n")


def _fix(run: _Run, result: CheckedFile, config: Config, project) -> int:
    """Fix one file (or show the diff); updates `result` to what was written. Returns fixes applied."""
    args = run.args
    def check(text: str) -> list[Finding]:
        return _reportable(check_source(text, result.path, config, project=project), run.min_severity)

    fixed = fix_until_stable(result.text, check, result.findings, args.unsafe_fixes, MAX_FIX_ROUNDS)
    if fixed.text == result.text:
        return 0
    if result.program is not None:
        return _fix_notebook(run, result, fixed, config, project)
    try:
        data = result.source.encode(fixed.text)
    except UnicodeEncodeError:
        run.warn(f"{result.path}: not fixed: the fix needs characters that {result.source.codec} cannot hold")
        return 0
    if args.diff:
        _print_diff(result.text, fixed.text, result.path)
        return fixed.applied
    problem = run.writable(result.path) or write_fixed(result.path, data, args.fix_symlinks)
    if problem:
        run.warn(f"{result.path}: {problem}")
        return 0
    result.text, result.findings = fixed.text, fixed.findings
    return fixed.applied


def _fix_notebook(run: _Run, result: CheckedFile, fixed, config: Config, project) -> int:
    program = result.program
    changed = fixed_cells(program, fixed.text)
    if changed is None:
        run.warn(f"{result.path}: not fixed: a fix crossed a cell boundary")
        return 0
    if not changed:
        return 0
    texts = dict(result.notebook.cells)
    if run.args.diff:
        for index, text in changed.items():
            _print_diff(texts[index], text, f"{result.path}:cell {index + 1}")
        return fixed.applied
    problem = run.writable(result.path) or write_fixed(
        result.path, with_sources(result.notebook, changed).encode("utf-8"), run.args.fix_symlinks)
    if problem:
        run.warn(f"{result.path}: {problem}")
        return 0
    texts.update(changed)
    new_program = join_cells(list(texts.items()))
    before = len(result.findings)
    if new_program.text == fixed.text:
        findings = fixed.findings
    else:  # a cell's fix was held back: report what the notebook now holds
        findings = _reportable(check_notebook_program(
            new_program, lambda t: check_source(t, result.path, config, project=project)), run.min_severity)
    result.text, result.program, result.findings = new_program.text, new_program, findings
    return fixed.applied if new_program.text == fixed.text else max(before - len(findings), 0)


def _print_diff(old: str, new: str, label: str) -> None:
    import difflib  # (only `--diff` needs it)

    for line in difflib.unified_diff(split_lines(old, keepends=True), split_lines(new, keepends=True),
                                     f"a/{label}", f"b/{label}"):
        sys.stdout.write(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n")
