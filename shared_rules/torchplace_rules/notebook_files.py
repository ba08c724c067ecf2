"""Reading `.ipynb` files and writing fixed cells back, keeping everything else byte for byte.

`--fix` changes only the `source` values of the cells it fixed: the rest of the
file (key order, indentation, escaping, outputs, metadata) is left exactly as it
was, so a fix shows up in version control as the lines it changed.  The JSON
is walked once to note where each cell's `source` value lies in the text.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Optional

from .text_lines import split_lines

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class NotebookError(ValueError):
    """Not a notebook torchplace can check (message says why)."""


@dataclass(frozen=True)
class NotebookFile:
    raw: str
    cells: tuple[tuple[int, str], ...]  # (index among all cells, text) of each code cell
    sources: dict[int, tuple[int, int]]  # cell index -> span of its "source" value in `raw`
    language: str  # the kernel's language ("python" when the file does not say)


def read_notebook(raw: str) -> NotebookFile:
    """The code cells of a notebook's JSON text (nbformat 4)."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise NotebookError(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise NotebookError("no 'cells' list (only nbformat 4 notebooks are read)")
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    language = _language(metadata)
    spans = _source_spans(raw)
    cells = []
    for index, cell in enumerate(data["cells"]):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"cell {index + 1}: 'source' is neither a string nor a list of strings")
        cells.append((index, source))
    return NotebookFile(raw, tuple(cells), spans, language)


def _language(metadata: dict) -> str:
    for key, sub in (("language_info", "name"), ("kernelspec", "language")):
        section = metadata.get(key)
        if isinstance(section, dict) and isinstance(section.get(sub), str):
            return section[sub].lower()
    return "python"


def with_sources(notebook: NotebookFile, new_sources: dict[int, str]) -> str:
    """The notebook's text with the given cells' sources replaced (same layout elsewhere)."""
    raw = notebook.raw
    ascii_only = raw.isascii() and "\\u" in raw
    for index in sorted(new_sources, key=lambda i: notebook.sources[i][0], reverse=True):
        start, end = notebook.sources[index]
        value = _encode_source(raw[start:end], new_sources[index], ascii_only)
        raw = raw[:start] + value + raw[end:]
    return raw


def _encode_source(old_value: str, text: str, ascii_only: bool) -> str:
    """`text` as JSON in the form `old_value` had: a string, or a list of lines laid out alike."""
    if old_value.startswith('"'):
        return json.dumps(text, ensure_ascii=ascii_only)
    items = [json.dumps(line, ensure_ascii=ascii_only) for line in split_lines(text, keepends=True)]
    inner = old_value[1:-1]
    lead = _SPACE.match(inner).group()
    trail = inner[len(inner.rstrip(" \t\n\r")):]
    if not inner.strip():  # was empty: one line per item, indented like a list nbformat writes
        lead, trail = " ", " "
    return "[" + lead + ("," + (lead or " ")).join(items) + trail + "]" if items else "[]"


def _source_spans(raw: str) -> dict[int, tuple[int, int]]:
    """Offsets of each cell's "source" value (cell index -> (start, end))."""
    spans: dict[int, tuple[int, int]] = {}
    for key, start, _end in _members(raw, _skip(raw, 0)):
        if key != "cells":
            continue
        pos = _skip(raw, start + 1)
        index = 0
        while raw[pos] != "]":
            for cell_key, value_start, value_end in _members(raw, pos):
                if cell_key == "source":
                    spans[index] = (value_start, value_end)
            pos = _skip(raw, _value_end(raw, pos))
            if raw[pos] == ",":
                pos = _skip(raw, pos + 1)
            index += 1
    return spans


def _members(raw: str, pos: int):
    """(key, value start, value end) of the object starting at `pos` (not descending)."""
    if raw[pos] != "{":
        return
    pos = _skip(raw, pos + 1)
    while raw[pos] != "}":
        key, pos = json.decoder.scanstring(raw, pos + 1)
        pos = _skip(raw, _skip(raw, pos) + 1)  # past ':'
        end = _value_end(raw, pos)
        yield key, pos, end
        pos = _skip(raw, end)
        if raw[pos] == ",":
            pos = _skip(raw, pos + 1)


def _value_end(raw: str, pos: int) -> int:
    return _DECODER.raw_decode(raw, pos)[1]


def _skip(raw: str, pos: int) -> int:
    return _SPACE.match(raw, pos).end()


def notebook_language_ok(notebook: NotebookFile) -> Optional[str]:
    """None for a Python notebook, else why it is not checked."""
    if notebook.language in ("python", "python3", "ipython", "ipython3"):
        return None
    return f"not a Python notebook (language {notebook.language!r}); skipped"

