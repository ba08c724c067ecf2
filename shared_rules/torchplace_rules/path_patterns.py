"""Glob patterns compiled once, matched in time that does not grow with their number.

`extend-exclude`, `per-file-ignores` and the editor's ignore patterns can be
long lists; testing every pattern against every file (`fnmatch` in a loop) made
a check with 100,000 patterns take seconds per file, and one regular expression
of 100,000 alternatives takes minutes to compile.  A `GlobSet` indexes its
patterns instead: patterns without wildcards go into a set (a path is looked
up with each of its leading folders); patterns with wildcards are grouped by
their literal head (the text before the first wildcard), or, when that is
empty, by their literal tail (the text after the last one).  A path is tried
only against the groups whose head starts it or whose tail ends it (a few
dictionary look-ups per character of the path), and each group is compiled
into one regular expression the first time it is needed.  Matching follows
`fnmatch` on POSIX paths (`*` also matches `/`), as the patterns always have.
"""
from __future__ import annotations

import fnmatch
import re
from typing import Iterable, Optional

_WILDCARDS = re.compile(r"[*?\[]")


class _Groups:
    """Patterns filed under a literal key; each group compiled on first use."""

    def __init__(self, folders: bool) -> None:
        self.folders = folders
        self.patterns: dict[str, list[str]] = {}
        self.compiled: dict[str, "re.Pattern[str]"] = {}
        self.lengths: list[int] = []

    def add(self, key: str, pattern: str) -> None:
        self.patterns.setdefault(key, []).append(pattern)

    def freeze(self) -> None:
        self.lengths = sorted({len(k) for k in self.patterns})

    def test(self, key: str, path: str) -> bool:
        regex = self.compiled.get(key)
        if regex is None:
            found = self.patterns.get(key)
            if found is None:
                return False
            regex = self.compiled[key] = _compile(found, self.folders)
        return regex.match(path) is not None


class GlobSet:
    """A set of `fnmatch` patterns over POSIX relative paths.

    With `folders=True` a pattern also matches everything below what it names
    (`vendor` matches `vendor/x.py`), as exclusions do.
    """

    def __init__(self, patterns: Iterable[str], folders: bool = False) -> None:
        self.folders = folders
        self._literal: set[str] = set()
        self._heads = _Groups(folders)
        self._tails = _Groups(folders)
        rest: list[str] = []
        for raw in patterns:
            pattern = raw.rstrip("/") if folders else raw
            if not pattern:
                continue
            wild = list(_WILDCARDS.finditer(pattern))
            if not wild:
                self._literal.add(pattern)
            elif wild[0].start() > 0:
                self._heads.add(pattern[:wild[0].start()], pattern)
            elif not pattern.endswith(("*", "?", "]")):
                self._tails.add(pattern[_tail_start(pattern):], pattern)
            else:
                rest.append(pattern)
        self._heads.freeze()
        self._tails.freeze()
        self._rest: Optional["re.Pattern[str]"] = _compile(rest, folders) if rest else None
        self.empty = not self._literal and not self._heads.patterns and not self._tails.patterns and not rest

    def match(self, path: str) -> bool:
        """Does `path` (POSIX, relative) match a pattern?"""
        if self.empty:
            return False
        if self._literal and self._literal_match(path):
            return True
        for n in self._heads.lengths:
            if n > len(path):
                break
            if self._heads.test(path[:n], path):
                return True
        if self._tails.lengths:
            # A folder pattern may name a folder above the file: try the end of each leading part.
            ends = [m.start() for m in re.finditer("/", path)] + [len(path)] if self.folders else [len(path)]
            for end in ends:
                for n in self._tails.lengths:
                    if n > end:
                        break
                    if self._tails.test(path[end - n:end], path):
                        return True
        return self._rest is not None and self._rest.match(path) is not None

    def _literal_match(self, path: str) -> bool:
        if path in self._literal:
            return True
        if self.folders:
            cut = path.find("/")
            while cut != -1:
                if path[:cut] in self._literal:
                    return True
                cut = path.find("/", cut + 1)
        return False


def _tail_start(pattern: str) -> int:
    """Where the literal text after the last wildcard begins (a `[...]` set is a wildcard)."""
    last = max(pattern.rfind("*"), pattern.rfind("?"))
    close = pattern.rfind("]")
    if close > last and "[" in pattern[:close]:
        last = close
    return last + 1


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

