"""One `ast.parse` at a time on Python 3.11.

CPython 3.11 keeps the counter its AST-to-object conversion checks in state
shared by all threads; when two threads convert a tree at once (a finalizer run
by the collector lets the other thread in), one of them fails with
`SystemError: AST constructor recursion depth mismatch`.  The server checks
documents on several threads, so a busy moment lost a whole analysis.
Reproduced with three threads on 3.11.7 (20 failures in 120 parses); none on
3.10, 3.12 or 3.13, and none on 3.11 with parsing serialised, which is what
`install()` does for this process only.
"""
from __future__ import annotations

import ast
import sys
import threading

_lock = threading.Lock()
_parse = ast.parse


def _serialised_parse(*args, **kwargs):
    with _lock:
        return _parse(*args, **kwargs)


def install() -> None:
    if (3, 11) <= sys.version_info[:2] < (3, 12) and ast.parse is _parse:
        ast.parse = _serialised_parse
