"""Engine positions (code points) <-> LSP positions (the negotiated encoding).

The engine counts columns in code points; LSP counts UTF-16 units unless the
client negotiated UTF-8 or UTF-32.  ASCII lines (nearly all Python) convert for
free, so only non-ASCII lines pay for the walk.
"""
from __future__ import annotations

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from torchplace_rules import Span
from torchplace_rules.text_lines import LINE_BREAK


def lsp_lines(text: str) -> list[str]:
    """The lines of `text` as LSP counts them: broken only at `\\n`, `\\r\\n`, `\\r`, and a text
    ending in a line break has an empty last line (unlike `split_lines`, which follows `splitlines`)."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


class LineTable:
    """The LSP lines of one text (breaks at `\\n`, `\\r\\n`, `\\r`; a final break starts an
    empty line), split when a position is first converted.  Positions sent to the client are
    clamped to the text, so no range ever points outside the document."""

    __slots__ = ("text", "_ascii", "_lines")

    def __init__(self, text: str) -> None:
        self.text = text
        self._ascii = text.isascii()
        self._lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = lsp_lines(self.text)
        return self._lines

    def line(self, index: int) -> str:
        lines = self.lines
        return lines[index] if 0 <= index < len(lines) else ""

    def to_client(self, codec: PositionCodec, line: int, col: int) -> types.Position:
        lines = self.lines
        if line >= len(lines):
            line, col = len(lines) - 1, len(lines[-1])
        text = lines[line]
        col = min(col, len(text))
        if self._ascii or text.isascii():
            return types.Position(line=line, character=col)
        return types.Position(line=line, character=codec.client_num_units(text[:col]))

    def from_client(self, codec: PositionCodec, position: types.Position) -> tuple[int, int]:
        """(line, code-point column) of a client position."""
        if self._ascii:
            return position.line, position.character
        text = self.line(position.line)
        if text.isascii():
            return position.line, position.character
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return position.line, index
            units += codec.client_num_units(char)
        return position.line, len(text)

    def range(self, codec: PositionCodec, span: Span) -> types.Range:
        return types.Range(
            start=self.to_client(codec, span.start_line, span.start_col),
            end=self.to_client(codec, span.end_line, span.end_col),
        )


def span_contains(span: Span, line: int, col: int) -> bool:
    """Whether (line, col) lies in `span`, ends included (hovering the last character counts)."""
    if (line, col) < (span.start_line, span.start_col):
        return False
    return (line, col) <= (span.end_line, span.end_col)


def spans_overlap(span: Span, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether `span` touches the client selection [start, end] (both code-point positions)."""
    return (span.start_line, span.start_col) <= end and start <= (span.end_line, span.end_col)
