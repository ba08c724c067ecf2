"""`probe_cell(server, request)`: the probe behind the language server's "Probe cell" lens.

Why: `torchplace_server.probe_command` hands the user's click to this function
(its documented hand-off).  Here the probe runs in a worker thread with one warm
kernel per document, reports work-done progress, honours cancellation (the
progress bar's cancel button or `$/cancelRequest`), and shows the result:
information diagnostics per line (`→ cuda:0 float32 [32, 10]  host→device 4.0 MB`),
an error diagnostic on the failing line, a summary via showMessage and the full
text in the log.  It is imported only inside the server process, so using
lsprotocol here is safe; the rest of the package never imports it.
"""
from __future__ import annotations

import asyncio
import atexit
import logging
import threading
import uuid
from typing import Any, Optional

from torchplace_rules.text_lines import split_lines

from .result import ProbeResult
from .session import ProbeOptions, ProbeSession

log = logging.getLogger(__name__)
SOURCE = "torchplace probe"
MAX_WARM_KERNELS = 3
_SESSIONS: dict = {}  # document key -> ProbeSession, least recently probed first
_SESSIONS_LOCK = threading.Lock()


def session_for(key: str, options: ProbeOptions) -> ProbeSession:
    """One warm kernel per document (a `# %%` file or a whole notebook); only the
    MAX_WARM_KERNELS most recently probed documents keep theirs (each holds torch)."""
    evicted = []
    with _SESSIONS_LOCK:
        session = _SESSIONS.pop(key, None)
        if session is not None and getattr(session, "options", options) != options:
            evicted.append(session)  # the probe settings changed: start over with the new ones
            session = None
        if session is None:
            session = ProbeSession(options, name=key.rsplit("/", 1)[-1])
        _SESSIONS[key] = session  # most recent last
        while len(_SESSIONS) > MAX_WARM_KERNELS:
            oldest = next(iter(_SESSIONS))
            evicted.append(_SESSIONS.pop(oldest))
    for old in evicted:
        threading.Thread(target=old.close, daemon=True).start()
    return session


def close_document(key: str) -> None:
    with _SESSIONS_LOCK:
        session = _SESSIONS.pop(key, None)
    if session is not None:
        session.close()


@atexit.register
def _close_all() -> None:
    for key in list(_SESSIONS):
        close_document(key)


def _options(ls: Any) -> ProbeOptions:
    settings = getattr(ls, "settings", None)
    timeout = getattr(settings, "probe_timeout", None)
    simulate = getattr(settings, "probe_simulate_gpu", None)
    existing = getattr(settings, "probe_existing_kernel", None)
    opts = ProbeOptions()
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        opts.timeout = float(timeout)
    if simulate in ("auto", "on", "off"):
        opts.simulate_gpu = simulate
    if isinstance(existing, str) and existing:
        opts.existing = existing
    return opts


def _utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def diagnostics_for_result(result: ProbeResult, text: str, to_lsp_line) -> list:
    """LSP diagnostics for one result; `to_lsp_line(probe_line) -> 0-based line or None`."""
    from lsprotocol import types

    lines = split_lines(text)

    def line_range(n: Optional[int]):
        if n is None:
            return None
        lsp_line = to_lsp_line(n)
        if lsp_line is None or not 0 <= lsp_line < max(len(lines), 1):
            return None
        content = lines[lsp_line] if lines else ""
        start = _utf16_len(content) - _utf16_len(content.lstrip())
        return types.Range(types.Position(lsp_line, start), types.Position(lsp_line, _utf16_len(content.rstrip())))

    where = " (simulated GPU)" if result.simulated else ""
    out = []
    for rec in result.lines:
        label = rec.label()
        rng = line_range(rec.line)
        if label and rng is not None:
            out.append(types.Diagnostic(range=rng, message=label, severity=types.DiagnosticSeverity.Information,
                                        source=SOURCE, code="probe"))
    reported = set()
    if result.error is not None:
        rng = line_range(result.error.line)
        if rng is not None and (result.error.cell is None or result.error.cell == result.cell):
            message = f"{result.error.type}: {result.error.message}{where}"
            out.append(types.Diagnostic(range=rng, message=message, severity=types.DiagnosticSeverity.Error,
                                        source=SOURCE, code=result.error.kind))
            reported.add(result.error.message)
    for caught in result.device_errors:
        rng = line_range(caught["line"])
        if rng is not None and caught["message"] not in reported:
            out.append(types.Diagnostic(
                range=rng, message=f"{caught['type']} (caught by the cell): {caught['message']}{where}",
                severity=types.DiagnosticSeverity.Warning, source=SOURCE, code="device-mismatch"))
    return out


