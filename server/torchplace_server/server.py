"""The server object and its assembly from one module per feature."""
from __future__ import annotations

import asyncio
import logging
import sys
from typing import Optional

from lsprotocol import types
from pygls.exceptions import JsonRpcException
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
        self.stdin: Optional[RememberingReader] = None
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
        caps = self.client_capabilities
        pulls = bool(caps and caps.text_document and caps.text_document.diagnostic is not None)
        ws = caps.workspace if caps else None
        return pulls and bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)

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
        """LSP on stdio, remembering each message body so an unreadable one can still be answered."""
        self.stdin = RememberingReader(stdin or sys.stdin.buffer)
        super().start_io(self.stdin, stdout)

    def report_server_error(self, error, source):
        """Logged, never a popup: requests carry their own errors, and the rest is the log's business."""
        if source is JsonRpcException and self.stdin is not None and isinstance(error, (RecursionError, ValueError)):
            self.protocol.refuse_unreadable(self.stdin.last_body, error)  # the read loop could not parse it
            return
        log.error("torchplace server error (%s): %r", getattr(source, "__name__", source), error)


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
