"""The kernel-side entry point: run one cell, probed or not (stdlib + torch only).

Why: the host sends cell text, not a module: the user's interpreter need not
have torchplace installed.  The host loads this file and its two siblings into
the kernel as plain modules and calls `run_cell`, which executes the cell in
the kernel's user namespace (like Jupyter) and publishes a JSON payload as a
display message of type `MIME`.
"""
from __future__ import annotations

import contextlib
import time
import traceback
from typing import Optional

import torch

try:
    from . import recorder as rec_mod
    from . import simulated_gpu as sim
except ImportError:  # loaded into a kernel by the probe host
    import _torchplace_probe_recorder as rec_mod  # type: ignore[no-redef]
    import _torchplace_probe_simulated_gpu as sim  # type: ignore[no-redef]

MIME = "application/vnd.torchplace.probe+json"
MAX_TRACEBACK = 6000
STATE = {"simulated": False}

def real_gpu_name() -> Optional[str]:
    if STATE["simulated"]:
        return None
    try:
        if torch.cuda.is_available():
            return torch.cuda.get_device_name(0)
    except Exception:
        return None
    return None


def _namespace():
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except Exception:
        shell = None
    if shell is not None:
        return shell, shell.user_ns
    import __main__
    return None, __main__.__dict__


def decide_simulation(simulate: str, wants_gpu: bool) -> bool:
    if STATE["simulated"]:
        return True  # simulated tensors may already live in the namespace: stay simulated
    if simulate == "on":
        STATE["simulated"] = True
    elif simulate == "auto" and wants_gpu:
        try:
            available = torch.cuda.is_available()
        except Exception:
            available = False
        STATE["simulated"] = not available
    return STATE["simulated"]


def describe_error(exc: BaseException, filename: str, first_line: int) -> dict:
    stack = rec_mod.error_stack(exc, filename)
    line = stack[-1] if stack else None
    if line is None and isinstance(exc, SyntaxError) and exc.filename == filename:
        line = exc.lineno
    message = str(exc)
    kind = "device-mismatch" if rec_mod.DEVICE_ERROR.search(message) else "exception"
    if isinstance(exc, KeyboardInterrupt):
        kind = "interrupted"
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(text) > MAX_TRACEBACK:
        text = "...\n" + text[-MAX_TRACEBACK:]
    return {"type": type(exc).__name__, "message": message, "line": line, "kind": kind, "traceback": text,
            "stack": stack}


def run_cell(source: str, first_line: int, filename: str, *, probe: bool = True, simulate: str = "auto",
             wants_gpu: bool = False, progress_path: Optional[str] = None, publish: bool = True) -> dict:
    """Run `source` (whose first line is document line `first_line`, 1-based)."""
    shell, namespace = _namespace()
    simulated = decide_simulation(simulate, wants_gpu)
    text = source
    if shell is not None:
        try:
            text = shell.transform_cell(source)
        except Exception:
            text = source
    recorder = rec_mod.Recorder(filename, text, first_line, progress_path, simulated) if probe else None
    error = None
    started = time.perf_counter()
    with (sim.simulation() if simulated else contextlib.nullcontext()):
        try:
            code = compile("\n" * (first_line - 1) + text, filename, "exec")
            if recorder is not None:
                recorder.install()
            try:
                exec(code, namespace)
            finally:
                if recorder is not None:
                    recorder.uninstall()
        except BaseException as exc:  # noqa: BLE001 - the user's error is the result
            error = describe_error(exc, filename, first_line)
        elapsed = time.perf_counter() - started
        payload = {
            "status": "error" if error else "ok",
            "error": error,
            "seconds": round(elapsed, 6),
            "simulated": simulated,
            "device": "simulated" if simulated else (real_gpu_name() or "cpu"),
            "torch_version": torch.__version__,
        }
        if recorder is not None:
            payload.update({
                "lines": recorder.lines_json(),
                "copies": recorder.copies,
                "bytes": recorder.bytes,
                "syncs": recorder.syncs,
                "device_errors": recorder.device_errors,
                "variables": rec_mod.user_variables(namespace),
            })
    if publish:
        _publish(payload)
    return payload


def _publish(payload: dict) -> None:
    try:
        from IPython.display import publish_display_data
    except Exception:
        return
    publish_display_data({MIME: payload})
