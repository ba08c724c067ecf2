"""Text document sync (incremental; pygls applies the changes): schedule checks."""
from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from .probe_kernels import release_kernel, text_changed

from .analysis_units import unit_key_for

if TYPE_CHECKING:
    from .server import TorchplaceServer


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: "TorchplaceServer", params: types.DidOpenTextDocumentParams) -> None:
        ls.workspace_checks.document_opened(params.text_document.uri)
        ls.cross_file.document_changed(params.text_document.uri)
        ls.diagnostics.unit_changed(unit_key_for(ls.workspace, params.text_document.uri), immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: "TorchplaceServer", params: types.DidChangeTextDocumentParams) -> None:
        key = unit_key_for(ls.workspace, params.text_document.uri)
        ls.shown.document_changed(key)
        ls.analysis.note_change(key)
        ls.cross_file.document_changed(params.text_document.uri)
        ls.diagnostics.unit_changed(unit_key_for(ls.workspace, params.text_document.uri))
        text_changed(ls, params)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: "TorchplaceServer", params: types.DidCloseTextDocumentParams) -> None:
        # pygls has already dropped the document.
        ls.diagnostics.unit_closed(params.text_document.uri, [params.text_document.uri])
        ls.cross_file.document_closed(params.text_document.uri)
        ls.workspace_checks.document_closed(params.text_document.uri)
        release_kernel(params.text_document.uri, ls)
