"""One wording for a device error and its root cause, for `torchplace run` and `pytest --simulate-gpu`.

Why: outside the editor there is no diagnostic to hang related information on; the
report is text under the traceback (and JSON for tools): the line that raised, the
operand PyTorch complained about, and where that operand was created or last moved.
Imported only where torch already is (it reads the simulation's exception data).
"""
from __future__ import annotations

import os
import traceback
from typing import Optional


def user_frames(exc: BaseException) -> list:
    """(file, line) of the traceback's frames outside torch, torchplace and installed packages,
    outermost first."""
    import torch

    skip = (os.path.dirname(torch.__file__), os.path.dirname(os.path.abspath(__file__)))
    return [(f.filename, f.lineno) for f in traceback.extract_tb(exc.__traceback__)
            if not f.filename.startswith(skip) and "site-packages" not in f.filename and "<frozen" not in f.filename]


def describe(exc: BaseException, any_error: bool = False) -> Optional[dict]:
    """{error, type, raised_at, stack, root_cause} for a device error the simulation (or a real GPU)
    raised; with `any_error`, for any exception (root_cause None when it is not a device error)."""
    from .kernel_side import simulated_gpu as sim

    cause = sim.root_cause(exc)
    if cause is None and not any_error:
        return None
    frames = user_frames(exc)
    return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
            "type": type(exc).__name__,
            "raised_at": {"file": frames[-1][0], "line": frames[-1][1]} if frames else None,
            "stack": [{"file": f, "line": n} for f, n in frames],
            "root_cause": cause}


def text(report: dict, relative_to: Optional[str] = None) -> str:
    """`raised at train.py:35` / `root cause: train.py:26: ...` lines."""
    def where(file: str, line: int) -> str:
        if relative_to and file.startswith(relative_to + os.sep):
            file = os.path.relpath(file, relative_to)
        return f"{file}:{line}"

    lines = [f"torchplace: {report['error']}"]
    raised = report.get("raised_at")
    if raised:
        lines.append(f"  raised at {where(raised['file'], raised['line'])}")
    cause = report["root_cause"] or {}
    operand, device = cause.get("operand", "the tensor"), cause.get("device", "?")
    if cause.get("line"):
        at = where(cause.get("file", "?"), cause["line"])
        if cause.get("kind") == "move-discarded":
            lines.append(f"  root cause: {at}: this move to {cause.get('moved_to')} returned a copy that was not used; "
                         f"{operand} stayed on {device}")
            created = cause.get("created")
            if created and created.get("line"):
                lines.append(f"  ({operand} was created at {where(created.get('file', '?'), created['line'])})")
        elif cause.get("kind") == "moved":
            lines.append(f"  root cause: {at}: {operand} was moved to {device} here")
        elif cause.get("kind") == "hidden-attribute":
            lines.append(f"  root cause: {at}: {operand} is held in `self.{cause.get('attribute')}` of "
                         f"{cause.get('owner')}, which Module.to() does not move (a plain attribute, not a buffer, "
                         f"parameter or ModuleList); it stayed on {device}")
        else:
            lines.append(f"  root cause: {at}: {operand} was created on {device} here")
    else:
        lines.append(f"  the offending operand is {operand} (on {device}); where it was made is not known")
    return "\n".join(lines)
