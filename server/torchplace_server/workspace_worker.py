"""The worker process of workspace diagnostics: checks files from disk, answers diagnostics.

`python -m torchplace_server.workspace_worker ENCODING [ROOT]` runs at low priority
(`nice`), so checking a 10,000-file workspace never competes with the keystroke
path for the server's interpreter lock, and its memory (syntax trees, module
summaries) is the worker's: the summary cache is bounded and the server replaces
the process every few thousand files.  It reads batches of (path, config) and
writes (path, diagnostics) for each, as length-prefixed pickles on stdin/stdout;
positions are already in the client's units.  ROOT is the workspace folder: the
project root of its index, as for the open documents' (`cross_file.CrossFile.index`), so
a workspace without a project marker gives the same diagnostics in both.
"""
from __future__ import annotations

import os
import pickle
import stat
import struct
import sys
from pathlib import Path
from typing import Optional

from pygls.workspace.position_codec import PositionCodec

from torchplace_rules import Config, check_source
from torchplace_rules.files import read_source

from .text_positions import LineTable

MAX_FILE_BYTES = 4 * 1024 * 1024  # larger files are generated code or data: not checked in the background
SUMMARIES = 300

_index = None
_codec: Optional[PositionCodec] = None

# (code, severity, message, range, related [(range, message)], unnecessary, fixable); range = (l, c, l, c)
Compact = tuple


def start_worker(encoding: str, niceness: int = 10, root: Optional[str] = None) -> None:
    """Process initializer: lower priority, tune the collector, one project index for all files."""
    global _index, _codec
    try:
        os.nice(niceness)
    except (AttributeError, OSError):
        pass
    from torchplace_rules.parallel_check import tune_gc
    from torchplace_rules.project_index import ProjectIndex

    tune_gc()
    _index = ProjectIndex(root=root if root and os.path.isdir(root) else None, max_summaries=SUMMARIES,
                          environment=sys.executable)
    _codec = PositionCodec(encoding)


def check_files(items: list[tuple[str, Config]]) -> list[tuple[str, Optional[list[Compact]]]]:
    """(path, diagnostics) per file; None when the file cannot be read (gone, not a regular file, too big)."""
    from torchplace_rules.parallel_check import collect_when_grown

    checked = []
    for path, config in items:
        checked.append((path, _check(path, config)))
        collect_when_grown()
    return checked


def _check(path: str, config: Config) -> Optional[list[Compact]]:
    try:
        info = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_FILE_BYTES:
        return None
    text, _error = read_source(Path(path))
    if text is None:
        return None
    findings = check_source(text, path, config, project=_index)
    if not findings:
        return []
    codec = _codec or PositionCodec()
    table = LineTable(text)

    def rng(span) -> tuple[int, int, int, int]:
        start = table.to_client(codec, span.start_line, span.start_col)
        end = table.to_client(codec, span.end_line, span.end_col)
        return start.line, start.character, end.line, end.character

    return [(f.code, int(f.severity), f.message, rng(f.span), [(rng(r.span), r.message) for r in f.related],
             f.unnecessary, f.fix is not None) for f in findings]


def read_frame(stream) -> Optional[object]:
    header = stream.read(4)
    if len(header) < 4:
        return None
    (size,) = struct.unpack(">I", header)
    return pickle.loads(stream.read(size))


def frame(value: object) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return struct.pack(">I", len(data)) + data


def main() -> int:
    start_worker(sys.argv[1] if len(sys.argv) > 1 else "utf-16", root=sys.argv[2] if len(sys.argv) > 2 else None)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        items = read_frame(stdin)
        if items is None:
            return 0
        try:
            answer = check_files(items)
        except Exception as exc:  # noqa: BLE001 - the batch is reported as failed, the worker goes on
            answer = exc
        stdout.write(frame(answer))
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
