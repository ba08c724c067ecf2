"""The server's own setting keys: each with its default, its check and how a wrong value is named.

`read_server_keys(raw)` returns the values to use and one problem per wrong
key, each naming the key, the value it got and the value used instead.  Keys
of the engine (`select`, `ignore`, `severity`, ...) are checked by the engine's
`Config.from_dict`; keys the VS Code client reads itself are passed over.
"""
from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, Callable, Optional

SECTION = "torchplace"
NOTIFICATION_LEVELS = ("off", "onError", "onWarning", "always")
SIMULATE_GPU_MODES = ("auto", "on", "off")
DIAGNOSTIC_MODES = ("openFiles", "workspace")

_short = reprlib.Repr()
_short.maxlevel, _short.maxstring, _short.maxother, _short.maxlist, _short.maxdict = 3, 60, 60, 6, 6


def shown(value: Any) -> str:
    """A value as a message quotes it: short, whatever its size or depth."""
    try:
        return _short.repr(value)
    except Exception:  # noqa: BLE001 - a value that cannot even be shown
        return f"a {type(value).__name__}"


class Invalid(ValueError):
    """Raised by a key's check with what the value must be."""


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise Invalid("must be true or false")
    return value


def _number(low: float, high: float, unit: str, scale: float = 1.0) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise Invalid(f"must be a number of {unit} ({low:g}-{high:g})")
        return value * scale
    return check


def _positive_seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise Invalid("must be a number of seconds > 0")
    return float(value)


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise Invalid(f"must be one of {', '.join(choices)}")
        return value
    return check


def _list_of(what: str) -> Callable[[Any], tuple[str, ...]]:
    def check(value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise Invalid(f"must be a list of {what}")
        return tuple(value)
    return check


def _kernel_file(value: Any) -> Optional[str]:
    if not isinstance(value, str):
        raise Invalid("must be a path to a kernel connection file")
    return value.strip() or None


@dataclass(frozen=True)
class Key:
    name: str  # as in the editor's settings, `probe.timeout` for nested keys
    attr: str  # the `Settings` attribute that holds the value
    default: Any
    check: Callable[[Any], Any]
    default_shown: str


SERVER_KEYS = (
    Key("enable", "enabled", True, _boolean, "true"),
    Key("debounce", "debounce_s", 0.15, _number(0, 10_000, "milliseconds", 1 / 1000), "150"),
    Key("ignorePatterns", "ignore_patterns", (), _list_of("glob patterns"), "[]"),
    Key("showNotifications", "show_notifications", "onError", _one_of(NOTIFICATION_LEVELS), "onError"),
    Key("reportSyntaxErrors", "report_syntax_errors", True, _boolean, "true"),
    Key("syntaxErrorDelay", "syntax_error_delay_s", 1.0, _number(0, 60_000, "milliseconds", 1 / 1000), "1000"),
    Key("diagnosticMode", "diagnostic_mode", "openFiles", _one_of(DIAGNOSTIC_MODES), "openFiles"),
    Key("probe.timeout", "probe_timeout", None, _positive_seconds, "the probe's default"),
    Key("probe.simulateGpu", "probe_simulate_gpu", "auto", _one_of(SIMULATE_GPU_MODES), "auto"),
    Key("probe.existingKernel", "probe_existing_kernel", None, _kernel_file, '"" (start a kernel)'),
    Key("probe.args", "probe_args", (), _list_of("strings"), "[]"),
)
BY_NAME = {key.name: key for key in SERVER_KEYS}
NESTED = {"probe": tuple(k.name.split(".", 1)[1] for k in SERVER_KEYS if k.name.startswith("probe."))}
CLIENT_ONLY_KEYS = frozenset({"interpreter", "importStrategy", "args", "path", "trace", "logLevel", "serverPath"})


def read_server_keys(raw: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """(values by `Settings` attribute, the engine's keys left over, problems)."""
    values = {key.attr: key.default for key in SERVER_KEYS}
    engine: dict[str, Any] = {}
    problems: list[str] = []
    for name, value in raw.items():
        if value is None or name in CLIENT_ONLY_KEYS:
            continue
        if name in NESTED:
            if not isinstance(value, dict):
                problems.append(f"{SECTION}.{name} must be an object with {', '.join(NESTED[name])}, "
                                f"got {shown(value)} (using the defaults)")
                continue
            for sub, sub_value in value.items():
                _read_one(f"{name}.{sub}", sub_value, values, problems)
        elif name in BY_NAME:
            _read_one(name, value, values, problems)
        else:
            engine[name] = value
    return values, engine, problems


def _read_one(name: str, value: Any, values: dict[str, Any], problems: list[str]) -> None:
    key = BY_NAME.get(name)
    if key is None:
        known = ", ".join(k for k in BY_NAME if k.startswith(name.split(".")[0] + "."))
        problems.append(f"unknown setting {SECTION}.{name} (known: {known}); ignored")
        return
    if value is None:
        return
    try:
        values[key.attr] = key.check(value)
    except Invalid as exc:
        problems.append(f"{SECTION}.{name} {exc}, got {shown(value)} (using {key.default_shown})")
