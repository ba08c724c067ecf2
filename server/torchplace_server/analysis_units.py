"""What gets analysed: a text document, or a notebook's code cells as one program.

A `Unit` is an immutable snapshot: the program text plus, for each part (the
document itself, or each code cell), where its lines sit in the program.  A
plain document is a one-part unit, so mapping findings back is one code path.

Notebook cells are joined in order by the engine's `notebook_program` (the
CLI checks `.ipynb` files with the same code): IPython syntax is rewritten as
IPython runs it, and a cell that does not parse is blanked out of the program
(its line count kept) and gets its own syntax finding.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional
from urllib.parse import unquote

from lsprotocol import types
from pygls import uris
from pygls.workspace import TextDocument, Workspace

from torchplace_rules.notebook_program import CELL_SEPARATOR, cell_program, join_cells, line_count

__all__ = ["CELL_SEPARATOR", "CellPart", "Unit", "build_unit", "cell_program", "find_document", "unit_is_open", "unit_key_for"]

from .text_positions import LineTable

PYTHON_LANGUAGES = frozenset({"python", "python3", "py", "pyi", "jupyter"})


@dataclass(frozen=True, eq=False)
class CellPart:
    """One document's slice of a unit's program (the whole program for a plain file)."""

    uri: str
    version: Optional[int]
    first_line: int  # where this part starts in the program
    line_count: int
    text: str  # the document's own text (unmasked)
    blanked: bool = False  # left out of the program (does not parse, or a cell magic)
    broken: bool = False  # does not parse on its own: gets its own syntax finding

    @cached_property
    def table(self) -> LineTable:
        """Position conversion, built when a result is placed (units are built far more often)."""
        return LineTable(self.text)

    @property
    def identity(self) -> tuple:
        return (self.uri, self.first_line, self.line_count, self.blanked)


@dataclass(frozen=True, eq=False)
class Unit:
    """An immutable snapshot of what one analysis looks at."""

    key: str  # the document URI, or the notebook URI
    path: Optional[str]  # filesystem path (for config and per-file ignores), if any
    text: str  # the program
    parts: tuple[CellPart, ...]
    is_notebook: bool = False
    all_cell_uris: tuple[str, ...] = ()  # notebooks: every cell, code or not
    checkable: bool = True  # False for a document the client opened in another language

    def same_content(self, other: "Unit") -> bool:
        return (
            self.text == other.text
            and self.path == other.path
            and tuple(p.identity for p in self.parts) == tuple(p.identity for p in other.parts)
        )

    def part_for_line(self, line: int) -> Optional[CellPart]:
        lo, hi = 0, len(self.parts) - 1
        while lo <= hi:
            mid = (lo + hi) // 2
            part = self.parts[mid]
            if line < part.first_line:
                hi = mid - 1
            elif line >= part.first_line + max(part.line_count, 1):
                lo = mid + 1
            else:
                return part
        return None

    def part_for_uri(self, uri: str) -> Optional[CellPart]:
        for part in self.parts:
            if part.uri == uri:
                return part
        wanted = unquote(uri)  # the same document, spelled with other %-escapes
        for part in self.parts:
            if unquote(part.uri) == wanted:
                return part
        return None

    @property
    def uris(self) -> tuple[str, ...]:
        return self.all_cell_uris or tuple(p.uri for p in self.parts)


def find_document(workspace: Workspace, uri: str) -> Optional[TextDocument]:
    """An open document by URI.  pygls files documents under the *unquoted* URI
    (`my%20file.py` is kept as `my file.py`), so a plain dict lookup misses them."""
    return workspace.text_documents.get(unquote(uri))


def unit_key_for(workspace: Workspace, uri: str) -> str:
    """The unit a document belongs to: its notebook's URI for a cell, else the
    document's own URI as the client sent it (one spelling for every cache)."""
    notebook = workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        return notebook.uri
    doc = find_document(workspace, uri)
    return doc.uri if doc is not None else uri


def unit_is_open(workspace: Workspace, key: str) -> bool:
    """Is the unit `key` (document or notebook URI) still open?  (Cheaper than building it.)"""
    return workspace.get_notebook_document(notebook_uri=key) is not None or find_document(workspace, key) is not None


def build_unit(workspace: Workspace, key: str) -> Optional[Unit]:
    """Snapshot the unit `key` (document or notebook URI) as it is now; None once closed."""
    notebook = workspace.get_notebook_document(notebook_uri=key)
    if notebook is not None:
        return _notebook_unit(workspace, notebook)
    doc = find_document(workspace, key)
    if doc is None:
        return None
    text = doc.source
    part = CellPart(uri=doc.uri, version=doc.version, first_line=0, line_count=line_count(text), text=text)
    checkable = not doc.language_id or doc.language_id.lower() in PYTHON_LANGUAGES
    return Unit(key=key, path=uris.to_fs_path(doc.uri), text=text, parts=(part,), checkable=checkable)


def _notebook_unit(workspace: Workspace, notebook: types.NotebookDocument) -> Unit:
    docs = []
    all_uris = []
    for cell in notebook.cells:
        all_uris.append(cell.document)
        if cell.kind != types.NotebookCellKind.Code:
            continue
        doc = find_document(workspace, cell.document)
        if doc is None or (doc.language_id and doc.language_id != "python"):
            continue
        docs.append(doc)
    program = join_cells([(k, doc.source) for k, doc in enumerate(docs)])
    parts = tuple(
        CellPart(uri=doc.uri, version=doc.version, first_line=cell.first_line, line_count=cell.line_count,
                 text=cell.text, blanked=cell.blanked, broken=cell.broken)
        for doc, cell in zip(docs, program.cells)
    )
    return Unit(
        key=notebook.uri,
        path=uris.to_fs_path(notebook.uri),
        text=program.text,
        parts=parts,
        is_notebook=True,
        all_cell_uris=tuple(all_uris),
    )
