"""Editor settings (section `torchplace`) merged with `[tool.torchplace]`.

Sources, later ones replacing earlier ones key by key: `initializationOptions`
(the settings object itself, or under `settings`, `globalSettings` or
`torchplace`), then `workspace/configuration` (section `torchplace`), then
`workspace/didChangeConfiguration`.  The project's `[tool.torchplace]` from the
nearest pyproject.toml is applied on top of the editor settings
(`load_config(path, base=editor)`), so the editor and `torchplace check` agree
on a project; it is re-read when a pyproject.toml changes (watched files, and,
for clients that cannot watch files, its modification time on the next check).

Keys:
- engine keys (validated by `Config.from_dict`): `select`, `ignore`,
  `severity` (code -> error|warning|information|hint), `extraDeviceNames`,
  `perFileIgnores`, `extendExclude`;
- server keys: `enable` (bool), `debounce` (milliseconds before a pushed
  re-check, default 150), `ignorePatterns` (globs of files not to check),
  `showNotifications` (off | onError | onWarning | always);
- probe keys: `probe` = {`timeout` (seconds > 0), `simulateGpu` (auto | on |
  off), `existingKernel` (a kernel connection file, or "" to start one),
  `args` (the command-line arguments a probed script sees in `sys.argv[1:]`)};
- keys the VS Code client reads itself (`interpreter`, `importStrategy`,
  `args`, `path`, `trace`, `logLevel`) are accepted and ignored here.

A wrong key or value is named in a `window/showMessage`; the rest of the
settings still apply and the wrong one falls back to its default.
"""
from __future__ import annotations

import fnmatch
import logging
import os
import re
from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

from torchplace_rules import Config, ConfigError, load_config
from torchplace_rules.config import find_pyproject

from .analysis_units import Unit

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)

