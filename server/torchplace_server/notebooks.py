"""Jupyter notebooks over `notebookDocument/sync`: one unit per notebook.

pygls keeps the notebook and its cell documents; the analysis joins the code
cells in order (see `analysis_units`) and results go back to every cell.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from .probe_kernels import notebook_changed, release_kernel

if TYPE_CHECKING:
    from .server import TorchplaceServer


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def did_open(ls: "TorchplaceServer", params: types.DidOpenNotebookDocumentParams) -> None:
        ls.diagnostics.unit_changed(params.notebook_document.uri, immediate=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def did_change(ls: "TorchplaceServer", params: types.DidChangeNotebookDocumentParams) -> None:
        cells = params.change.cells
        for content in (cells.text_content or []) if cells is not None else []:
            ls.shown.document_changed(content.document.uri)
        ls.analysis.note_change(params.notebook_document.uri)
        ls.diagnostics.unit_changed(params.notebook_document.uri)
        notebook_changed(ls, params)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def did_save(ls: "TorchplaceServer", params: types.DidSaveNotebookDocumentParams) -> None:
        """Nothing to do: checks follow edits, and the probe never runs on save."""

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def did_close(ls: "TorchplaceServer", params: types.DidCloseNotebookDocumentParams) -> None:
        ls.diagnostics.unit_closed(params.notebook_document.uri, [c.uri for c in params.cell_text_documents])
        release_kernel(params.notebook_document.uri, ls)
