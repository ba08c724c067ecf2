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


def _user_frame(exc: BaseException) -> Optional[tuple]:
    """(file, line) of the innermost frame outside torch and torchplace."""
    import torch

    skip = (os.path.dirname(torch.__file__), os.path.dirname(os.path.abspath(__file__)))
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if not frame.filename.startswith(skip) and "site-packages" not in frame.filename:
            found = (frame.filename, frame.lineno)
    return found


def describe(exc: BaseException) -> Optional[dict]:
    """{error, raised_at, root_cause} for a device error the simulation (or a real GPU) raised."""
    from .kernel_side import simulated_gpu as sim

    cause = sim.root_cause(exc)
    if cause is None:
        return None
    raised = _user_frame(exc)
    return {"error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}",
            "raised_at": {"file": raised[0], "line": raised[1]} if raised else None,
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
    cause = report["root_cause"]
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
        else:
            lines.append(f"  root cause: {at}: {operand} was created on {device} here")
    else:
        lines.append(f"  the offending operand is {operand} (on {device}); where it was made is not known")
    return "\n".join(lines)
