"""The server object and its assembly from one module per feature."""
from __future__ import annotations

import asyncio
import logging
import os
import stat
import sys
import threading
from typing import Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

from . import __version__
from .analysis_service import AnalysisService
from .client_logging import ClientLogHandler, install
from .protocol import TorchplaceProtocol
from .rule_docs import RuleDocs
from .settings import Settings

log = logging.getLogger(__name__)

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook="jupyter-notebook", cells=[types.NotebookCellLanguage(language="python")]
        )
    ],
    save=True,
)


class TorchplaceServer(LanguageServer):
    """pygls server plus torchplace's shared state (settings, analyses, docs)."""

    def __init__(self) -> None:
        super().__init__(
            name="torchplace",
            version=__version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=TorchplaceProtocol,
        )
        self.stdin = None  # RememberingStream or RememberingReader, once started on stdio
        self._pulls: Optional[bool] = None  # see uses_pull_diagnostics
        self.settings = Settings(self)
        self.analysis = AnalysisService(self)
        self.rule_docs = RuleDocs()
        self.connected = False
        self.log_handler: Optional[ClientLogHandler] = None
        from .cross_file import CrossFile
        from .diagnostics import DiagnosticsPublisher

        from .shown_findings import ShownFindings

        self.diagnostics = DiagnosticsPublisher(self)
        self.cross_file = CrossFile(self)
        self.shown = ShownFindings(self)
        from .workspace_checks import WorkspaceChecks

        self.workspace_checks = WorkspaceChecks(self)

    # -- client facts ------------------------------------------------------
    @property
    def uses_pull_diagnostics(self) -> bool:
        """Pull for clients that pull and can be asked to pull again (findings depend on other
        files and on time: `workspace/diagnostic/refresh`); push for the rest."""
        if self._pulls is None:
            caps = self.client_capabilities
            if caps is None:
                return False  # not initialized yet
            ws = caps.workspace
            self._pulls = bool(caps.text_document and caps.text_document.diagnostic is not None
                               and ws and ws.diagnostics and ws.diagnostics.refresh_support)
        return self._pulls

    @property
    def position_codec(self):
        return self.workspace.position_codec

    def notify_user(self, message: str, kind: types.MessageType) -> None:
        """window/showMessage, filtered by the `showNotifications` setting."""
        level = self.settings.show_notifications
        if level == "off":
            return
        if level == "onError" and kind != types.MessageType.Error:
            return
        if level == "onWarning" and kind not in (types.MessageType.Error, types.MessageType.Warning):
            return
        if not self.connected:
            log.warning("%s", message)
            return
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def spawn(self, coro) -> asyncio.Task:
        """Start a background task whose failure is logged, never lost or fatal."""
        task = asyncio.ensure_future(coro)
        task.add_done_callback(_log_task_failure)
        return task

    def start_io(self, stdin=None, stdout=None):
        """LSP on stdio.  When stdin is a pipe or a socket (an editor's), it is read by the event loop
        itself: pygls' reader hands every header line and body to a thread and back, three hops a
        message, which made a burst of 5,000 keystrokes take many seconds to read.  Each body is
        remembered, so an unreadable one can still be answered."""
        stdin = stdin or sys.stdin.buffer
        if not _is_pipe(stdin):
            self.stdin = RememberingReader(stdin)
            super().start_io(self.stdin, stdout)
            return
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._serve_pipe(stdin))
        except BrokenPipeError:
            log.error("torchplace: the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve_pipe(self, stdin) -> None:
        loop = asyncio.get_running_loop()
        stream = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), stdin)
        self.stdin = RememberingStream(stream)
        await run_async(stop_event=self._stop_event, reader=self.stdin, protocol=self.protocol,
                        logger=logging.getLogger("pygls.server"), error_handler=self.report_server_error)

    def report_server_error(self, error, source):
        """Logged, never a popup: requests carry their own errors, and the rest is the log's business."""
        if source is JsonRpcException and self.stdin is not None and isinstance(error, (RecursionError, ValueError)):
            self.protocol.refuse_unreadable(self.stdin.last_body, error)  # the read loop could not parse it
            return
        log.error("torchplace server error (%s): %r", getattr(source, "__name__", source), error)


def _is_pipe(stream) -> bool:
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (AttributeError, OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class RememberingStream:
    """An asyncio stream for pygls' read loop, keeping the last message body."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self.stream = stream
        self.last_body = b""

    def readline(self):
        return self.stream.readline()

    async def readexactly(self, size: int) -> bytes:
        try:
            self.last_body = await self.stream.readexactly(size)
        except asyncio.IncompleteReadError as exc:  # the client went away mid-message
            self.last_body = exc.partial
        return self.last_body


class RememberingReader:
    """stdin for pygls' read loop, keeping the last message body (the one a parse error is about)."""

    def __init__(self, raw) -> None:
        self.raw = raw
        self.last_body = b""

    def readline(self) -> bytes:
        return self.raw.readline()

    def read(self, size: int) -> bytes:
        self.last_body = self.raw.read(size)
        return self.last_body


def _log_task_failure(task: asyncio.Task) -> None:
    if task.cancelled():
        return
    exc = task.exception()
    if exc is not None:
        log.error("torchplace: background task failed: %r", exc, exc_info=exc)


def build_server() -> TorchplaceServer:
    """A server with every feature module registered."""
    from . import (
        code_actions,
        code_lens,
        configuration,
        diagnostics,
        hover,
        notebooks,
        probe_command,
        text_sync,
        threadsafe_ast,
        watched_files,
    )

    threadsafe_ast.install()
    server = TorchplaceServer()
    for feature in (configuration, watched_files, text_sync, notebooks, diagnostics, code_actions, hover, code_lens,
                    probe_command):
        feature.register(server)
    server.log_handler = install(server)
    return server
