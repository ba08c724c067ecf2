"""Editor settings (section `torchplace`) merged with `[tool.torchplace]`.

Sources, later ones replacing earlier ones key by key: `initializationOptions`
(the settings object itself, or under `settings`, `globalSettings` or
`torchplace`), then `workspace/configuration` (section `torchplace`), then
`workspace/didChangeConfiguration`.  The project's `[tool.torchplace]` from the
nearest pyproject.toml is applied on top of the editor settings
(`load_config_checked(path, base=editor)`), so the editor and `torchplace check` agree
on a project; it is re-read when a pyproject.toml changes (watched files, and,
for clients that cannot watch files, its modification time on the next check).

Keys:
- engine keys (validated by `Config.parse`): `select`, `ignore`,
  `severity` (code -> error|warning|information|hint), `extraDeviceNames`,
  `perFileIgnores`, `extendExclude`;
- the server's own keys and the probe's (`setting_keys.SERVER_KEYS`: `enable`,
  `debounce`, `ignorePatterns`, `showNotifications`, `reportSyntaxErrors`,
  `syntaxErrorDelay`, `diagnosticMode`, `probe.timeout`, `probe.simulateGpu`,
  `probe.existingKernel`, `probe.args` — the command-line arguments a probed
  script sees in `sys.argv[1:]`);
- keys the VS Code client reads itself (`interpreter`, `importStrategy`,
  `args`, `path`, `trace`, `logLevel`) are accepted and ignored here.

Wrong keys and values are named together in one `window/showMessage`, each
with the value used instead; the rest of the settings still apply.  A
`pyproject.toml` that is not valid TOML, or whose `[tool.torchplace]` cannot be
used, is named once, and checking goes on with the editor settings.
"""
from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

from torchplace_rules import Config
from torchplace_rules.config import find_pyproject, load_config_checked
from torchplace_rules.path_patterns import GlobSet

from .analysis_units import Unit
from .setting_keys import SECTION, SERVER_KEYS, read_server_keys, shown

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)


def unwrap_initialization_options(options: Any) -> Any:
    """The settings object inside whatever shape the client sent."""
    if not isinstance(options, dict):
        return options
    for key in ("settings", "globalSettings", SECTION):
        inner = options.get(key)
        if isinstance(inner, dict):
            return inner
    return options


