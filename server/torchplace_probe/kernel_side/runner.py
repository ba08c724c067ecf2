"""The kernel-side entry point: run one cell, probed or not (stdlib + torch only).

Why: the host sends cell text, not a module: the user's interpreter need not
have torchplace installed.  The host loads this folder into the kernel as the
package `_torchplace_probe_kernel` and calls `run_cell`, which executes the cell in
the kernel's user namespace (like Jupyter) and publishes a JSON payload as a
display message of type `MIME`.
"""
from __future__ import annotations

import contextlib
import json
import linecache
import os
import re
import sys
import time
import traceback
from typing import Optional

import torch

from . import recorder as rec_mod
from . import simulated_gpu as sim
from . import values

MIME = "application/vnd.torchplace.probe+json"
# Lines end only at \n, \r\n or \r, as for Python's tokenizer (torchplace_rules.text_lines; the
# kernel side cannot import it).
_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
MAX_TRACEBACK = 6000
STATE = {"simulated": False, "real_gpu": None}


def real_gpu_name() -> Optional[str]:
    if STATE["simulated"]:
        return None
    if STATE["real_gpu"] is None:
        try:
            STATE["real_gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else ""
        except Exception:  # noqa: BLE001 - a broken CUDA setup is "no GPU" here
            STATE["real_gpu"] = ""
    return STATE["real_gpu"] or None


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


def _is_probed_code(filename: str) -> bool:
    return filename.startswith("<torchplace-probe ")


def describe_error(exc: BaseException, filename: str, first_line: int) -> dict:
    stack = rec_mod.error_stack(exc, filename)
    line = stack[-1] if stack else None
    if line is None and isinstance(exc, SyntaxError) and exc.filename == filename:
        line = exc.lineno
    message = str(exc)
    kind = "device-mismatch" if rec_mod.DEVICE_ERROR.search(message) else "exception"
    if isinstance(exc, KeyboardInterrupt):
        kind = "interrupted"
    text = _format_traceback(exc)
    if len(text) > MAX_TRACEBACK:
        text = "...\n" + text[-MAX_TRACEBACK:]
    error = {"type": type(exc).__name__, "message": message, "line": line, "kind": kind, "traceback": text,
             "stack": stack}
    cause = sim.root_cause(exc)
    if cause is not None:
        error["root_cause"] = _locate(cause)
    return error


_OWN = os.path.dirname(os.path.abspath(__file__))


def _format_traceback(exc: BaseException) -> str:
    """The traceback as the user's code sees it: the simulation's own frames left out."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith(_OWN)]
    return ("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
            + "".join(traceback.format_exception_only(type(exc), exc)))


def _locate(cause: dict) -> dict:
    """A root cause in a probed cell is a document line (and its cell); elsewhere, a file path."""
    for key in ("file", ):
        name = cause.get(key)
        if name and _is_probed_code(name):
            cause["cell"] = int(name.rsplit(" ", 1)[-1].rstrip(">"))
            del cause[key]
    created = cause.get("created")
    if created and _is_probed_code(created.get("file", "")):
        created["cell"] = int(created.pop("file").rsplit(" ", 1)[-1].rstrip(">"))
    return cause


def _script_context(namespace: dict, script: Optional[str], args: list, is_notebook: bool) -> None:
    """`sys.argv`, `__file__` and the working folder as when the user runs the script."""
    if script is None:
        return
    sys.argv = [script] + [str(a) for a in args]
    if not is_notebook:
        namespace["__file__"] = script
    folder = os.path.dirname(os.path.abspath(script))
    if os.path.isdir(folder) and os.getcwd() != folder:
        os.chdir(folder)


def _tracking(simulated: bool):
    if simulated:
        return sim.simulation(track_origins=True, user_filter=_is_probed_code_or_user)
    if real_gpu_name():
        return sim.origin_tracking(user_filter=_is_probed_code_or_user)
    return contextlib.nullcontext()


def _is_probed_code_or_user(filename: str) -> bool:
    return not filename.startswith("<") or _is_probed_code(filename)


def run_cell(source: str, first_line: int, filename: str, *, probe: bool = True, simulate: str = "auto",
             wants_gpu: bool = False, progress_path: Optional[str] = None, publish: bool = True,
             script: Optional[str] = None, args: Optional[list] = None, is_notebook: bool = False) -> dict:
    """Run `source` (whose first line is document line `first_line`, 1-based)."""
    shell, namespace = _namespace()
    simulated = decide_simulation(simulate, wants_gpu)
    device = "simulated" if simulated else (real_gpu_name() or "cpu")
    _note_device(progress_path, device, simulated)
    _script_context(namespace, script, list(args or []), is_notebook)
    text = source
    if shell is not None:
        try:
            text = shell.transform_cell(source)
        except Exception:
            text = source
    padded = "\n" * (first_line - 1) + text
    # Tracebacks show the cell's code, and root causes find the statement a line belongs to.
    linecache.cache[filename] = (len(padded), None, _LINES.findall(padded), filename)
    recorder = rec_mod.Recorder(filename, text, first_line, progress_path, simulated) if probe else None
    error = None
    started = time.perf_counter()
    with _tracking(simulated):
        try:
            code = compile(padded, filename, "exec")
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
            "device": device,
            "torch_version": torch.__version__,
        }
        if recorder is not None:
            recorder.note_dropped_moves()
            payload.update({
                "lines": recorder.lines_json(),
                "copies": recorder.copies,
                "bytes": recorder.bytes,
                "syncs": recorder.syncs,
                "device_errors": recorder.device_errors,
                "variables": values.user_variables(namespace),
            })
    if publish:
        _publish(payload)
    return payload


def _note_device(progress_path: Optional[str], device: str, simulated: bool) -> None:
    """For the host, should the kernel die before it reports: which device the run was on."""
    if progress_path:
        try:
            with open(progress_path + ".device", "w") as fh:
                json.dump({"device": device, "simulated": simulated}, fh)
        except OSError:
            pass


def _publish(payload: dict) -> None:
    try:
        from IPython.display import publish_display_data
    except Exception:
        return
    publish_display_data({MIME: payload})
