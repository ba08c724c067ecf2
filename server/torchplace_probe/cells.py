"""Cells of a document: `# %%` cells of a .py file, or a notebook's code cells.

Why: the probe runs one cell (and, like Jupyter, the cells above it first), so
it needs each cell's text and where its lines sit in the document.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Optional, Sequence, Union

from torchplace_rules.text_lines import split_lines

_MARKER = re.compile(r"^\s*#\s*%%(?P<rest>.*)$")
_MARKDOWN = re.compile(r"\[\s*(markdown|md|raw)\s*\]", re.IGNORECASE)


@dataclass(frozen=True)
class Cell:
    """One runnable unit.  `first_line` is 1-based: the line of the cell's first source line
    in its document (a `# %%` file), or 1 for a notebook cell."""

    index: int
    first_line: int
    source: str
    is_code: bool = True

    @property
    def last_line(self) -> int:
        return self.first_line + max(len(split_lines(self.source)) - 1, 0)

    @property
    def fingerprint(self) -> str:
        return hashlib.sha1(f"{self.first_line}\0{self.source}".encode("utf-8", "surrogatepass")).hexdigest()


def split_cells(text: str) -> list[Cell]:
    """Split at `# %%` markers; a file without markers is one cell.  The marker line
    itself belongs to the cell it opens (it is a comment, so it runs as nothing)."""
    lines = split_lines(text, keepends=True)
    starts = [i for i, line in enumerate(lines) if _MARKER.match(line)]
    if not starts:
        return [Cell(0, 1, text)]
    cells: list[Cell] = []
    bounds = ([0] if starts[0] > 0 else []) + starts + [len(lines)]
    for begin, end in zip(bounds, bounds[1:]):
        chunk = "".join(lines[begin:end])
        marker = _MARKER.match(lines[begin]) if begin < len(lines) else None
        is_code = not (marker and _MARKDOWN.search(marker.group("rest")))
        if begin < starts[0] and not chunk.strip():
            continue
        cells.append(Cell(len(cells), begin + 1, chunk, is_code))
    return cells


def notebook_cells(sources: Sequence) -> list[Cell]:
    """A notebook's cells in order, as the editor numbers them: each item is a code cell's text,
    or `(text, is_code)` (markdown cells keep their place but never run)."""
    cells = []
    for i, item in enumerate(sources):
        text, is_code = (item, True) if isinstance(item, str) else (item[0], bool(item[1]))
        cells.append(Cell(i, 1, text, is_code))
    return cells


def cells_of(document: Union[str, Sequence[str]]) -> list[Cell]:
    if isinstance(document, str):
        return split_cells(document)
    return notebook_cells(document)


def cell_for_line(cells: Sequence[Cell], line: int) -> Optional[Cell]:
    """The cell of a `# %%` document that holds 1-based `line`."""
    found = None
    for cell in cells:
        if cell.first_line <= line:
            found = cell
    return found
