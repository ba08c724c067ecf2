"""Walking paths the way users expect, and safely: `.gitignore` honoured (git's own
rules, through `pathspec`), excludes honoured, and nothing on disk can trap the walk.

Only regular files are yielded: a symbolic-link loop, a dangling link, a FIFO,
a device or a socket with a Python name is reported (a `WalkIssue`) and
skipped; symbolic links to folders are not followed (as git does not).  A
path given on the command line that does not exist is an error; the walk
goes on with the others.  Patterns are compiled once per folder, so the walk
is linear in the number of files.
"""
from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Union

from .config import DEFAULT_MAX_FILE_SIZE, Config, load_config_checked
from .engine import check_source
from .model import Finding
from .source_files import UnreadableFile
from .source_files import read_source as _read_source
from .text_lines import split_lines

if TYPE_CHECKING:
    import pathspec

ALWAYS_SKIPPED = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox", "node_modules", ".mypy_cache", ".pytest_cache", "site-packages", ".eggs", "build", "dist"}
SOURCE_SUFFIXES = (".py", ".pyi", ".ipynb")


@dataclass(frozen=True)
class WalkIssue:
    """A path that is not checked, and why; `error` for a named path that does not exist."""

    path: str
    message: str
    error: bool = False


_Ignores = tuple[tuple[str, "pathspec.GitIgnoreSpec"], ...]  # (folder, its .gitignore), outermost first


def _gitignore(folder: str) -> Optional["pathspec.GitIgnoreSpec"]:
    try:
        with open(os.path.join(folder, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            lines = split_lines(handle.read())
    except OSError:
        return None
    import pathspec  # (here: a check that never walks a folder with a .gitignore does without it, ~20 ms)

    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return spec if len(spec) else None


def _ignored(ignores: _Ignores, path: str, is_dir: bool) -> bool:
    """git's answer: the deepest .gitignore with a matching pattern decides."""
    result = False
    for base, spec in ignores:
        rel = os.path.relpath(path, base).replace(os.sep, "/") + ("/" if is_dir else "")
        include = spec.check_file(rel).include
        if include is not None:
            result = include
    return result


def _problem(path: str) -> Optional[str]:
    """Why a listed file must not be read (None for a regular file)."""
    try:
        info = os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "symbolic link loop; skipped"
        if os.path.islink(path):
            return "dangling symbolic link; skipped"
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file (a FIFO, device or socket); skipped"
    return None


def walk(paths: list[str], excluded: Callable[[str], bool] = lambda path: False) -> Iterator[Union[Path, WalkIssue]]:
    """Files to check under `paths` (files named directly are always yielded), and issues.

    `excluded(path)` says whether a folder or file found in the walk is left out
    (the project's `extend-exclude`)."""
    for raw in paths:
        if not os.path.lexists(raw):
            yield WalkIssue(raw, "no such file or directory", error=True)
            continue
        if not os.path.isdir(raw):
            problem = _problem(raw)
            yield WalkIssue(raw, problem) if problem else Path(raw)
            continue
        top = os.path.abspath(raw)
        ignores: _Ignores = tuple((str(p), s) for p in reversed(Path(top).parents) if (s := _gitignore(str(p))))
        by_folder: dict[str, _Ignores] = {}
        issues: list[WalkIssue] = []
        for folder, dirs, files in os.walk(raw, onerror=lambda e: issues.append(WalkIssue(e.filename, f"cannot list: {e.strerror}"))):
            yield from issues
            issues.clear()
            here = os.path.abspath(folder)
            inherited = by_folder.pop(here, ignores)
            own = _gitignore(here)
            active = inherited + ((here, own),) if own is not None else inherited
            kept = []
            for d in sorted(dirs):
                full = os.path.join(folder, d)
                if d in ALWAYS_SKIPPED or d.endswith(".egg-info") or os.path.islink(full):
                    continue
                if _ignored(active, os.path.join(here, d), True) or excluded(full):
                    continue
                kept.append(d)
                by_folder[os.path.join(here, d)] = active
            dirs[:] = kept
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                full = os.path.join(folder, name)
                if _ignored(active, os.path.join(here, name), False) or excluded(full):
                    continue
                problem = _problem(full)
                yield WalkIssue(full, problem) if problem else Path(full)
        yield from issues


def iter_python_files(paths: list[str], config: Optional[Config] = None) -> Iterator[Path]:
    """The files `walk` yields, issues left out (`config`'s excludes apply)."""
    config = config or Config()
    for entry in walk(paths, config.is_excluded):
        if isinstance(entry, Path):
            yield entry


def check_path(path: Union[str, os.PathLike[str]], config: Optional[Config] = None, project=None) -> list[Finding]:
    """Check one Python file from disk (config from the nearest pyproject.toml unless given)."""
    p = Path(path)
    if config is None:
        config = load_config_checked(p)[0]
    try:
        source = _read_source(p, config.max_file_size)
    except UnreadableFile:
        return []
    return check_source(source.text, str(p), config, project=project)


def read_source(path: Union[str, os.PathLike[str]], max_size: int = DEFAULT_MAX_FILE_SIZE) -> tuple[Optional[str], Optional[str]]:
    """(text, None), or (None, why it is not read): a regular file of at most `max_size`
    bytes, decoded as Python decodes it (`source_files.read_source` keeps the encoding too)."""
    try:
        return _read_source(path, max_size).text, None
    except UnreadableFile as exc:
        return None, str(exc)
