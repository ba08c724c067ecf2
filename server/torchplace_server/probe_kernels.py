"""What a probe leaves in the editor, and when it goes: kernels, probe diagnostics, verdicts.

Why here (the server side, never importing the probe): the text-sync and notebook
handlers tell this module when a document changes or closes; the probe's results
must then leave the Problems panel (an edit in or above the probed cell shifts or
invalidates them) and a closed document's kernel shuts down.  The static
diagnostics of a probed cell carry the probe's verdict (`with_probe_results`).
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from .analysis_units import unit_is_open, unit_key_for

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)

CONFIRMED = "confirmed"
NOT_REPRODUCED = "not-reproduced"


@dataclass
class ProbedCell:
    """The probe's results in the editor for one document (or notebook)."""

    key: str  # the document, or the notebook
    cell_uri: str  # the probed document or notebook cell
    first_line: int  # 0-based lines of the probed cell in `cell_uri`
    last_line: int
    diagnostics: dict = field(default_factory=dict)  # uri -> the probe's own diagnostics
    verdicts: dict = field(default_factory=dict)  # (uri, 0-based line, code) -> confirmed | not-reproduced


PROBED: dict = {}  # key -> ProbedCell


def remember(ls: "TorchplaceServer", probed: ProbedCell) -> None:
    """Show a probe's results: its diagnostics and the verdicts on the static ones."""
    previous = PROBED.pop(probed.key, None)
    PROBED[probed.key] = probed
    stale = set(previous.diagnostics) - set(probed.diagnostics) if previous else set()
    _show(ls, probed.key, set(probed.diagnostics) | stale)


def probe_diagnostics(uri: str) -> list:
    for probed in PROBED.values():
        if uri in probed.diagnostics:
            return list(probed.diagnostics[uri])
    return []


def _verdicts(uri: str) -> dict:
    """(0-based line, code) -> the probe's verdict on the static findings of `uri`."""
    verdicts = {}
    for probed in PROBED.values():
        verdicts.update({(line, code): v for (u, line, code), v in probed.verdicts.items() if u == uri})
    return verdicts


def with_probe_results(uri: str, diagnostics: list, pushed: bool) -> list:
    """The engine's diagnostics of `uri`, each marked with the probe's verdict, and, when they are
    pushed (the client keeps one pushed list per document), the probe's own diagnostics after them."""
    verdicts = _verdicts(uri)
    if verdicts:
        diagnostics = [_marked(d, verdicts.get((d.range.start.line, d.code))) for d in diagnostics]
    if pushed:
        diagnostics = diagnostics + probe_diagnostics(uri)
    return diagnostics


def results_tag(uri: str) -> str:
    """A part of the pull result id of `uri`: the verdicts shown on it (a new verdict is a new result)."""
    verdicts = _verdicts(uri)
    return repr(sorted(verdicts.items())) if verdicts else ""


def _marked(d: types.Diagnostic, verdict: Optional[str]) -> types.Diagnostic:
    if verdict is None:
        return d
    data = dict(d.data) if isinstance(d.data, dict) else {}
    data["probe"] = verdict
    if verdict == CONFIRMED:
        message, severity = d.message + " [probe: confirmed]", d.severity
    else:
        message = d.message + " [probe: not reproduced — the line ran without this device error]"
        severity = types.DiagnosticSeverity.Warning if d.severity == types.DiagnosticSeverity.Error else d.severity
    return types.Diagnostic(range=d.range, message=message, severity=severity, code=d.code,
                            code_description=d.code_description, source=d.source, tags=d.tags,
                            related_information=d.related_information, data=data)


def forget(ls: Optional["TorchplaceServer"], key: str) -> None:
    probed = PROBED.pop(key, None)
    if probed is not None and ls is not None:
        _show(ls, key, set(probed.diagnostics))


def _show(ls: "TorchplaceServer", key: str, uris: set) -> None:
    """Have the engine's diagnostics of the probed unit shown again with or without verdicts, and
    the probe's own diagnostics with them: in a unit whose diagnostics are pushed (notebooks, and
    every document of a client that does not pull) they join the unit's pushed list; elsewhere
    (a pulled document, a file that is not open) they are a pushed list of their own."""
    try:
        publisher = ls.diagnostics
        units = {key} | {unit_key_for(ls.workspace, uri) for uri in uris}
        pushed = {unit for unit in units if unit_is_open(ls.workspace, unit) and not publisher.pulled_unit(unit)}
        for unit in pushed:
            publisher.unit_changed(unit, immediate=True)
        for uri in uris:
            if unit_key_for(ls.workspace, uri) not in pushed:
                ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=uri, diagnostics=probe_diagnostics(uri)))
        if ls.uses_pull_diagnostics and units - pushed:
            publisher.refresh_later(0)
    except Exception:  # noqa: BLE001 - showing results must never break the server
        log.exception("torchplace: could not show the probe's results for %s", key)


def text_changed(ls: "TorchplaceServer", params: types.DidChangeTextDocumentParams) -> None:
    """An edit in or above the probed cell: its results no longer match the text."""
    uri = params.text_document.uri
    for key, probed in list(PROBED.items()):
        if probed.cell_uri != uri:
            continue
        for change in params.content_changes:
            start = getattr(change, "range", None)
            if start is None or start.start.line <= probed.last_line:
                forget(ls, key)
                break


def notebook_changed(ls: "TorchplaceServer", params: types.DidChangeNotebookDocumentParams) -> None:
    """The probed cell's text changed, or cells were added or removed: its results go."""
    probed = PROBED.get(params.notebook_document.uri)
    if probed is None:
        return
    cells = params.change.cells
    if cells is None:
        return
    edited = {c.document.uri for c in (cells.text_content or [])}
    if probed.cell_uri in edited or cells.structure is not None:
        forget(ls, probed.key)


def release_kernel(uri: str, ls: Optional["TorchplaceServer"] = None) -> None:
    """A document or notebook closed: its probe results go and its kernel shuts down at once
    (if the probe ever ran; the probe is never imported from here)."""
    forget(ls, uri)
    bridge = sys.modules.get("torchplace_probe.editor_bridge")
    close = getattr(bridge, "close_document", None)
    if close is not None:
        try:
            close(uri)
        except Exception:  # closing must never break didClose
            log.exception("could not shut down the probe kernel of %s", uri)
