"""Code lens "Probe cell" above each `# %%` cell (and on each notebook code cell).

The lens runs `torchplace.probeCell` with the document URI and the cell's
0-based line; the probe itself only ever runs when the user clicks.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional

from lsprotocol import types
from torchplace_rules.text_lines import split_lines

from torchplace_rules.text_lines import split_lines

from .analysis_units import find_document
from .probe_command import PROBE_COMMAND

if TYPE_CHECKING:
    from .server import TorchplaceServer

CELL_MARKER = re.compile(r"^\s*#\s*%%")
LENS_TITLE = "Probe cell"


def cell_lines(text: str) -> list[int]:
    """0-based lines that start a `# %%` cell."""
    if "%%" not in text:
        return []
    return [i for i, line in enumerate(split_lines(text)) if CELL_MARKER.match(line)]


def _lens(uri: str, line: int) -> types.CodeLens:
    return types.CodeLens(
        range=types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)),
        command=types.Command(title=LENS_TITLE, command=PROBE_COMMAND, arguments=[uri, line]),
    )


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.TEXT_DOCUMENT_CODE_LENS)
    def code_lens(ls: "TorchplaceServer", params: types.CodeLensParams) -> Optional[list[types.CodeLens]]:
        uri = params.text_document.uri
        notebook = ls.workspace.get_notebook_document(cell_uri=uri)
        if notebook is not None:
            cell = next((c for c in notebook.cells if c.document == uri), None)
            if cell is None or cell.kind != types.NotebookCellKind.Code:
                return []
            return [_lens(uri, 0)]
        doc = find_document(ls.workspace, uri)
        if doc is None:
            return []
        return [_lens(uri, line) for line in cell_lines(doc.source)]
