"""Walking paths the way users expect: .gitignore-aware, excludes honoured."""
from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import Iterator, Optional

from .config import Config, ConfigError, load_config
from .engine import check_source
from .model import Finding

ALWAYS_SKIPPED = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".nox", "node_modules", ".mypy_cache", ".pytest_cache", "site-packages", ".eggs", "build", "dist"}


class _GitIgnore:
    """The subset of .gitignore that matters for picking source files."""

    def __init__(self) -> None:
        self.rules: list[tuple[Path, str, bool, bool]] = []  # (base, pattern, negated, dir_only)

    def add_file(self, folder: Path) -> None:
        path = folder / ".gitignore"
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.strip("/") if "/" in line.rstrip("/") else line.rstrip("/")
            self.rules.append((folder, line, negated, dir_only))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        result = False
        for base, pattern, negated, dir_only in self.rules:
            if dir_only and not is_dir:
                continue
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            if "/" in pattern:
                hit = fnmatch.fnmatch(rel, pattern)
            else:
                hit = fnmatch.fnmatch(path.name, pattern)
            if hit:
                result = not negated
        return result


def iter_python_files(paths: list[str], config: Optional[Config] = None) -> Iterator[Path]:
    """Files named directly are always yielded; folders are walked with ignores."""
    config = config or Config()
    for raw in paths:
        root = Path(raw)
        if root.is_file():
            yield root
            continue
        ignore = _GitIgnore()
        for parent in reversed([root.resolve(), *root.resolve().parents]):
            ignore.add_file(parent)
        for folder, dirs, files in os.walk(root):
            here = Path(folder)
            if here != root:
                ignore.add_file(here)
            dirs[:] = sorted(
                d for d in dirs
                if d not in ALWAYS_SKIPPED and not d.endswith(".egg-info")
                and not ignore.ignored((here / d).resolve(), True)
                and not config.is_excluded(str(here / d))
            )
            for name in sorted(files):
                if not (name.endswith(".py") or name.endswith(".pyi")):
                    continue
                path = here / name
                if ignore.ignored(path.resolve(), False) or config.is_excluded(str(path)):
                    continue
                yield path


def read_source(path: Path) -> tuple[Optional[str], Optional[str]]:
    """(text, None) or (None, reason). Non-UTF-8 files fall back to latin-1 with a note."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError:
        return data.decode("latin-1"), None


def check_path(path: str | os.PathLike[str], config: Optional[Config] = None, project=None) -> list[Finding]:
    """Check one file from disk (config from the nearest pyproject.toml unless given)."""
    p = Path(path)
    if config is None:
        try:
            config = load_config(p)
        except ConfigError:
            config = Config()
    text, error = read_source(p)
    if text is None:
        return []
    return check_source(text, str(p), config, project=project)
