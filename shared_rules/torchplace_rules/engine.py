"""`check_source`: one text in, sorted findings out, never a traceback."""
from __future__ import annotations

import ast
import traceback
from typing import Optional

from .flow import analyze
from .analysis_memo import AnalysisMemo
from .config import Config
from .context.expected_errors import expected_error_lines, inside, may_expect_errors
from .model import EngineError, Finding, Severity, Span
from .newer_syntax import without_type_params
from .rules import ACTIVE_RULES, SYNTAX_ERROR
from .flow.cross_file import GuardedSource
from .frame_stack import roomy
from .source_text import SourceText
from .suppression import is_suppressed, suppressions
from .text_lines import split_lines

_DEFAULT = Config()


def check_source(text: str, path: Optional[str] = None, config: Optional[Config] = None,
                 errors: Optional[list] = None, project=None, memo: Optional[AnalysisMemo] = None) -> list[Finding]:
    """Findings for `text`.  Never raises: engine bugs are appended to `errors`
    (a list of `EngineError`) when given; a crashing rule loses only its own findings.
    With `project` (a `ProjectIndex`), imports of the project's own modules are resolved.
    With `memo` (one per document, kept by the caller), only what changed since the
    last call is parsed and analysed again; the result is the same."""
    if memo is not None:
        if not memo.lock.acquire(blocking=False):  # another thread is on this document: do it all
            return check_source(text, path, config, errors, project)
        try:
            return _check(text, path, config, errors, project, memo)
        finally:
            memo.lock.release()
    return _check(text, path, config, errors, project, None)


@roomy  # (the analysis under it recurses: one piece of the frame stack for it all, see frame_stack)
def _check(text, path, config, errors, project, memo) -> list[Finding]:
    config = config or _DEFAULT
    if "\x00" in text:
        return _syntax_finding("file contains NUL bytes (binary file?)", 0, 0, config, path)
    try:
        if memo is not None:
            # A file it imports changed: nothing kept holds.
            stale = project is not None and not memo.dependencies_current(project)
            tree = memo.parse(text, path or "<unknown>", (path, config, id(project)), stale)
        else:
            tree = ast.parse(text, filename=path or "<unknown>")
    except SyntaxError as exc:
        rewritten = without_type_params(text)
        if rewritten is not None:  # Python 3.12 syntax on an older interpreter: valid code
            try:
                ast.parse(rewritten)
            except SyntaxError:
                pass
            else:
                return _check(rewritten, path, config, errors, project, memo)
        line = max((exc.lineno or 1) - 1, 0)
        col = max((exc.offset or 1) - 1, 0)
        return _syntax_finding(f"syntax error: {exc.msg}", line, col, config, path, text)
    except (RecursionError, MemoryError, ValueError) as exc:
        return _syntax_finding(f"cannot parse: {type(exc).__name__}: {exc}", 0, 0, config, path, text)
    rules = [r for r in ACTIVE_RULES if config.is_enabled(r.code, path)]
    if not rules:
        return []
    # With cross-file resolution, positions asked for another file's nodes must be noticed.
    src = GuardedSource(text) if project is not None else SourceText(text)
    try:
        findings = analyze(tree, src, rules, config, path, errors, project, memo)
    except RecursionError:
        # Pathologically deep code: report nothing rather than guess.
        return []
    except Exception as exc:  # a bug in the analysis core: no findings, but say so
        if errors is not None:
            errors.append(EngineError(None, path, f"{type(exc).__name__}: {exc}", "".join(traceback.format_exception(exc))))
        return []
    table = suppressions(text)
    expected = expected_error_lines(tree) if findings and may_expect_errors(text) else None
    out = []
    for f in findings:
        if table and is_suppressed(table, f.span.start_line, f.code):
            continue
        if expected and inside(expected, f.span.start_line + 1):
            continue  # a test that expects this code to raise
        f.severity = config.severity_of(f.code, f.severity)
        out.append(f)
    out.sort(key=lambda f: f.sort_key)
    return out


def _syntax_finding(message, line, col, config, path, text=""):
    if not config.is_enabled(SYNTAX_ERROR.code, path):
        return []
    lines = split_lines(text) or [""]
    line = min(line, len(lines) - 1)
    end_col = len(lines[line])
    col = min(col, end_col)
    return [
        Finding(
            code=SYNTAX_ERROR.code,
            name=SYNTAX_ERROR.name,
            severity=config.severity_of(SYNTAX_ERROR.code, Severity.ERROR),
            message=message,
            span=Span(line, col, line, end_col),
        )
    ]


