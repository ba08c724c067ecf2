"""Where a tensor got its device: the user's line that created it, moved it, or stored it.

Why: a device error is raised where two tensors meet, but the fix belongs where one
of them was made, moved (or not: `x.to(device)` whose copy nobody kept), or stored
as a plain module attribute that `Module.to()` does not move.  These records are
kept only while origins are tracked (probes, `torchplace run`, `pytest
--simulate-gpu`), and `root_cause()` turns them into the report.
"""
from __future__ import annotations

import ast
import linecache
import os
import sys
import weakref
from typing import Any, Optional

import torch

from .sim_state import MARK, SimInfo, mark

TRACK = {"origins": False, "user_filter": None}
ATTR = "_tp_attr"  # on a tensor held where Module.to() cannot see it: (owner type, attribute, file, line)
# SimInfo of a tensor that was moved -> (filename, line, target device, weakref to the copy, copy's SimInfo)
MOVES: "weakref.WeakKeyDictionary[SimInfo, tuple]" = weakref.WeakKeyDictionary()
# the same, keyed by the moved tensor itself (tensors that share a SimInfo, such as two batches
# collated from one dataset tensor, each keep their own last move)
# (id(tensor) -> (weakref, entry): tensors compare elementwise, so they cannot be WeakKeyDictionary keys)
MOVED_TENSORS: dict = {}
_SKIP_PREFIXES: tuple = ()
_STATEMENTS: dict = {}  # filename -> (source size, {line: first line of its statement})


def _skip_prefixes() -> tuple:
    global _SKIP_PREFIXES
    if not _SKIP_PREFIXES:
        roots = {os.path.dirname(torch.__file__), os.path.dirname(os.path.abspath(__file__)),
                 os.path.dirname(os.__file__)}
        _SKIP_PREFIXES = tuple(sorted(roots))
    return _SKIP_PREFIXES


def statement_line(filename: str, line: int) -> int:
    """The first line of the statement that holds `line` (a multi-line call or list literal
    reports the line of its sub-expression; the statement is what a person reads and fixes)."""
    lines = linecache.getlines(filename)
    if not lines:
        return line
    size = sum(len(text) for text in lines)
    cached = _STATEMENTS.get(filename)
    if cached is None or cached[0] != size:
        table: dict = {}
        try:
            tree = ast.parse("".join(lines))
        except (SyntaxError, ValueError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.stmt):
                body_start = min((child.lineno for field in ("body", "orelse", "finalbody", "handlers")
                                  for child in getattr(node, field, []) or []), default=node.end_lineno + 1)
                last = node.end_lineno if body_start > node.end_lineno else body_start - 1
                for n in range(node.lineno, last + 1):
                    if n not in table or table[n] < node.lineno:
                        table[n] = node.lineno
        cached = _STATEMENTS[filename] = (size, table)
    return cached[1].get(line, line)


def user_location(kind: str) -> Optional[tuple]:
    """(filename, line, kind) of the innermost frame of the user's own code, when origins are tracked."""
    if not TRACK["origins"]:
        return None
    frame = sys._getframe(1)
    skip = _skip_prefixes()
    wanted = TRACK["user_filter"]
    while frame is not None:
        name = frame.f_code.co_filename
        if not name.startswith(skip) and "site-packages" not in name and "<frozen" not in name:
            if wanted is None or wanted(name):
                return (name, statement_line(name, frame.f_lineno), kind)
        frame = frame.f_back
    return None


def note_move(source: torch.Tensor, origin: Optional[tuple], target: torch.device, copy: Any = None,
              copy_info: Optional[SimInfo] = None) -> None:
    """Remember that `source` was moved on this line.  If the copy was dropped at once (the
    `x.to(device)` statement whose result nobody kept) and `source` later meets the target
    device, that move is the root cause."""
    if origin is None:
        return
    info = getattr(source, MARK, None)
    if info is None:
        mark(source, SimInfo(None, None))
        info = getattr(source, MARK, None)
        if info is None:
            return
    try:
        kept = weakref.ref(copy) if copy is not None else None
    except TypeError:
        kept = None
    entry = (origin[0], origin[1], str(target), kept, copy_info)
    MOVES[info] = entry
    key = id(source)
    try:
        MOVED_TENSORS[key] = (weakref.ref(source, lambda _ref, key=key: MOVED_TENSORS.pop(key, None)), entry)
    except TypeError:
        pass


def discarded_move(t: torch.Tensor, info: Optional[SimInfo]) -> Optional[tuple]:
    """(filename, line, target) of a move of this tensor (or of the tensor it views or shares its
    origin with) whose copy no longer exists."""
    entry = None
    for candidate in (t, getattr(t, "_base", None)):
        record = MOVED_TENSORS.get(id(candidate)) if candidate is not None else None
        if entry is None and record is not None and record[0]() is candidate:
            entry = record[1]
    if entry is None and info is not None:
        entry = MOVES.get(info)
    if entry is None or entry[3] is None or entry[3]() is not None:
        return None
    return entry[:3]


def dropped_moves(filename: str) -> dict:
    """line -> how many moves on that line of `filename` made a copy that no op ever read and
    that no longer exists (an `x.to(device)` statement whose result nobody kept)."""
    counts: dict = {}
    for name, line, _target, kept, copy_info in list(MOVES.values()):
        if name == filename and kept is not None and kept() is None and copy_info is not None \
                and not copy_info.used:
            counts[line] = counts.get(line, 0) + 1
    return counts


def forget_moves(filename: str) -> None:
    for info, entry in list(MOVES.items()):
        if entry[0] == filename:
            MOVES.pop(info, None)
    for key, (_ref, entry) in list(MOVED_TENSORS.items()):
        if entry[0] == filename:
            MOVED_TENSORS.pop(key, None)


def _note_hidden(owner: Any, name: str, value: Any, site: tuple) -> None:
    """Tensors `Module.to()` will not move: a plain tensor attribute, or the parameters and buffers
    of modules kept in a plain list, tuple or dict (not a ModuleList / ModuleDict)."""
    record = (type(owner).__name__, name, site[0], site[1])
    if isinstance(value, torch.Tensor) and not isinstance(value, torch.nn.Parameter):
        _set_attr(value, record)
        return
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    for item in items:
        if isinstance(item, torch.nn.Module):
            for t in list(item.parameters()) + list(item.buffers()):
                _set_attr(t, record)
        elif isinstance(item, torch.Tensor):
            _set_attr(item, record)


def _set_attr(t: torch.Tensor, record: tuple) -> None:
    try:
        object.__setattr__(t, ATTR, record)
    except (AttributeError, TypeError):
        pass


def tracking_setattr(original):
    """nn.Module.__setattr__ that also remembers where hidden tensors were stored."""
    def __setattr__(self, name, value):
        original(self, name, value)
        if isinstance(value, (torch.Tensor, list, tuple, dict)) and not isinstance(value, torch.nn.Parameter) \
                and name not in self.__dict__.get("_buffers", {}):
            site = user_location("assigned")
            if site is not None:
                _note_hidden(self, name, value, site)
    return __setattr__


def hidden_attribute(t: torch.Tensor) -> Optional[tuple]:
    """(owner type, attribute, file, line) when `t` (or the tensor it views) is held where
    Module.to() cannot see it."""
    record = getattr(t, ATTR, None)
    base = getattr(t, "_base", None)
    if record is None and base is not None:
        record = getattr(base, ATTR, None)
    return record
