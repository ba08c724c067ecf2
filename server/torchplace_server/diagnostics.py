"""Diagnostics: pull (`textDocument/diagnostic`) or debounced push, never both for one document.

Clients that pull (`textDocument.diagnostic` and `workspace/diagnostic/refresh`)
pull plain documents; every other document, and every notebook for every
client, gets `publishDiagnostics`, debounced per unit (one task per document or
notebook, restarted on every change) and always for the version that was
analysed, which is the current one (see `AnalysisService.current`).

Notebooks are pushed, as Ruff does, because a pulling client asks only for the
cells it shows: findings of a cell scrolled off screen vanished from Problems.
Every cell gets a result on every change of the notebook (empty ones too, so
findings that moved or vanished clear), and a pull for a cell is answered with
an empty report (the pushed one is the truth).

What a document shows comes from `shown_findings` (findings kept through a
syntax error, the syntax error itself only after a pause); when a withheld
syntax error falls due, the document is published again, or the client asked
to pull again.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Iterable, Optional

from lsprotocol import types

from .analysis_service import Analysis, PlacedFinding
from .analysis_units import find_document, unit_key_for
from .probe_kernels import results_tag as probe_results_tag
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


def diagnostics_for(ls: "TorchplaceServer", analysis: Analysis, uri: str, pushed: bool) -> list[types.Diagnostic]:
    """The shown findings (calm typing keeps them through a syntax error), each with the probe's
    verdict where it ran them, and the probe's own diagnostics after them when pushed."""
    return with_probe_results(uri, [to_diagnostic(ls, pf) for pf in ls.shown.findings(analysis, uri)], pushed)


class DiagnosticsPublisher:
    """Schedules push diagnostics and pull refreshes."""

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self._tasks: dict[str, asyncio.Task] = {}
        self._due: dict[str, tuple[float, object]] = {}  # key -> (loop time, action)
        self._published: dict[str, set[str]] = {}

    # -- events ----------------------------------------------------------
    def unit_changed(self, key: str, immediate: bool = False) -> None:
        if self.pulled_unit(key):
            return  # the client pulls after each change
        self._schedule(key, 0 if immediate else self.server.settings.debounce_s, self._publish)

    def pulled_unit(self, key: str) -> bool:
        """Does the client pull this unit's diagnostics (a plain document of a pulling client)?"""
        return self.server.uses_pull_diagnostics and self.server.workspace.get_notebook_document(notebook_uri=key) is None

    def unit_closed(self, key: str, uris: Iterable[str]) -> None:
        task = self._tasks.pop(key, None)
        self._due.pop(key, None)
        if task is not None:
            task.cancel()
        self.server.analysis.forget(key)
        pushed = key in self._published
        uris = set(uris) | self._published.pop(key, set())
        self.server.shown.forget(uris)
        if pushed or not self.server.uses_pull_diagnostics:
            for uri in uris:
                self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def settings_changed(self) -> None:
        """Re-check everything open (new settings or project config), and the workspace in that mode."""
        self.server.analysis.forget_all()
        self.server.workspace_checks.settings_changed()
        if self.server.uses_pull_diagnostics:
            self.server.workspace_diagnostic_refresh(None)
        for key in self.open_units():
            if not self.pulled_unit(key):
                self._schedule(key, 0, self._publish)

    def dependencies_changed(self, keys: list[str]) -> None:
        """A module these units import changed: republish them, or ask a pull client to pull again."""
        delay = self.server.settings.debounce_s
        for key in keys:
            if self.pulled_unit(key):
                self.refresh_later(delay)
            else:
                self._schedule(key, delay, self._publish)

    def refresh_later(self, delay: float) -> None:
        """Ask the pulling client to pull again after `delay` (one request for many reasons)."""
        self._schedule("#refresh", delay, None)

    # -- internals -------------------------------------------------------
    def open_units(self) -> list[str]:
        ws = self.server.workspace
        keys = [nb.uri for nb in ws.notebook_documents.values()]
        keys += [doc.uri for doc in ws.text_documents.values() if ws.get_notebook_document(cell_uri=doc.uri) is None]
        return keys

    def _schedule(self, key: str, delay: float, action) -> None:
        """Run `action` for `key` after `delay`; a newer call moves the time (one task per key:
        a burst of changes reschedules, it does not start and cancel a task per keystroke)."""
        self._due[key] = (asyncio.get_running_loop().time() + delay, action)
        task = self._tasks.get(key)
        if task is None or task.done():
            self._tasks[key] = self.server.spawn(self._run(key))

    async def _run(self, key: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            while key in self._due:
                due, action = self._due[key]
                if due > loop.time():
                    await asyncio.sleep(due - loop.time())
                    continue
                del self._due[key]
                if action is None:  # a debounced workspace/diagnostic/refresh
                    self.server.workspace_diagnostic_refresh(None)
                    continue
                analysis = await self.server.analysis.current(key)
                again = action(analysis) if analysis is not None else None
                if again is not None and key not in self._due:  # a withheld syntax error falls due then
                    self._due[key] = (loop.time() + again, action)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]

    def _publish(self, analysis: Analysis) -> Optional[float]:
        """Publish every document of the unit; returns when to publish again (a syntax error due)."""
        # No await between `current()` returning and here: this is the latest version.
        unit = analysis.unit
        uris = list(unit.uris)
        due = [d for d in (self.server.shown.reveal_in(analysis, uri) for uri in uris) if d is not None]
        for uri in uris:
            part = unit.part_for_uri(uri)
            if part is not None:
                version = part.version
            else:  # a markdown cell: nothing to report, at its current version
                doc = find_document(self.server.workspace, uri)
                version = doc.version if doc is not None else None
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=diagnostics_for(self.server, analysis, uri, pushed=True), version=version
                )
            )
        for gone in self._published.get(unit.key, set()) - set(uris):
            self.server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=gone, diagnostics=[]))
        self._published[unit.key] = set(uris)
        return min(due) if due else None


def register(server: "TorchplaceServer") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=True),
    )
    async def document_diagnostic(
        ls: "TorchplaceServer", params: types.DocumentDiagnosticParams
    ) -> types.DocumentDiagnosticReport:
        uri = params.text_document.uri
        key = unit_key_for(ls.workspace, uri)
        if key != uri and ls.workspace.get_notebook_document(notebook_uri=key) is not None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])  # notebook cells are pushed
        analysis: Optional[Analysis] = await ls.analysis.current(key)
        if analysis is None:  # not open: nothing to say
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        due = ls.shown.reveal_in(analysis, uri)
        if due is not None and ls.uses_pull_diagnostics:
            ls.diagnostics.refresh_later(due)
        result_id = ls.shown.result_id(analysis, uri, probe_results_tag(uri))
        if params.previous_result_id == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=diagnostics_for(ls, analysis, uri, pushed=False),
                                                         result_id=result_id)


    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    async def workspace_diagnostic(ls: "TorchplaceServer", params: types.WorkspaceDiagnosticParams
                                   ) -> types.WorkspaceDiagnosticReport:
        """Files that are not open, in `diagnosticMode: workspace` (held until something changed)."""
        return await ls.workspace_checks.report()
