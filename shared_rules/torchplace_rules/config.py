"""Which rules run and how loudly: `[tool.torchplace]` plus editor settings.

Every key is validated; a wrong one raises `ConfigError` whose message names
the key, so the CLI can exit 2 and the server can show a message and fall back
to defaults.
"""
from __future__ import annotations

import fnmatch
from functools import lru_cache
import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Optional

from .model import Severity

DEFAULT_DEVICE_NAMES = ("device", "dev", "DEVICE", "torch_device", "target_device")


class ConfigError(ValueError):
    """A setting with a wrong name, type or value."""


@dataclass(frozen=True)
class Config:
    select: Optional[frozenset[str]] = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity] = field(default_factory=dict)
    device_names: tuple[str, ...] = DEFAULT_DEVICE_NAMES
    per_file_ignores: dict[str, frozenset[str]] = field(default_factory=dict)
    extend_exclude: tuple[str, ...] = ()
    root: Optional[str] = None  # folder holding the pyproject.toml it came from

    KEYS = ("select", "ignore", "severity", "extra-device-names", "per-file-ignores", "extend-exclude")

    @classmethod
    def from_dict(cls, data: dict[str, Any], root: Optional[str] = None, base: Optional["Config"] = None) -> "Config":
        """Build from a TOML table or an editor's settings object (keys in kebab or snake case)."""
        if not isinstance(data, dict):
            raise ConfigError(f"settings must be a table/object, got {type(data).__name__}")
        cfg = base or cls()
        changes: dict[str, Any] = {}
        for raw_key, value in data.items():
            key = raw_key.replace("_", "-")
            if key in ("select", "ignore"):
                codes = _codes(raw_key, value)
                changes[key] = codes if key == "ignore" else (codes or None)
            elif key == "severity":
                if not isinstance(value, dict):
                    raise ConfigError(f"'{raw_key}' must map rule codes to severities, got {type(value).__name__}")
                sev = {}
                for code, level in value.items():
                    if not isinstance(level, str):
                        raise ConfigError(f"'{raw_key}.{code}' must be a string, got {type(level).__name__}")
                    try:
                        sev[_code(code)] = Severity.parse(level)
                    except ValueError as exc:
                        raise ConfigError(f"'{raw_key}.{code}': {exc}") from None
                changes["severity"] = sev
            elif key == "extra-device-names":
                names = _strings(raw_key, value)
                changes["device_names"] = tuple(dict.fromkeys(DEFAULT_DEVICE_NAMES + tuple(names)))
            elif key == "per-file-ignores":
                if not isinstance(value, dict):
                    raise ConfigError(f"'{raw_key}' must map glob patterns to lists of codes")
                changes["per_file_ignores"] = {str(p): _codes(f"{raw_key}.{p}", v) for p, v in value.items()}
            elif key == "extend-exclude":
                changes["extend_exclude"] = tuple(_strings(raw_key, value))
            elif key in ("enable",):
                continue  # editor-only switch, handled by the client/server
            else:
                raise ConfigError(f"unknown setting '{raw_key}' (known: {', '.join(cls.KEYS)})")
        if root is not None:
            changes["root"] = root
        return replace(cfg, **changes)

    def is_enabled(self, code: str, path: Optional[str] = None) -> bool:
        if self.select is not None and not _matches(code, self.select):
            return False
        if _matches(code, self.ignore):
            return False
        if path and self.per_file_ignores:
            rel = self._relative(path)
            for pattern, codes in self.per_file_ignores.items():
                if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(os.path.basename(rel), pattern):
                    if _matches(code, codes):
                        return False
        return True

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)

    def is_excluded(self, path: str) -> bool:
        if not self.extend_exclude:
            return False
        rel = self._relative(path)
        return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p.rstrip("/") + "/*") for p in self.extend_exclude)

    def _relative(self, path: str) -> str:
        return _relative_path(self.root, path)


@lru_cache(maxsize=4096)
def _relative_path(root: Optional[str], path: str) -> str:
    """`path` relative to `root`, POSIX style (kept: every rule asks it of every checked file)."""
    if root:
        try:
            return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            pass
    return Path(path).as_posix()


def _matches(code: str, patterns: Iterable[str]) -> bool:
    """`TP1` selects TP101..TP199 (prefix match, like Ruff); `ALL` selects everything."""
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def _code(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"rule code must be a non-empty string, got {value!r}")
    text = value.strip()
    from .rules import RULES_BY_NAME  # names are accepted where codes are

    if text in RULES_BY_NAME:
        return RULES_BY_NAME[text].code
    return text.upper()


def _codes(key: str, value: Any) -> frozenset[str]:
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)):
        raise ConfigError(f"'{key}' must be a list of rule codes, got {type(value).__name__}")
    return frozenset(_code(v) for v in value)


def _strings(key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"'{key}' must be a list of strings")
    return list(value)


def find_pyproject(start: str | os.PathLike[str]) -> Optional[Path]:
    """The nearest pyproject.toml at or above `start` that has a [tool.torchplace] table."""
    found = _find_pyproject_data(start)
    return found[0] if found is not None else None


def _find_pyproject_data(start: str | os.PathLike[str]) -> Optional[tuple[Path, dict]]:
    """`find_pyproject`, with the parsed file (so it is read once)."""
    path = Path(start).resolve()
    if path.is_file() or not path.exists():
        path = path.parent
    for folder in (path, *path.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue
            if "torchplace" in data.get("tool", {}):
                return candidate, data
    return None


def load_config(start: str | os.PathLike[str], base: Optional[Config] = None) -> Config:
    """Config from the nearest pyproject.toml's [tool.torchplace]; defaults when none."""
    found = _find_pyproject_data(start)
    if found is None:
        return base or Config()
    pyproject, data = found
    table = data["tool"]["torchplace"]
    try:
        return Config.from_dict(table, root=str(pyproject.parent), base=base)
    except ConfigError as exc:
        raise ConfigError(f"{pyproject} [tool.torchplace]: {exc}") from None
