"""The server's copy of each open document, with the same lines as the client.

pygls keeps a document as one string and splits it with `str.splitlines`,
which also breaks lines at form feed, `\\x1c`-`\\x1e`, `\\x85`, `\\u2028`
and `\\u2029`; LSP and Python's tokenizer break only at `\\n`, `\\r\\n` and
`\\r`.  After such a character every incremental edit landed one line off,
and an out-of-range position at the end of a CRLF line was put between the
`\\r` and the `\\n`.  Here a document is a list of lines split by
`torchplace_rules.text_lines` (each with its own line break), an edit
replaces only the lines it touches (a keystroke costs the same in a long file
as in a short one), and positions are clamped as the specification says: a
character past the end of a line means the end of that line (before its line
break), a line past the end means the end of the document.
"""
from __future__ import annotations

from typing import Optional, Sequence

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace
from pygls.workspace.position_codec import PositionCodec

from torchplace_rules.text_lines import line_ending, split_lines


class TorchplaceDocument(TextDocument):
    """A text document kept as LSP lines; the text is joined when someone asks for it."""

    def __init__(self, uri: str, source: Optional[str] = None, version: Optional[int] = None,
                 language_id: Optional[str] = None, local: bool = True,
                 sync_kind: types.TextDocumentSyncKind = types.TextDocumentSyncKind.Incremental,
                 position_codec: Optional[PositionCodec] = None) -> None:
        super().__init__(uri, source, version, language_id, local, sync_kind, position_codec)
        self._lines: Optional[list[str]] = None if source is None else split_lines(source, keepends=True)

    # -- text --------------------------------------------------------------
    @property
    def source(self) -> str:
        if self._source is None:
            if self._lines is None:
                return super().source  # a document read from disk (never opened)
            self._source = "".join(self._lines)
        return self._source

    @property
    def lines(self) -> Sequence[str]:
        if self._lines is None:
            self._lines = split_lines(self.source, keepends=True)
        return self._lines

    def _set_text(self, text: str) -> None:
        self._source = text
        self._lines = split_lines(text, keepends=True)

    # -- changes -----------------------------------------------------------
    def _apply_full_change(self, change: types.TextDocumentContentChangeEvent) -> None:
        self._set_text(change.text)

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        lines = self.lines  # materialised
        if not lines:
            self._set_text(change.text)
            return
        start = self.clamp(change.range.start)
        end = self.clamp(change.range.end)
        if end < start:
            start, end = end, start
        text = change.text
        if start[0] == end[0] < len(lines) and "\r" not in text and "\n" not in text:
            # Within one line's text (never its break): the keystroke case, no re-split.
            line = lines[start[0]]
            lines[start[0]] = line[:start[1]] + text + line[end[1]:]
            self._source = None
            return
        # Re-split one line either side too: an edit can join a `\r` to the `\n` that follows it.
        first = max(start[0] - 1, 0)
        last = min(end[0] + 1, len(lines) - 1)
        head = "".join(lines[first:start[0]])
        tail = "".join(lines[end[0] + 1:last + 1])
        start_line = lines[start[0]] if start[0] < len(lines) else ""
        end_line = lines[end[0]] if end[0] < len(lines) else ""
        text = head + start_line[:start[1]] + change.text + end_line[end[1]:] + tail
        lines[first:last + 1] = split_lines(text, keepends=True)
        self._source = None

    def clamp(self, position: types.Position) -> tuple[int, int]:
        """(line index, code-point column) of a client position, clamped to the text.

        A line past the end is the end of the document: (number of lines, 0)
        after a final line break, else the end of the last line."""
        lines = self.lines
        if position.line >= len(lines):
            if not lines:
                return 0, 0
            last = lines[-1]
            if line_ending(last):
                return len(lines), 0
            return len(lines) - 1, len(last)
        line = lines[position.line]
        body = line[: len(line) - len(line_ending(line))]
        return position.line, code_points(self.position_codec, body, position.character)


def code_points(codec: PositionCodec, body: str, units: int) -> int:
    """The code-point column of `units` client units into `body` (clamped to its length)."""
    if body.isascii() or codec.encoding == types.PositionEncodingKind.Utf32:
        return min(units, len(body))
    count = 0
    for index, char in enumerate(body):
        if count >= units:
            return index
        count += codec.client_num_units(char)
    return len(body)


class TorchplaceWorkspace(Workspace):
    """pygls' workspace with `TorchplaceDocument`s, and tolerant of changes to unknown documents."""

    @classmethod
    def replacing(cls, old: Workspace) -> "TorchplaceWorkspace":
        new = cls(old.root_uri, old._sync_kind, list(old.folders.values()), old.position_encoding)
        for uri, doc in old.text_documents.items():  # none yet at initialize, but keep any
            new._text_documents[uri] = new._create_text_document(doc.uri, doc.source, doc.version, doc.language_id)
        return new

    def _create_text_document(self, doc_uri: str, source: Optional[str] = None, version: Optional[int] = None,
                              language_id: Optional[str] = None) -> TextDocument:
        return TorchplaceDocument(doc_uri, source=source, version=version, language_id=language_id,
                                  sync_kind=self._sync_kind, position_codec=self._position_codec)

    def update_text_document(self, text_doc: types.VersionedTextDocumentIdentifier,
                             change: types.TextDocumentContentChangeEvent) -> None:
        if self.text_documents.get(_unquoted(text_doc.uri)) is None:
            raise UnknownDocument(text_doc.uri)
        super().update_text_document(text_doc, change)

    def update_notebook_document(self, params: types.DidChangeNotebookDocumentParams) -> None:
        if self.get_notebook_document(notebook_uri=params.notebook_document.uri) is None:
            raise UnknownDocument(params.notebook_document.uri)
        super().update_notebook_document(params)


class UnknownDocument(LookupError):
    """A change to a document that was never opened (a client bug): logged, nothing else."""

    def __init__(self, uri: str) -> None:
        super().__init__(f"change to a document that is not open: {uri}")


def _unquoted(uri: str) -> str:
    from urllib.parse import unquote

    return unquote(uri)
