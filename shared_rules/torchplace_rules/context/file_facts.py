"""Facts read from other files of the project, kept per version of each file.

The checks that look past the checked file (the programs of its folder that write a loaded path,
a folder of scripts that names no accelerator) ask the same questions of the same files on every
check, and the language server checks on each keystroke.  `file_fact` reads and parses a file once
per version (`ProjectIndex.fingerprint`: modification time and size on disk, a digest of unsaved
editor text) and keeps only what the question's function returns, never the tree; a changed file
is read again.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Callable, Optional


def file_fact(project, path: Path, question: Callable[[Optional[str]], object]):
    """`question(text)` of the project file `path` (text None: unreadable), asked once per version of
    the file and kept on the project index (one answer per question and file)."""
    cache = project.__dict__.setdefault("_file_facts", {})
    key = (question, path)
    fingerprint = project.fingerprint(path)  # (taken before the read: a file changed after it is read again)
    known = cache.get(key)
    if known is not None and fingerprint is not None and known[0] == fingerprint:
        return known[1]
    answer = question(project.read(path))
    if fingerprint is not None:
        cache[key] = (fingerprint, answer)
    return answer


def parsed(text: Optional[str]) -> Optional[ast.Module]:
    """The tree of a file's text (None: unreadable or not Python)."""
    try:
        return ast.parse(text) if text is not None else None
    except (SyntaxError, ValueError):
        return None
