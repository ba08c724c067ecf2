"""Building `WorkspaceEdit`s that carry the document version they were made for.

Clients that accept `documentChanges` get one `TextDocumentEdit` per document
(or cell) with its version, so an edit computed for an older text is refused
instead of corrupting the newer one; others get plain `changes`.
"""
from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Iterable

from lsprotocol import types

from torchplace_rules import Span
from torchplace_rules.text_lines import dominant_newline, line_ending, split_lines

from .analysis_units import CellPart

if TYPE_CHECKING:
    from .server import TorchplaceServer


def workspace_edit(ls: "TorchplaceServer", edits: Iterable[tuple[CellPart, Span, str]]) -> types.WorkspaceEdit:
    codec = ls.position_codec
    grouped: dict[str, tuple[CellPart, list[types.TextEdit]]] = {}
    for part, span, new_text in edits:
        entry = grouped.setdefault(part.uri, (part, []))
        entry[1].append(types.TextEdit(range=part.table.range(codec, span), new_text=new_text))
    caps = ls.client_capabilities.workspace
    versioned = bool(caps and caps.workspace_edit and caps.workspace_edit.document_changes)
    if versioned:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=part.version),
                    edits=text_edits,
                )
                for uri, (part, text_edits) in grouped.items()
            ]
        )
    return types.WorkspaceEdit(changes={uri: text_edits for uri, (_, text_edits) in grouped.items()})


def line_edits(original: str, old_lines: list[str], new_lines: list[str]) -> list[tuple[Span, str]]:
    """Minimal whole-line replacements turning `old_lines` into `new_lines`.

    `original` is the document's real text (same line structure as `old_lines`,
    which may be a masked copy); positions and the newline style come from it.
    """
    keep = split_lines(original, keepends=True)
    usual = dominant_newline(original)
    trailing = original.endswith(("\n", "\r"))
    n = len(keep)
    out: list[tuple[Span, str]] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        # Each new line ends as the line it replaces (or, past those, the one before it) did.
        breaks = [line_ending(keep[k]) for k in range(i1, min(i2, n))]
        nl = (breaks[-1] if breaks else line_ending(keep[i1 - 1]) if 0 < i1 <= n else "") or usual
        pieces = [(line, (breaks[k] if k < len(breaks) else "") or nl) for k, line in enumerate(new_lines[j1:j2])]
        text = "".join(a + b for a, b in pieces)
        start, end = (i1, 0), (i2, 0)
        if i2 >= n and not trailing and n:
            last = len(keep[-1])
            end = (n - 1, last)
            if i1 >= n:  # insertion after a last line that has no newline
                start, text = end, nl + text[: -len(pieces[-1][1])]
            elif text:  # the new last line has no newline either
                text = text[: -len(pieces[-1][1])]
            elif i1 > 0:  # deleting the last lines: take the newline before them too
                start = (i1 - 1, len(keep[i1 - 1].rstrip("\r\n")))
        out.append((Span(start[0], start[1], end[0], end[1]), text))
    return out