SECTION = "torchplace"
CLIENT_ONLY_KEYS = frozenset({"interpreter", "importStrategy", "args", "path", "trace", "logLevel", "serverPath"})
NOTIFICATION_LEVELS = ("off", "onError", "onWarning", "always")
SIMULATE_GPU_MODES = ("auto", "on", "off")
DEFAULT_DEBOUNCE_MS = 150


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

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self.raw: dict[str, Any] = {}
        self.editor_config = Config()
        self.enabled = True
        self.debounce_s = DEFAULT_DEBOUNCE_MS / 1000
        self.ignore_patterns: tuple[str, ...] = ()
        self.show_notifications = "onError"
        self.probe_timeout: Optional[float] = None  # None: the probe's default
        self.probe_simulate_gpu = "auto"
        self.probe_existing_kernel: Optional[str] = None
        self.probe_args: tuple[str, ...] = ()
        self._by_folder: dict[Optional[str], tuple[Config, Optional[str], Optional[float]]] = {}
        self._reported: set[str] = set()

    # -- editor settings -------------------------------------------------
    def update(self, raw: Any, origin: str) -> list[str]:
        """Replace the editor settings with `raw`; returns (and shows) the problems found."""
        problems: list[str] = []
        if raw is None:
            raw = {}
        if not isinstance(raw, dict):
            problems.append(f"'{SECTION}' must be an object, got {type(raw).__name__}")
            raw = {}
        enabled, debounce, patterns, notify = True, DEFAULT_DEBOUNCE_MS / 1000, (), "onError"
        probe_timeout, probe_simulate, probe_existing = None, "auto", None
        probe_args: tuple[str, ...] = ()
        config = Config()
        for key, value in raw.items():
            if value is None or key in CLIENT_ONLY_KEYS:
                continue
            name = f"{SECTION}.{key}"
            if key == "enable":
                if isinstance(value, bool):
                    enabled = value
                else:
                    problems.append(f"'{name}' must be true or false, got {value!r}")
            elif key == "debounce":
                if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 10_000:
                    debounce = value / 1000
                else:
                    problems.append(f"'{name}' must be a number of milliseconds (0-10000), got {value!r}")
            elif key == "ignorePatterns":
                if isinstance(value, list) and all(isinstance(v, str) for v in value):
                    patterns = tuple(value)
                else:
                    problems.append(f"'{name}' must be a list of glob patterns, got {value!r}")
            elif key == "showNotifications":
                if value in NOTIFICATION_LEVELS:
                    notify = value
                else:
                    problems.append(f"'{name}' must be one of {', '.join(NOTIFICATION_LEVELS)}, got {value!r}")
            elif key == "probe":
                if not isinstance(value, dict):
                    problems.append(f"'{name}' must be an object with timeout, simulateGpu, existingKernel; got {value!r}")
                    continue
                for sub, sub_value in value.items():
                    sub_name = f"{name}.{sub}"
                    if sub == "timeout":
                        if isinstance(sub_value, (int, float)) and not isinstance(sub_value, bool) and sub_value > 0:
                            probe_timeout = float(sub_value)
                        else:
                            problems.append(f"'{sub_name}' must be a number of seconds > 0, got {sub_value!r}")
                    elif sub == "simulateGpu":
                        if sub_value in SIMULATE_GPU_MODES:
                            probe_simulate = sub_value
                        else:
                            problems.append(f"'{sub_name}' must be one of auto, on, off; got {sub_value!r}")
                    elif sub == "existingKernel":
                        if isinstance(sub_value, str):
                            probe_existing = sub_value.strip() or None
                        else:
                            problems.append(f"'{sub_name}' must be a path to a kernel connection file, got {sub_value!r}")
                    elif sub == "args":
                        if isinstance(sub_value, list) and all(isinstance(a, str) for a in sub_value):
                            probe_args = tuple(sub_value)
                        else:
                            problems.append(f"'{sub_name}' must be a list of strings, got {sub_value!r}")
                    else:
                        problems.append(f"unknown setting '{sub_name}' (known: timeout, simulateGpu, existingKernel, args)")
            else:
                try:
                    config = Config.from_dict({_kebab(key): value}, base=config)
                except ConfigError as exc:
                    problems.append(f"'{name}': {exc}")
        self.raw = raw
        self.enabled, self.debounce_s, self.ignore_patterns, self.show_notifications = enabled, debounce, patterns, notify
        self.probe_timeout, self.probe_simulate_gpu, self.probe_existing_kernel = probe_timeout, probe_simulate, probe_existing
        self.probe_args = probe_args
        self.editor_config = config
        self._by_folder.clear()
        for problem in problems:
            log.warning("torchplace: invalid setting from %s: %s", origin, problem)
            self.server.notify_user(
                f"torchplace: invalid setting {problem}. Using the default for it.", types.MessageType.Error
            )
        return problems

    # -- project files ---------------------------------------------------
    def project_files_changed(self) -> None:
        self._by_folder.clear()
        self._reported.clear()

    def config_for(self, unit: Unit) -> Optional[Config]:
        """The engine config for `unit`, or None when it must not be checked."""
        if not self.enabled:
            return None
        path = unit.path
        if path and self.ignore_patterns and _matches_any(path, self.ignore_patterns):
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

    def _load(self, folder: Optional[str]) -> tuple[Config, Optional[str], Optional[float]]:
        """(config, the pyproject.toml it came from, that file's mtime)."""
        if not folder:
            return self.editor_config, None, None
        pyproject = find_pyproject(folder)
        if pyproject is None:
            return self.editor_config, None, None
        source = str(pyproject)
        return self._load_config(source), source, _mtime(source)

    def _load_config(self, pyproject: str) -> Config:
        try:
            return load_config(pyproject, base=self.editor_config)
        except ConfigError as exc:
            message = str(exc)
            if message not in self._reported:
                self._reported.add(message)
                log.warning("torchplace: %s", message)
                self.server.notify_user(
                    f"torchplace: invalid project setting: {message}. Using the editor settings.",
                    types.MessageType.Error,
                )
            return self.editor_config


def _kebab(key: str) -> str:
    """VS Code settings are camelCase (`extraDeviceNames`); the engine takes kebab or snake case."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "-" + m.group(1).lower(), key)


def _mtime(path: Optional[str]) -> Optional[float]:
    if path is None:
        return None
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1.0


def _matches_any(path: str, patterns: tuple[str, ...]) -> bool:
    base = os.path.basename(path)
    norm = path.replace(os.sep, "/")
    return any(fnmatch.fnmatch(norm, p) or fnmatch.fnmatch(base, p) or fnmatch.fnmatch(norm, "*/" + p.lstrip("/")) for p in patterns)
