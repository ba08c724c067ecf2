"""A checked file's text with fast position conversion.

`ast` reports columns as UTF-8 byte offsets; findings use code points.  Lines
that are pure ASCII (nearly all) convert for free.
"""
from __future__ import annotations

import ast
from functools import cached_property

from .model import Span
from .text_lines import dominant_newline, line_ending, split_lines


class SourceText:
    __slots__ = ("text", "_lines", "_ascii", "__dict__")

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines = None
        self._ascii = text.isascii()

    @property
    def lines(self) -> list[str]:
        """The text's lines with their ends, split when first read (most summarised modules, ASCII
        and without findings, never need them)."""
        lines = self._lines
        if lines is None:
            lines = self._lines = split_lines(self.text, keepends=True) or [""]
        return lines

    def mentions(self, word: str) -> bool:
        """`word in self.text`, searched once per word: a question asked for each function of the
        file (`syntax_nodes.lines_mention`), each time of the whole text."""
        known = self.__dict__.get("_mentions")
        if known is None:
            known = self._mentions = {}
        found = known.get(word)
        if found is None:
            found = known[word] = word in self.text
        return found

    def char_col(self, lineno: int, byte_col: int) -> int:
        """Convert an `ast` (1-based line, UTF-8 byte column) to a code-point column."""
        if self._ascii or lineno - 1 >= len(self.lines):
            return byte_col
        line = self.lines[lineno - 1]
        if line.isascii():
            return byte_col
        return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def span(self, node: ast.AST) -> Span:
        end_line = getattr(node, "end_lineno", None) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        if end_col is None:
            end_col = node.col_offset
        return Span(
            node.lineno - 1,
            self.char_col(node.lineno, node.col_offset),
            end_line - 1,
            self.char_col(end_line, end_col),
        )

    def start(self, node: ast.AST) -> Span:
        col = self.char_col(node.lineno, node.col_offset)
        return Span(node.lineno - 1, col, node.lineno - 1, col)

    def end(self, node: ast.AST) -> Span:
        col = self.char_col(node.end_lineno, node.end_col_offset)
        return Span(node.end_lineno - 1, col, node.end_lineno - 1, col)

    def segment(self, node: ast.AST) -> str:
        return self.slice(self.span(node))

    def slice(self, span: Span) -> str:
        if span.start_line == span.end_line:
            return self.lines[span.start_line][span.start_col:span.end_col]
        out = [self.lines[span.start_line][span.start_col:]]
        out.extend(self.lines[span.start_line + 1:span.end_line])
        out.append(self.lines[span.end_line][:span.end_col])
        return "".join(out)

    def indent_of(self, line: int) -> str:
        """The line's indentation (a form feed resets the count, as in Python's tokenizer)."""
        text = self.lines[line]
        lead = text[: len(text) - len(text.lstrip(" \t\x0c"))]
        return lead.rsplit("\x0c", 1)[-1]

    @cached_property
    def line_offsets(self) -> list[int]:
        offsets, total = [], 0
        for line in self.lines:
            offsets.append(total)
            total += len(line)
        offsets.append(total)
        return offsets

    def offset(self, line: int, col: int) -> int:
        if line >= len(self.lines):
            return len(self.text)
        return self.line_offsets[line] + col

    @cached_property
    def newline(self) -> str:
        """The text's most common line break (for text that belongs to no line)."""
        return dominant_newline(self.text)

    def newline_of(self, line: int) -> str:
        """The break ending `line` (0-based), so an inserted line matches its neighbour;
        the text's usual break for a last line that has none."""
        if 0 <= line < len(self.lines):
            return line_ending(self.lines[line]) or self.newline
        return self.newline
