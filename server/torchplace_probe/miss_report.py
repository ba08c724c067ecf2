"""`torchplace probe --report-miss DIR`: a device error the engine missed, as a corpus case draft.

Why: "corpus first" (the developers' guide) — an engine change for a new kind of
bug starts from a real case in tests/corpus.  When the probe hits a device error
that no static finding explains, this writes the case in the corpus format
(tests/corpus/README.md): the cells that ran, as one file, and a `case.toml` whose
`expected` points at the root cause line.  The thread (`source`) and the rule code
are for a person to confirm: the draft says so, and the corpus tests refuse it
until they are filled in.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional, Sequence, Union

from .cells import cells_of
from .result import ProbeResult

DEFAULT_CODE = "TP101"  # mixed devices: the engine's general device-mismatch rule


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _case_source(document: Union[str, Sequence[str]], upto: int) -> tuple[str, list]:
    """The code of cells 0..upto as one file, and each cell's first line in it (1-based)."""
    parts, firsts, line = [], [], 1
    for cell in cells_of(document)[: upto + 1]:
        if not cell.is_code:
            continue
        text = cell.source if cell.source.endswith("\n") else cell.source + "\n"
        firsts.append((cell.index, cell.first_line, line))
        parts.append(text)
        line += text.count("\n")
    return "".join(parts), firsts


def _case_line(firsts: list, cell: Optional[int], line: int, is_notebook: bool) -> Optional[int]:
    for index, first_line, start in firsts:
        if index == cell:
            return start + (line - 1 if is_notebook else line - first_line)
    return None


def write_case(result: ProbeResult, document: Union[str, Sequence[str]], path: Path, out_dir: Path,
               torch_version: str = "") -> Optional[Path]:
    """Write the draft case folder; None when the result has no unexplained device error."""
    error = result.error
    if error is None or error.kind != "device-mismatch" or error.static_finding is not False or result.cell is None:
        return None
    is_notebook = not isinstance(document, str)
    source, firsts = _case_source(document, result.cell)
    cause = error.root_cause or {}
    if cause.get("line") and not cause.get("file"):
        target_cell, target_line = cause.get("cell", result.cell), cause["line"]
    else:
        target_cell, target_line = result.cell, error.line
    line = _case_line(firsts, target_cell, target_line, is_notebook) if target_line else None
    stem = re.sub(r"\W+", "_", path.stem).strip("_").lower() or "probe"
    folder = out_dir / f"{stem}_probe_miss_line_{line or 0}"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{stem}.py"
    (folder / name).write_text(source, encoding="utf-8")
    how = f"line {line}: {result.error.root_cause_text()}" if cause.get("line") else f"raised at line {line}"
    toml = [
        "# Draft written by `torchplace probe --report-miss`: the probe hit a device error that no static",
        "# finding explains. Fill in `source` (the public thread this bug comes from), check `code`, cut the",
        "# file down to the lines that make the bug, and add a negative twin (tests/corpus/README.md).",
        'source = ""',
        f"summary = {_toml_string(f'{error.type}: {error.message} ({how})')}",
        'kind = "single-file"',
        f"verified = {_toml_string(f'torchplace probe with a simulated GPU (torch {torch_version}): {error.type} at line {line}')}",
        "expected = [",
        f'  {{file = "{name}", line = {line or 1}, code = "{DEFAULT_CODE}"}},',
        "]",
    ]
    (folder / "case.toml").write_text("\n".join(toml) + "\n", encoding="utf-8")
    return folder
