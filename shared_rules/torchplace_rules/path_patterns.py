"""Glob patterns compiled once, matched in time that does not grow with their number.

`extend-exclude`, `per-file-ignores` and the editor's ignore patterns can be
long lists; testing every pattern against every file (`fnmatch` in a loop) made
a check with 100,000 patterns take seconds per file.  A `GlobSet` sorts its
patterns once: patterns without wildcards go into a set (a path is looked up
with each of its leading folders, so the cost is the path's depth); patterns
with wildcards are grouped by their first path component when that is literal
(only the group of the path's first component is tried) and each group is one
compiled regular expression.  Matching follows `fnmatch` on POSIX paths (`*`
also matches `/`), as the patterns always have.
"""
from __future__ import annotations

import fnmatch
import re
from typing import Iterable

_WILDCARDS = re.compile(r"[*?\[]")
_ANY = ""  # group key of patterns whose first component has a wildcard


class GlobSet:
    """A set of `fnmatch` patterns over POSIX relative paths.

    With `folders=True` a pattern also matches everything below what it names
    (`vendor` matches `vendor/x.py`), as exclusions do.
    """

    def __init__(self, patterns: Iterable[str], folders: bool = False) -> None:
        self.folders = folders
        self._literal: set[str] = set()
        grouped: dict[str, list[str]] = {}
        for raw in patterns:
            pattern = raw.rstrip("/") if folders else raw
            if not pattern:
                continue
            if not _WILDCARDS.search(pattern):
                self._literal.add(pattern)
                continue
            first = pattern.split("/", 1)[0]
            key = _ANY if _WILDCARDS.search(first) else first
            grouped.setdefault(key, []).append(pattern)
        self._groups = {key: _compile(pats, folders) for key, pats in grouped.items()}
        self.empty = not self._literal and not self._groups

    def match(self, path: str) -> bool:
        """Does `path` (POSIX, relative) match a pattern?"""
        if self.empty:
            return False
        if self._literal:
            if path in self._literal:
                return True
            if self.folders:
                cut = path.find("/")
                while cut != -1:
                    if path[:cut] in self._literal:
                        return True
                    cut = path.find("/", cut + 1)
        for key in (path.split("/", 1)[0], _ANY):
            regex = self._groups.get(key)
            if regex is not None and regex.match(path):
                return True
        return False


def _compile(patterns: list[str], folders: bool) -> "re.Pattern[str]":
    # fnmatch.translate gives `(?s:...)\Z`; the folder form also takes what lies below.
    suffix = r"(?:/.*)?\Z" if folders else r"\Z"
    parts = [fnmatch.translate(p)[:-2] for p in patterns]  # drop the `\Z`
    return re.compile("(?:" + "|".join(parts) + ")" + suffix, re.DOTALL)


class GlobTable:
    """Patterns mapped to values (per-file-ignores: pattern -> codes); `values_for`
    gives the values of every pattern that matches a path or its file name."""

    def __init__(self, table: dict[str, frozenset[str]]) -> None:
        by_value: dict[frozenset[str], list[str]] = {}
        for pattern, value in table.items():
            by_value.setdefault(value, []).append(pattern)
        self._sets = [(GlobSet(patterns), value) for value, patterns in by_value.items()]
        self._cache: dict[str, frozenset[str]] = {}

    def values_for(self, path: str) -> frozenset[str]:
        found = self._cache.get(path)
        if found is None:
            name = path.rsplit("/", 1)[-1]
            found = frozenset().union(*(v for s, v in self._sets if s.match(path) or s.match(name)))
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[path] = found
        return found