class Settings:
    """The current editor settings and the per-folder merged engine configs."""

    enabled: bool
    debounce_s: float
    ignore_patterns: tuple[str, ...]
    show_notifications: str
    report_syntax_errors: bool
    syntax_error_delay_s: float
    diagnostic_mode: str
    probe_timeout: Optional[float]  # None: the probe's default
    probe_simulate_gpu: str
    probe_existing_kernel: Optional[str]
    probe_args: tuple[str, ...]

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self.raw: dict[str, Any] = {}
        self.editor_config = Config()
        for key in SERVER_KEYS:
            setattr(self, key.attr, key.default)
        self._by_folder: dict[Optional[str], tuple[Config, Optional[str], Optional[float]]] = {}
        self._reported: set[str] = set()
        self._last_problems: list[str] = []
        self._ignored: tuple[tuple[str, ...], GlobSet] = ((), GlobSet(()))

    # -- editor settings -------------------------------------------------
    def update(self, raw: Any, origin: str) -> list[str]:
        """Replace the editor settings with `raw`; returns the problems found and shows them
        in one message (unless the same problems were shown last time)."""
        problems: list[str] = []
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            problems.append(f"'{SECTION}' must be an object, got {shown(raw)} (using the defaults)")
            raw = {}
        values, engine_keys, found = read_server_keys(raw)
        problems.extend(found)
        try:
            config, found = Config.parse({_kebab(key): value for key, value in engine_keys.items()})
            problems.extend(_editor_names(problem) for problem in found)
        except (RecursionError, TypeError, ValueError) as exc:  # a value the engine cannot even look at
            config = Config()
            problems.append(f"{SECTION}: cannot use {shown(engine_keys)}: {type(exc).__name__} (using the defaults)")
        self.raw = raw
        for attr, value in values.items():
            setattr(self, attr, value)
        self.editor_config = config
        self._by_folder.clear()
        if problems:
            log.warning("torchplace: invalid settings from %s: %s", origin, "; ".join(problems))
        if problems and problems != self._last_problems:
            count = "1 setting has" if len(problems) == 1 else f"{len(problems)} settings have"
            self.server.notify_user(f"torchplace: {count} a wrong value: " + "; ".join(problems) + ".",
                                    types.MessageType.Error)
        self._last_problems = problems
        return problems

    def describe(self) -> str:
        """The settings in force, for the log."""
        server = ", ".join(f"{k.name}={getattr(self, k.attr)!r}" for k in SERVER_KEYS)
        return f"{server}; engine config: {self.editor_config!r}"

    # -- project files ---------------------------------------------------
    def project_files_changed(self) -> None:
        self._by_folder.clear()
        self._reported.clear()

    def config_for(self, unit: Unit) -> Optional[Config]:
        """The engine config for `unit`, or None when it must not be checked."""
        return self.config_for_path(unit.path)

    def config_for_path(self, path: Optional[str]) -> Optional[Config]:
        """The engine config for a file (None: a document with no file), or None when it must not be checked."""
        if not self.enabled:
            return None
        if path and self.ignore_patterns and self._is_ignored(path):
            return None
        folder = os.path.dirname(path) if path else self.server.workspace.root_path
        entry = self._by_folder.get(folder)
        if entry is None or _mtime(entry[1]) != entry[2]:
            entry = self._load(folder)
            self._by_folder[folder] = entry
        config = entry[0]
        if path and config.extend_exclude and config.is_excluded(path):
            return None
        return config

    def _is_ignored(self, path: str) -> bool:
        """Does an `ignorePatterns` glob match the path, a trailing part of it (`tests/*.py`) or a
        folder above it (`build`)?  The patterns are compiled once into the engine's `GlobSet`
        (the matcher behind `extend-exclude`), so a long list costs no more per file than a short one."""
        patterns, globs = self._ignored
        if patterns != self.ignore_patterns:
            globs = GlobSet((p.lstrip("/") for p in self.ignore_patterns), folders=True)
            self._ignored = (self.ignore_patterns, globs)
        parts = Path(path).as_posix().lstrip("/").split("/")
        return any(globs.match("/".join(parts[i:])) for i in range(len(parts)))

    def _load(self, folder: Optional[str]) -> tuple[Config, Optional[str], Optional[float]]:
        """(config, the pyproject.toml it came from, that file's mtime).  Problems in the project's
        configuration (not TOML, `tool = 3`, a wrong key) are named once; checking goes on with
        what is valid, and the editor settings for the rest."""
        if not folder:
            return self.editor_config, None, None
        try:
            config, problems = load_config_checked(folder, base=self.editor_config)
            pyproject = find_pyproject(folder) or _nearest_pyproject(folder)
        except Exception as exc:  # noqa: BLE001 - an engine bug must not stop checking
            config, problems, pyproject = self.editor_config, [f"cannot read the project configuration: {exc!r}"], None
        if problems:
            self._report_project(problems)
        source = str(pyproject) if pyproject is not None else None
        return config, source, _mtime(source)

    def _report_project(self, problems: list[str]) -> None:
        new = [p for p in problems if p not in self._reported]
        if not new:
            return
        self._reported.update(new)
        log.warning("torchplace: project configuration: %s", "; ".join(new))
        self.server.notify_user("torchplace: invalid project configuration: " + "; ".join(new) + ".",
                                types.MessageType.Error)


def _editor_names(problem: str) -> str:
    """An engine problem about `'extra-device-names'` as the editor calls it: `torchplace.extraDeviceNames`."""
    def named(match: re.Match) -> str:
        key = re.sub(r"-([a-z])", lambda m: m.group(1).upper(), match.group(2))
        return f"{match.group(1)}{SECTION}.{key}"

    return re.sub(r"(^|unknown setting )'([^']+)'", named, problem)


def _kebab(key: str) -> str:
    """VS Code settings are camelCase (`extraDeviceNames`); the engine takes kebab or snake case."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "-" + m.group(1).lower(), key)


def _nearest_pyproject(folder: str) -> Optional[Path]:
    """The nearest pyproject.toml at or above `folder` (watched for changes even when unusable)."""
    try:
        here = Path(folder).resolve()
    except (OSError, RuntimeError):
        return None
    for candidate in (here, *here.parents):
        if (candidate / "pyproject.toml").is_file():
            return candidate / "pyproject.toml"
    return None


def _mtime(path: Optional[str]) -> Optional[float]:
    if path is None:
        return None
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1.0
