"""Diagnostics: pull (`textDocument/diagnostic`) or debounced push, never both.

Clients that advertise `textDocument.diagnostic` pull; the others get
`publishDiagnostics`, debounced per unit (one task per document or notebook,
restarted on every change) and always for the version that was analysed,
which is the current one (see `AnalysisService.current`).  Every cell of a
notebook gets a result, so findings that moved or vanished clear.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Iterable, Optional

from lsprotocol import types

from .analysis_service import Analysis, PlacedFinding
from .analysis_units import find_document, unit_key_for
from .probe_kernels import with_probe_results

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)
SOURCE = "torchplace"


def to_diagnostic(ls: "TorchplaceServer", pf: PlacedFinding) -> types.Diagnostic:
    f = pf.finding
    codec = ls.position_codec
    href = ls.rule_docs.uri(f.code)
    related = [
        types.DiagnosticRelatedInformation(
            location=types.Location(uri=part.uri, range=part.table.range(codec, span)), message=message
        )
        for part, span, message in pf.related
    ]
    return types.Diagnostic(
        range=pf.part.table.range(codec, pf.span),
        message=f.message,
        severity=types.DiagnosticSeverity(int(f.severity)),
        code=f.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=SOURCE,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if f.unnecessary else None,
        data={"key": pf.key, "fixable": pf.edits is not None},
    )


def diagnostics_for(ls: "TorchplaceServer", analysis: Analysis, uri: str) -> list[types.Diagnostic]:
    # A probed cell's findings carry the probe's verdict (probe_kernels).
    return with_probe_results(ls, uri, [to_diagnostic(ls, pf) for pf in analysis.placed(uri)])


class DiagnosticsPublisher:
    """Schedules push diagnostics and pull refreshes."""

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self._tasks: dict[str, asyncio.Task] = {}
        self._published: dict[str, set[str]] = {}
        self._pulled: dict[str, str] = {}  # uri -> result id last returned by a pull

    # -- events ----------------------------------------------------------
    def unit_changed(self, key: str, immediate: bool = False) -> None:
        if self.server.uses_pull_diagnostics:
            notebook = self.server.workspace.get_notebook_document(notebook_uri=key)
            if notebook is not None and self._can_refresh:
                # A change in one cell can change another cell's findings; the client only
                # re-pulls the cell it changed, so ask it to pull again when others moved.
                self._schedule(key, 0 if immediate else self.server.settings.debounce_s, self._refresh_if_moved)
            return
        self._schedule(key, 0 if immediate else self.server.settings.debounce_s, self._publish)

    def unit_closed(self, key: str, uris: Iterable[str]) -> None:
        task = self._tasks.pop(key, None)
        if task is not None:
            task.cancel()
        self.server.analysis.forget(key)
        uris = set(uris) | self._published.pop(key, set())
        for uri in uris:
            self._pulled.pop(uri, None)
        if not self.server.uses_pull_diagnostics:
            for uri in uris:
                self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def settings_changed(self) -> None:
        """Re-check everything open (new settings or project config)."""
        self.server.analysis.forget_all()
        if self.server.uses_pull_diagnostics:
            if self._can_refresh:
                self.server.workspace_diagnostic_refresh(None)
            return
        for key in self.open_units():
            self._schedule(key, 0, self._publish)

    def remember_pull(self, uri: str, result_id: str) -> None:
        self._pulled[uri] = result_id

    def dependencies_changed(self, keys: list[str]) -> None:
        """A module these units import changed: republish them, or ask a pull client to pull again."""
        delay = self.server.settings.debounce_s
        if self.server.uses_pull_diagnostics:
            if self._can_refresh:
                self._schedule("#refresh", delay, None)
            return
        for key in keys:
            self._schedule(key, delay, self._publish)

    # -- internals -------------------------------------------------------
    @property
    def _can_refresh(self) -> bool:
        caps = self.server.client_capabilities
        ws = caps.workspace if caps else None
        return bool(ws and ws.diagnostics and ws.diagnostics.refresh_support)

    def open_units(self) -> list[str]:
        ws = self.server.workspace
        keys = [nb.uri for nb in ws.notebook_documents.values()]
        keys += [doc.uri for doc in ws.text_documents.values() if ws.get_notebook_document(cell_uri=doc.uri) is None]
        return keys

    def _schedule(self, key: str, delay: float, action) -> None:
        old = self._tasks.pop(key, None)
        if old is not None:
            old.cancel()
        self._tasks[key] = self.server.spawn(self._run(key, delay, action))

    async def _run(self, key: str, delay: float, action) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            if action is None:  # a debounced workspace/diagnostic/refresh
                self.server.workspace_diagnostic_refresh(None)
                return
            analysis = await self.server.analysis.current(key)
            if analysis is not None:
                action(analysis)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]

    def _publish(self, analysis: Analysis) -> None:
        # No await between `current()` returning and here: this is the latest version.
        unit = analysis.unit
        uris = list(unit.uris)
        for uri in uris:
            part = unit.part_for_uri(uri)
            if part is not None:
                version = part.version
            else:  # a markdown cell: nothing to report, at its current version
                doc = find_document(self.server.workspace, uri)
                version = doc.version if doc is not None else None
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=diagnostics_for(self.server, analysis, uri), version=version
                )
            )
        for gone in self._published.get(unit.key, set()) - set(uris):
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
        self._published[unit.key] = set(uris)

    def _refresh_if_moved(self, analysis: Analysis) -> None:
        moved = [
            uri for uri in analysis.unit.uris
            if uri in self._pulled and self._pulled[uri] != analysis.result_id(uri)
        ]
        if moved:
            self.server.workspace_diagnostic_refresh(None)


def register(server: "TorchplaceServer") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def document_diagnostic(
        ls: "TorchplaceServer", params: types.DocumentDiagnosticParams
    ) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        analysis: Optional[Analysis] = await ls.analysis.current(unit_key_for(ls.workspace, uri))
        if analysis is None:  # not open: nothing to say
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = analysis.result_id(uri)
        ls.diagnostics.remember_pull(uri, result_id)
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=diagnostics_for(ls, analysis, uri), result_id=result_id)
