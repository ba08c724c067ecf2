"""Run one fidelity case and compare it with what a real GPU does (shared by the test and the GPU runner)."""
from __future__ import annotations

from typing import Optional

import torch
import torch.nn as nn

try:
    from .fidelity_cases import Case, Device, Raises, Value
except ImportError:  # run as a script from benchmarks/ (tests/probe on sys.path)
    from fidelity_cases import Case, Device, Raises, Value  # type: ignore[no-redef]


def outcome(case: Case) -> tuple:
    """("ok", value) or ("raises", exception)."""
    try:
        return "ok", case.run()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome
        return "raises", exc


def _device(value) -> Optional[str]:
    if isinstance(value, torch.Tensor):
        return str(value.device)
    if isinstance(value, nn.Module):
        first = next(value.parameters(), None)
        return str(first.device) if first is not None else None
    return None


def disagreement(case: Case, result: tuple) -> Optional[str]:
    """None when `result` is what the case says a real GPU does, else what differs."""
    kind, value = result
    expect = case.expect
    if isinstance(expect, Raises):
        if kind != "raises":
            return f"returned {value!r:.80} (a real GPU raises {expect.kind.__name__}: {expect.prefix})"
        if not isinstance(value, expect.kind) or not str(value).startswith(expect.prefix):
            return f"raised {type(value).__name__}: {str(value)[:200]} (expected {expect.kind.__name__}: {expect.prefix})"
        return None
    if kind == "raises":
        return f"raised {type(value).__name__}: {str(value)[:200]}"
    if isinstance(expect, Device):
        got = _device(value)
        return None if got == expect.device else f"result on {got} (expected {expect.device})"
    if isinstance(expect, Value):
        return None if value == expect.value else f"returned {value!r:.80} (expected {expect.value!r})"
    return f"unknown expectation {expect!r}"
