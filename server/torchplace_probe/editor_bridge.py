"""`probe_cell(server, request)`: the probe behind the language server's "Probe cell" lens.

Why: `torchplace_server.probe_command` hands the user's click to this function
(its documented hand-off).  Here the probe runs in a worker thread with one warm
kernel per document and works like Jupyter: Cancel (the progress bar, a
`$/cancelRequest`, or `torchplace.cancelProbe`) interrupts the kernel at once;
a failing cell above is reported and the probed cell still runs; a settings
change that needs a new kernel asks before restarting it.  The results go to the
editor through `torchplace_server.probe_kernels` (they leave when the cell
changes or the document closes), each static finding of the probed lines is
marked confirmed or not reproduced, the full text goes to the log, and a
summary notification only when the cell did not run cleanly (as
`showNotifications` allows; none when it worked: the view and the inline hints
show it).  It is imported only inside the server process.
"""
from __future__ import annotations

import asyncio
import atexit
import dataclasses
import logging
import threading
import uuid
from typing import Any, Optional

from torchplace_rules.text_lines import split_lines

from . import verdicts
from .result import ProbeResult
from .session import ProbeOptions, ProbeSession

log = logging.getLogger(__name__)
MAX_WARM_KERNELS = 3
KERNEL_OPTIONS = ("python", "existing", "simulate_gpu")  # changing one of these needs a new kernel
RESTART, KEEP = "Restart kernel", "Keep the kernel"
_SESSIONS: dict = {}  # document key -> ProbeSession, least recently probed first
_SESSIONS_LOCK = threading.Lock()
_RUNNING: dict = {}  # document key -> threading.Event of the probe running there


def _kernel_change(session: ProbeSession, options: ProbeOptions) -> Optional[str]:
    changed = [name for name in KERNEL_OPTIONS if getattr(session.options, name) != getattr(options, name)]
    if not changed:
        return None
    return ", ".join(f"{name} {getattr(session.options, name)!r} → {getattr(options, name)!r}" for name in changed)


def session_for(key: str, options: ProbeOptions, replace: bool = False) -> tuple:
    """(session, change) for the document: its warm kernel, with the per-run options updated.
    `change` says which setting would need a new kernel (None: none); with `replace` the old
    kernel is shut down and a new session made.  Only the MAX_WARM_KERNELS most recently probed
    documents keep a kernel (each holds torch)."""
    evicted = []
    with _SESSIONS_LOCK:
        session = _SESSIONS.pop(key, None)
        change = _kernel_change(session, options) if session is not None else None
        if change is not None and replace:
            evicted.append(session)
            session, change = None, None
        if session is None:
            session = ProbeSession(options, name=key.rsplit("/", 1)[-1])
        elif change is None:
            session.options = dataclasses.replace(options)
        _SESSIONS[key] = session  # most recent last
        while len(_SESSIONS) > MAX_WARM_KERNELS:
            oldest = next(iter(_SESSIONS))
            evicted.append(_SESSIONS.pop(oldest))
    for old in evicted:
        threading.Thread(target=old.close, daemon=True).start()
    return session, change


def close_document(key: str) -> None:
    cancel_probe(key)
    with _SESSIONS_LOCK:
        session = _SESSIONS.pop(key, None)
    if session is not None:
        session.close()


def cancel_probe(key: str) -> bool:
    """Interrupt the probe running for this document now (the kernel restarts if that fails)."""
    event = _RUNNING.get(key)
    if event is None:
        return False
    event.set()
    return True


@atexit.register
def _close_all() -> None:
    for key in list(_SESSIONS):
        close_document(key)


def _options(ls: Any, request: Any) -> ProbeOptions:
    settings = getattr(ls, "settings", None)
    timeout = getattr(settings, "probe_timeout", None)
    simulate = getattr(settings, "probe_simulate_gpu", None)
    existing = getattr(settings, "probe_existing_kernel", None)
    args = getattr(settings, "probe_args", ())
    opts = ProbeOptions(script=request.path or None, args=tuple(args) if isinstance(args, (list, tuple)) else ())
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        opts.timeout = float(timeout)
    if simulate in ("auto", "on", "off"):
        opts.simulate_gpu = simulate
    if isinstance(existing, str) and existing:
        opts.existing = existing
    return opts


async def _may_restart(ls: Any, change: str, types) -> bool:
    """Ask before a settings change throws the kernel's state away."""
    message = (f"torchplace: the probe settings changed ({change}); probing again needs a new kernel, "
               "which loses the variables of the current one.")
    try:
        choice = await ls.window_show_message_request_async(types.ShowMessageRequestParams(
            type=types.MessageType.Warning, message=message,
            actions=[types.MessageActionItem(title=RESTART), types.MessageActionItem(title=KEEP)]))
    except Exception as exc:  # noqa: BLE001 - a client that cannot ask: say so, then restart
        log.info("torchplace probe: cannot ask about the restart (%r)", exc)
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                       message=message + " Restarting it."))
        return True
    return getattr(choice, "title", None) == RESTART