def summary_message(result: ProbeResult, label: str) -> str:
    head = {"ok": "ran clean", "error": "raised", "error-above": "a cell above raised",
            "timeout": "timed out", "cancelled": "was cancelled", "kernel-died": "crashed the kernel",
            "setup-error": "could not run"}.get(result.status, result.status)
    text = f"torchplace probe: {label} {head}"
    if result.error is not None:
        at = f" at line {result.error.line}" if result.error.line else ""
        text += f"{at}: {result.error.type}: {result.error.message}"
    if result.status not in ("setup-error",):
        text += f" — {result.summary()}"
    return text


async def probe_cell(ls: Any, request: Any) -> dict:
    """Run the probe for a `torchplace_server.probe_command.ProbeRequest`."""
    from lsprotocol import types

    loop = asyncio.get_running_loop()
    cancel = threading.Event()
    token = await _begin_progress(ls, types)
    if token is not None:
        fut = ls.work_done_progress.tokens.get(token)
        if fut is not None:
            fut.add_done_callback(lambda f: cancel.set() if f.cancelled() else None)

    def progress(message: str) -> None:
        if token is not None:
            loop.call_soon_threadsafe(ls.work_done_progress.report, token,
                                      types.WorkDoneProgressReport(message=message))

    # Probe lines are 1-based: document lines of a `# %%` file, or lines of the notebook cell.
    if request.notebook_uri:
        key = request.notebook_uri
        document = list(request.earlier_cells) + [request.text]
        kwargs = {"cell": len(request.earlier_cells)}
        label = f"cell {len(request.earlier_cells) + 1}"
    else:
        key = request.uri
        document = request.text
        kwargs = {"line": request.line + 1}
        label = f"the cell at line {request.cell_start + 1}"

    session = session_for(key, _options(ls))
    try:
        result = await loop.run_in_executor(
            None, lambda: session.probe(document, cancel=cancel, on_progress=progress,
                                        from_top=getattr(request, "from_top", False), **kwargs))
    except asyncio.CancelledError:
        cancel.set()
        raise
    finally:
        if token is not None:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="done"))
    other_cell = result.status == "error-above" and bool(request.notebook_uri)  # failed in another document

    def to_lsp_line(n: int) -> Optional[int]:
        return None if other_cell else n - 1

    diagnostics = diagnostics_for_result(result, request.text, to_lsp_line)
    await _publish(ls, request.uri, diagnostics)
    message = summary_message(result, label)
    kind = types.MessageType.Info if result.ok else types.MessageType.Warning
    # The user clicked "Probe cell": the answer is shown unless notifications are off altogether.
    if getattr(getattr(ls, "settings", None), "show_notifications", "always") != "off":
        ls.window_show_message(types.ShowMessageParams(type=kind, message=message))
    ls.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message=message))
    source_lines = split_lines(request.text) if not request.notebook_uri else None
    ls.window_log_message(types.LogMessageParams(type=types.MessageType.Log,
                                                 message=result.to_text(source_lines, request.path or request.uri)))
    return {"ran": True, "result": result.to_dict()}


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


async def _publish(ls: Any, uri: str, probe_diagnostics: list) -> None:
    """Push the probe's diagnostics.  A push-mode client keeps one list per URI, so the
    engine's current findings go along (the next edit republishes the engine's alone)."""
    from lsprotocol import types

    merged = list(probe_diagnostics)
    if not getattr(ls, "uses_pull_diagnostics", True):
        try:
            from torchplace_server.analysis_units import unit_key_for
            from torchplace_server.diagnostics import diagnostics_for

            analysis = await ls.analysis.current(unit_key_for(ls.workspace, uri))
            if analysis is not None:
                merged = diagnostics_for(ls, analysis, uri) + merged
        except Exception as exc:  # noqa: BLE001 - showing the probe matters more
            log.warning("torchplace probe: could not merge engine diagnostics: %r", exc)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=merged))
