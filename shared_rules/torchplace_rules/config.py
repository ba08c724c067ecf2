"""Which rules run and how loudly: `[tool.torchplace]` plus editor settings.

Configuration is validated, not trusted: `Config.parse` checks every key and
value (rule codes included) and returns the config built from what is valid
together with a list of problems, each naming the key and the value used
instead, so the CLI can report them and the server can show them once.
`Config.from_dict` and `load_config` are the strict forms: they raise
`ConfigError` with the first problem.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterable, Optional

from .model import Severity
from .path_patterns import GlobSet, GlobTable
from .source_files import UnreadableFile, read_bytes

DEFAULT_DEVICE_NAMES = ("device", "dev", "DEVICE", "torch_device", "target_device")
DEFAULT_MAX_FILE_SIZE = 5_000_000  # bytes of Python source; larger files are skipped with a message
MAX_PYPROJECT_SIZE = 10_000_000  # bytes; a larger pyproject.toml is reported and not read
EDITOR_ONLY_KEYS = ("enable",)  # switches the client and server handle themselves


class ConfigError(ValueError):
    """A setting with a wrong name, type or value."""


class _Problem(Exception):
    """One invalid setting: the message names the key and what is used instead."""


@dataclass(frozen=True)
class Config:
    select: Optional[frozenset[str]] = None  # None: every rule
    ignore: frozenset[str] = frozenset()
    severity: dict[str, Severity] = field(default_factory=dict)
    device_names: tuple[str, ...] = DEFAULT_DEVICE_NAMES
    per_file_ignores: dict[str, frozenset[str]] = field(default_factory=dict)
    extend_exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    root: Optional[str] = None  # folder holding the pyproject.toml it came from

    KEYS = ("select", "ignore", "severity", "extra-device-names", "per-file-ignores", "extend-exclude", "max-file-size")

    @classmethod
    def parse(cls, data: Any, root: Optional[str] = None, base: Optional["Config"] = None) -> tuple["Config", list[str]]:
        """Build from a TOML table or an editor's settings object (keys in kebab or snake case).

        Never raises: returns the config made of every valid setting (the others keep
        `base`'s value, by default the defaults) and one message per problem."""
        cfg = base or cls()
        problems: list[str] = []
        if not isinstance(data, dict):
            problems.append(f"settings must be a table/object, got {_kind(data)}; using the defaults")
            data = {}
        changes: dict[str, Any] = {}
        for raw_key, value in data.items():
            key = str(raw_key).replace("_", "-")
            parse = _PARSERS.get(key)
            if parse is None:
                if key not in EDITOR_ONLY_KEYS:
                    problems.append(f"unknown setting '{raw_key}' (known: {', '.join(cls.KEYS)}); ignored")
                continue
            try:
                field_name, parsed = parse(str(raw_key), value, problems)
            except _Problem as exc:
                problems.append(f"'{raw_key}': {exc}; {_instead(key, cfg)}")
                continue
            changes[field_name] = parsed
        if root is not None:
            changes["root"] = root
        return replace(cfg, **changes), problems

    @classmethod
    def from_dict(cls, data: dict[str, Any], root: Optional[str] = None, base: Optional["Config"] = None) -> "Config":
        """`parse`, strictly: raises `ConfigError` naming the first invalid setting."""
        config, problems = cls.parse(data, root, base)
        if problems:
            raise ConfigError(problems[0])
        return config

    def is_enabled(self, code: str, path: Optional[str] = None) -> bool:
        if self.select is not None and not _matches(code, self.select):
            return False
        if self.ignore and _matches(code, self.ignore):
            return False
        if path and self.per_file_ignores:
            if _matches(code, self._per_file_table.values_for(self._relative(path))):
                return False
        return True

    def severity_of(self, code: str, default: Severity) -> Severity:
        return self.severity.get(code, default)

    def is_excluded(self, path: str) -> bool:
        if not self.extend_exclude:
            return False
        return self._exclude_set.match(self._relative(path))

    @cached_property
    def _exclude_set(self) -> GlobSet:
        return GlobSet(self.extend_exclude, folders=True)

    @cached_property
    def _per_file_table(self) -> GlobTable:
        return GlobTable(self.per_file_ignores)

    def _relative(self, path: str) -> str:
        return _relative_path(self.root, path)


@lru_cache(maxsize=4096)
def _relative_path(root: Optional[str], path: str) -> str:
    """`path` relative to `root`, POSIX style (kept: every rule asks it of every checked file)."""
    if root:
        try:
            return Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
        except (ValueError, OSError, RuntimeError):  # elsewhere, or a symlink loop
            pass
    return Path(path).as_posix()


def _matches(code: str, patterns: Iterable[str]) -> bool:
    """`TP1` selects TP101..TP199 (prefix match, like Ruff); `ALL` selects everything."""
    return any(p == "ALL" or code.startswith(p) for p in patterns)


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _instead(key: str, cfg: Config) -> str:
    """What an invalid `key` falls back to (the base config's value)."""
    if key == "select":
        return "using every rule" if cfg.select is None else f"keeping select = {sorted(cfg.select)}"
    if key == "ignore":
        return f"keeping ignore = {sorted(cfg.ignore)}"
    if key == "severity":
        return "every rule keeps its default severity" if not cfg.severity else "keeping the severities set before"
    if key == "extra-device-names":
        return f"using the device names {list(cfg.device_names)}"
    if key == "per-file-ignores":
        return f"keeping per-file-ignores = {dict((k, sorted(v)) for k, v in cfg.per_file_ignores.items())}"
    if key == "extend-exclude":
        return f"keeping extend-exclude = {list(cfg.extend_exclude)}"
    if key == "max-file-size":
        return f"using {cfg.max_file_size}"
    return "ignored"


@lru_cache(maxsize=1)
def _rule_names() -> tuple[dict[str, str], tuple[str, ...]]:
    from .rules import ALL_RULES  # late: the rules import the engine, which imports this module

    return {r.name: r.code for r in ALL_RULES}, tuple(r.code for r in ALL_RULES)


def rule_code(value: Any) -> str:
    """A code, prefix (`TP1`), `ALL` or rule name, as a code or prefix; raises ValueError
    for anything that matches no rule."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"a rule code must be a non-empty string, got {value!r}")
    text = value.strip()
    names, codes = _rule_names()
    if text in names:
        return names[text]
    code = text.upper()
    if code == "ALL" or any(c.startswith(code) for c in codes):
        return code
    raise ValueError(f"unknown rule code or prefix {text!r} (`torchplace rules` lists them)")


def _code_list(key: str, value: Any, problems: list[str]) -> frozenset[str]:
    """Codes from a list (or a comma-separated string); an unknown one is reported and left out."""
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)):
        raise _Problem(f"must be a list of rule codes, got {_kind(value)}")
    out = set()
    for item in value:
        try:
            out.add(rule_code(item))
        except ValueError as exc:
            problems.append(f"'{key}': {exc}; left out")
    return frozenset(out)


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise _Problem(f"must be a list of strings, got {value!r}"[:200])
    return tuple(value)


def _parse_select(key: str, value: Any, problems: list[str]):
    codes = _code_list(key, value, problems)
    if not codes and value:  # every entry was wrong: say what runs instead
        problems.append(f"'{key}': no valid rule code left; using every rule")
    return "select", codes or None


def _parse_ignore(key: str, value: Any, problems: list[str]):
    return "ignore", _code_list(key, value, problems)


def _parse_severity(key: str, value: Any, problems: list[str]):
    if not isinstance(value, dict):
        raise _Problem(f"must map rule codes to severities, got {_kind(value)}")
    levels: dict[str, Severity] = {}
    for code, level in value.items():
        try:
            parsed_code = rule_code(code)
            if not isinstance(level, str):
                raise ValueError(f"must be error, warning, information or hint, got {level!r}")
            parsed = Severity.parse(level)
        except ValueError as exc:
            problems.append(f"'{key}.{code}': {exc}; keeping the rule's default severity")
            continue
        for full in _rule_names()[1]:  # a prefix sets every rule it selects
            if parsed_code == "ALL" or full.startswith(parsed_code):
                levels[full] = parsed
    return "severity", levels


def _parse_device_names(key: str, value: Any, problems: list[str]):
    names = []
    for name in _strings(value):
        if name.isidentifier():
            names.append(name)
        else:
            problems.append(f"'{key}': {name!r} is not a Python name; left out")
    return "device_names", tuple(dict.fromkeys(DEFAULT_DEVICE_NAMES + tuple(names)))


def _parse_per_file_ignores(key: str, value: Any, problems: list[str]):
    if not isinstance(value, dict):
        raise _Problem(f"must map glob patterns to lists of codes, got {_kind(value)}")
    table = {}
    for pattern, codes in value.items():
        try:
            table[str(pattern)] = _code_list(f"{key}.{pattern}", codes, problems)
        except _Problem as exc:
            problems.append(f"'{key}.{pattern}': {exc}; left out")
    return "per_file_ignores", table


def _parse_extend_exclude(key: str, value: Any, problems: list[str]):
    return "extend_exclude", _strings(value)


def _parse_max_file_size(key: str, value: Any, problems: list[str]):
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise _Problem(f"must be a number of bytes > 0, got {value!r}")
    return "max_file_size", value


_PARSERS = {
    "select": _parse_select,
    "ignore": _parse_ignore,
    "severity": _parse_severity,
    "extra-device-names": _parse_device_names,
    "per-file-ignores": _parse_per_file_ignores,
    "extend-exclude": _parse_extend_exclude,
    "max-file-size": _parse_max_file_size,
}


def toml_module():
    """`tomllib` (`tomli` before 3.11), imported when a pyproject.toml is first read: a check of a
    tree without one never loads it (its regular expressions and `datetime`, ~35M instructions)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 by scripts/test.d/20-pythons.sh
        import tomli as tomllib
    return tomllib


@lru_cache(maxsize=256)
def _read_pyproject(path: str, stamp: tuple[int, int]) -> tuple[Optional[dict], Optional[str]]:
    """(parsed TOML, None) or (None, problem); kept per (path, mtime, size) so that a large
    pyproject.toml is parsed once per run, not once per folder below it.  Only a regular
    file of sane size is read (a FIFO would block, and TOML parses at a few MB a second)."""
    try:
        text = read_bytes(path, MAX_PYPROJECT_SIZE).decode("utf-8")
        tomllib = toml_module()
        return tomllib.loads(text), None
    except toml_module().TOMLDecodeError as exc:
        return None, f"{path}: invalid TOML: {exc}; its settings are ignored"
    except UnicodeDecodeError as exc:
        return None, f"{path}: not UTF-8 ({exc.reason}); its settings are ignored"
    except UnreadableFile as exc:
        return None, f"{path}: {exc}; its settings are ignored"


def _torchplace_table(candidate: Path, problems: list[str]) -> Optional[Any]:
    """The [tool.torchplace] value of one pyproject.toml (None when it has none)."""
    try:
        stat = candidate.stat()
    except OSError:
        return None
    data, problem = _read_pyproject(str(candidate), (stat.st_mtime_ns, stat.st_size))
    if problem is not None:
        problems.append(problem)
        return None
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        problems.append(f"{candidate}: 'tool' must be a table, got {_kind(tool)}; no [tool.torchplace] read from it")
        return None
    return tool.get("torchplace")


def _find_table(start: str | os.PathLike[str], problems: list[str]) -> Optional[tuple[Path, Any]]:
    """The nearest pyproject.toml at or above `start` with a [tool.torchplace], and that table;
    files that cannot be read on the way are reported in `problems` and passed over."""
    path = Path(start).resolve()
    if path.is_file() or not path.exists():
        path = path.parent
    for folder in (path, *path.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            table = _torchplace_table(candidate, problems)
            if table is not None:
                return candidate, table
    return None


def find_pyproject(start: str | os.PathLike[str]) -> Optional[Path]:
    """The nearest pyproject.toml at or above `start` that has a [tool.torchplace] table."""
    found = _find_table(start, [])
    return found[0] if found is not None else None


def load_config_checked(start: str | os.PathLike[str], base: Optional[Config] = None) -> tuple[Config, list[str]]:
    """Config from the nearest pyproject.toml's [tool.torchplace] (defaults, or `base`, when
    none), and the problems found on the way, each naming the file and the key."""
    problems: list[str] = []
    found = _find_table(start, problems)
    if found is None:
        return base or Config(), problems
    pyproject, table = found
    if not isinstance(table, dict):
        problems.append(f"{pyproject}: [tool.torchplace] must be a table, got {_kind(table)}; using the defaults")
        return base or Config(), problems
    config, own = Config.parse(table, root=str(pyproject.parent), base=base)
    problems.extend(f"{pyproject} [tool.torchplace]: {p}" for p in own)
    return config, problems


def load_config(start: str | os.PathLike[str], base: Optional[Config] = None) -> Config:
    """`load_config_checked`, strictly: raises `ConfigError` with the first problem."""
    config, problems = load_config_checked(start, base)
    if problems:
        raise ConfigError(problems[0])
    return config
