"""A notebook's code cells as one program, and the way back to the cells.

The engine checks one text.  A notebook is checked as its code cells joined in
order, each followed by a separator comment line, so a device defined in cell 1
is known in cell 5.  IPython syntax is rewritten as IPython runs it
(`ipython_syntax`), keeping each cell's line count; a cell that still does not
parse is blanked out of the program (its lines kept, empty) and checked on its
own for its syntax finding, so one broken cell does not silence the others.
The CLI (`.ipynb` files) and the language server (`notebookDocument/sync`)
both build their programs here, so they report the same findings.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional, Sequence

from .fixes import parses
from .ipython_syntax import to_python
from .model import Span
from .text_lines import dominant_newline, line_ending, split_lines

CELL_SEPARATOR = "# torchplace: notebook cell boundary"


@lru_cache(maxsize=1024)
def cell_program(text: str) -> tuple[str, bool, bool]:
    """(the cell as Python, blanked, broken): blanked when a `%%cell magic` or a syntax
    error (broken) leaves none of its code in the program.  Kept by text: the server
    builds a notebook's program several times per keystroke and one cell changes."""
    python, cell_magic, _ = to_python(text)
    broken = not cell_magic and not parses(python)
    return python, cell_magic or broken, broken


def rewritten_lines(text: str) -> frozenset[int]:
    """The cell's lines that hold IPython syntax (their program text is not the cell's)."""
    return to_python(text)[2]


def line_count(text: str) -> int:
    """Lines of a cell as LSP counts them for whole-line work (at least one)."""
    if "\r" in text:
        return max(len(split_lines(text)), 1)
    return max(text.count("\n") + (0 if text.endswith("\n") else 1), 1) if text else 1


@dataclass(frozen=True)
class ProgramCell:
    """One code cell's place in the program."""

    index: int  # the cell's position in the notebook (every kind of cell counted, from 0)
    first_line: int  # where the cell starts in the program
    line_count: int
    text: str  # the cell's own text
    blanked: bool = False
    broken: bool = False


@dataclass(frozen=True)
class NotebookProgram:
    text: str
    cells: tuple[ProgramCell, ...]
    _starts: tuple[int, ...] = field(default=(), repr=False, compare=False)

    def cell_at(self, line: int) -> Optional[ProgramCell]:
        """The cell holding program line `line` (None for a separator line)."""
        k = bisect.bisect_right(self._starts, line) - 1
        if k < 0:
            return None
        cell = self.cells[k]
        return cell if line < cell.first_line + cell.line_count else None

    def local(self, span: Span) -> tuple[Optional[ProgramCell], Span]:
        """`span` in its cell's own lines (clamped to the cell)."""
        cell = self.cell_at(span.start_line)
        if cell is None:
            return None, span
        last = cell.first_line + cell.line_count - 1
        end_line, end_col = span.end_line, span.end_col
        if end_line > last:  # a span running into the separator stops at the cell's end
            end_line, end_col = last, len(split_lines(cell.text)[-1]) if cell.text else 0
        return cell, Span(span.start_line - cell.first_line, span.start_col, end_line - cell.first_line, end_col)


def join_cells(cells: Sequence[tuple[int, str]]) -> NotebookProgram:
    """The program of the code cells `(index in the notebook, text)`, in order."""
    pieces: list[str] = []
    placed: list[ProgramCell] = []
    line = 0
    for index, text in cells:
        python, blanked, broken = cell_program(text)
        count = line_count(text)
        body = split_lines(python) if not broken else []
        body += [""] * (count - len(body))
        pieces.extend(body[:count])
        pieces.append(CELL_SEPARATOR)
        placed.append(ProgramCell(index, line, count, text, blanked, broken))
        line += count + 1
    program = "\n".join(pieces) + ("\n" if pieces else "")
    return NotebookProgram(program, tuple(placed), tuple(c.first_line for c in placed))


def split_program(program: str) -> list[list[str]]:
    """A (fixed) program's lines, per cell (the separator lines mark the cells' ends)."""
    cells: list[list[str]] = []
    current: list[str] = []
    for line in split_lines(program):
        if line == CELL_SEPARATOR:
            cells.append(current)
            current = []
        else:
            current.append(line)
    return cells


def fixed_cells(notebook: NotebookProgram, fixed: str) -> Optional[dict[int, str]]:
    """New text per changed cell (by notebook index) for the fixed program `fixed`; None when
    a fix crossed a cell boundary.  A cell whose changes touch rewritten IPython lines is
    left as it was (writing the rewritten text back would change what the cell does)."""
    old_cells = split_program(notebook.text)
    new_cells = split_program(fixed)
    if len(old_cells) != len(notebook.cells) or len(new_cells) != len(notebook.cells):
        return None
    out: dict[int, str] = {}
    for cell, old, new in zip(notebook.cells, old_cells, new_cells):
        if cell.blanked or old == new:
            continue
        text = restore_lines(cell.text, old[:cell.line_count], new, rewritten_lines(cell.text))
        if text is not None and text != cell.text:
            out[cell.index] = text
    return out


def restore_lines(original: str, old_lines: list[str], new_lines: list[str], keep: frozenset[int] = frozenset()) -> Optional[str]:
    """`original` with the lines that differ between `old_lines` (its lines, maybe rewritten)
    and `new_lines` replaced; every other line is the original's, with its own line break,
    and a new line takes the break of the line it replaces or follows.  None when a change
    touches a line in `keep`."""
    own = split_lines(original, keepends=True)
    usual = dominant_newline(original)
    out: list[list[str]] = []  # [text, break]
    import difflib  # (here only: a plain check never loads it)

    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            out.extend([ln.rstrip("\r\n"), line_ending(ln)] for ln in own[i1:i2])
            continue
        if any(k in keep for k in range(i1, i2)):
            return None
        for k, line in enumerate(new_lines[j1:j2]):
            src = i1 + k if i1 + k < i2 else (i2 - 1 if i2 > i1 else i1 - 1)
            brk = line_ending(own[src]) if 0 <= src < len(own) else usual
            out.append([line, brk])
    for item in out[:-1]:
        item[1] = item[1] or usual  # only the last line may lack a break
    if out:
        out[-1][1] = line_ending(own[-1]) if own else ""
    return "".join(text + brk for text, brk in out)