def _document(request: Any):
    """What the session runs: a `# %%` text, or the notebook's cells up to the probed one."""
    if not request.notebook_uri:
        return request.text, {"line": request.line + 1}
    cells = list(zip(request.earlier_cells, request.earlier_is_code or (True,) * len(request.earlier_cells)))
    return cells + [(request.text, True)], {"cell": len(cells)}


async def probe_cell(ls: Any, request: Any) -> dict:
    """Run the probe for a `torchplace_server.probe_command.ProbeRequest`."""
    from lsprotocol import types

    from torchplace_server import probe_kernels

    loop = asyncio.get_running_loop()
    key = request.notebook_uri or request.uri
    options = _options(ls, request)
    session, change = session_for(key, options)
    if change is not None and session.host is not None:
        if not await _may_restart(ls, change, types):
            return {"ran": False, "reason": "kernel-restart-declined", "change": change}
    if change is not None:
        session, _ = session_for(key, options, replace=True)
    cancel = threading.Event()
    if key in _RUNNING:
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Info, message="torchplace: a probe is already running for this document."))
        return {"ran": False, "reason": "already-running"}
    _RUNNING[key] = cancel
    token = await _begin_progress(ls, types)
    if token is not None:
        fut = ls.work_done_progress.tokens.get(token)
        if fut is not None:
            fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)

    def progress(message: str) -> None:
        if token is not None:
            loop.call_soon_threadsafe(ls.work_done_progress.report, token,
                                      types.WorkDoneProgressReport(message=message))

    document, where = _document(request)
    try:
        result = await loop.run_in_executor(
            None, lambda: session.probe(document, cancel=cancel, on_progress=progress,
                                        from_top=getattr(request, "from_top", False), **where))
        await loop.run_in_executor(None, lambda: _judge(result, document, request))
    except asyncio.CancelledError:
        cancel.set()
        raise
    finally:
        _RUNNING.pop(key, None)
        if token is not None:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
    _show(ls, request, result, probe_kernels, types)
    return {"ran": True, "result": result.to_dict()}


def _judge(result: ProbeResult, document, request: Any) -> None:
    """The engine's findings of the probed document, each with the probe's verdict."""
    if result.cell is None or result.status == "setup-error":
        return
    code = document if isinstance(document, str) else [text if is_code else "" for text, is_code in document]
    try:
        verdicts.apply(result, verdicts.static_findings(code, request.path))
    except Exception:  # noqa: BLE001 - the verdicts are extra: never lose the probe's result to them
        log.exception("torchplace probe: could not judge the static findings")


def _notification_kind(result: ProbeResult, types):
    if result.ok:
        return types.MessageType.Warning if result.above_errors else None
    return types.MessageType.Info if result.status == "cancelled" else types.MessageType.Error


def _show(ls: Any, request: Any, result: ProbeResult, probe_kernels, types) -> None:
    from . import lsp_results

    placement = lsp_results.Placement(request)
    if result.first_line is not None:
        first = result.first_line - 1 if not request.notebook_uri else 0
        last = (result.last_line or result.first_line) - 1 if not request.notebook_uri else len(split_lines(request.text))
    else:
        first, last = request.cell_start, request.cell_end
    probe_kernels.remember(ls, probe_kernels.ProbedCell(
        key=request.notebook_uri or request.uri, cell_uri=request.uri, first_line=first, last_line=last,
        diagnostics=lsp_results.diagnostics_by_uri(result, placement),
        verdicts=lsp_results.verdicts_by_place(result, placement)))
    label = f"cell {result.cell + 1}" if result.cell is not None else "the cell"
    message = lsp_results.summary_message(result, label)
    # A probe that worked is shown by the view and the inline hints, never by a notification;
    # one that did not is also a notification, as `showNotifications` allows (quiet by default):
    # a failure is an error, a failing cell above a warning, a cancel information.
    notify = getattr(ls, "notify_user", None)
    kind = _notification_kind(result, types)
    if kind is not None and notify is not None:
        notify(message, kind)
    ls.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message=message))
    source_lines = split_lines(request.text) if not request.notebook_uri else None
    ls.window_log_message(types.LogMessageParams(type=types.MessageType.Log,
                                                 message=result.to_text(source_lines, request.path or request.uri)))


async def _begin_progress(ls: Any, types) -> Optional[str]:
    caps = getattr(ls, "client_capabilities", None)
    window = getattr(caps, "window", None) if caps else None
    if not (window and window.work_done_progress):
        return None
    token = f"torchplace-probe-{uuid.uuid4()}"
    try:
        await asyncio.wait_for(ls.work_done_progress.create_async(token), timeout=5)
    except Exception as exc:  # noqa: BLE001 - a client that refuses progress still gets results
        log.info("torchplace probe: no work-done progress (%r)", exc)
        return None
    ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
        title="Probing cell", message="starting", cancellable=True))
    return token
