"""Which files of the project import a given file (the reverse of `ProjectIndex.resolve`).

A checked file's functions are also analysed for what its importers pass
them (`module_summaries.CallerCache`); this table says who the importers are.
It reads the project's files once, keeps the module names each one imports
(a regular expression over `import` lines: no parse), and answers by
resolving only the candidates whose imports mention the file's name.  In an
editor session (files change) it looks again at most every few seconds, and
re-reads only the files whose fingerprint changed.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .files import ALWAYS_SKIPPED

if TYPE_CHECKING:
    from .project_index import ProjectIndex

MAX_FILES = 5000  # a bigger tree is read only this far
MAX_FILE_BYTES = 400_000
RESCAN_SECONDS = 5.0

_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([^\n#)]*)|import[ \t]+([^\n#]+))", re.M)


def imports_in(text: str) -> list[tuple[int, str, tuple]]:
    """(level, module, imported names) of each import line of `text`."""
    out = []
    for m in _IMPORT.finditer(text):
        if m.group(4) is not None:
            for part in m.group(4).split(","):
                name = part.split(" as ")[0].strip()
                if name:
                    out.append((0, name, ()))
        else:
            names = tuple(p.split(" as ")[0].strip() for p in m.group(3).split(",") if p.strip())
            out.append((len(m.group(1)), m.group(2), names))
    return out


class ImporterTable:
    """module name -> files whose import lines mention it, for one project tree."""

    def __init__(self, index: "ProjectIndex", find_root) -> None:
        self.index = index
        self.find_root = find_root  # path -> the project root above it (None: none)
        self.root: Optional[Path] = None
        self.files: dict[Path, tuple] = {}  # file -> (fingerprint, imports, lines)
        self.by_name: dict[str, set] = {}
        self.scanned_at = -1.0

    def importers_of(self, path: Path) -> list[Path]:
        """The files that import `path`, nearest first."""
        with self.index.lock:
            self._refresh(self._root_for(path))
            name = path.parent.name if path.name == "__init__.py" else path.stem
            found = [c for c in self.by_name.get(name, ()) if c != path and self._imports(c, path)]
            found.sort(key=lambda p: (_distance(p, path), str(p)))
            return found

    def line_count(self, path: Path) -> int:
        known = self.files.get(path)
        return known[2] if known is not None else 0

    def _imports(self, importer: Path, target: Path) -> bool:
        for level, module, names in self.files[importer][1]:
            if self.index.resolve(importer, module or None, level) == target:
                return True
            for name in names:
                full = f"{module}.{name}" if module else name
                if name != "*" and self.index.resolve(importer, full, level) == target:
                    return True
        return False

    def _root_for(self, path: Path) -> tuple[Path, bool]:
        """(the tree to read, whether to read its subfolders): the project's tree, or outside any
        project only the file's own folder."""
        from_index = self.index.root
        if from_index is not None and (path == from_index or from_index in path.parents):
            return from_index, True
        root = self.find_root(path)
        return (root, True) if root is not None else (path.parent, False)

    def _refresh(self, where: tuple[Path, bool]) -> None:
        root, deep = where
        now = time.monotonic()
        if root == self.root and (self.index.static or now - self.scanned_at < RESCAN_SECONDS):
            return
        if root != self.root:
            self.root, self.files, self.by_name = root, {}, {}
        self.scanned_at = now
        seen = set()
        for path in _python_files(root, deep):
            seen.add(path)
            fingerprint = self.index.fingerprint(path)
            known = self.files.get(path)
            if known is not None and known[0] == fingerprint:
                continue
            text = self.index.read(path) if fingerprint is not None else None
            if text is None or len(text) > MAX_FILE_BYTES:
                continue
            if known is not None:
                self._forget(path)
            imports = imports_in(text)
            self.files[path] = (fingerprint, imports, text.count("\n") + 1)
            for _level, module, names in imports:
                for token in {module.rsplit(".", 1)[-1], module.split(".", 1)[0], *names}:
                    if token:
                        self.by_name.setdefault(token, set()).add(path)
        for gone in set(self.files) - seen:
            self._forget(gone)
            del self.files[gone]

    def _forget(self, path: Path) -> None:
        for files in self.by_name.values():
            files.discard(path)


def _python_files(root: Path, deep: bool):
    count = 0
    for folder, dirs, files in os.walk(root):
        if not deep:
            dirs[:] = []
        dirs[:] = sorted(d for d in dirs if d not in ALWAYS_SKIPPED and not d.startswith(".") and not d.endswith(".egg-info"))
        for name in sorted(files):
            if name.endswith(".py"):
                count += 1
                if count > MAX_FILES:
                    return
                yield Path(folder, name)


def _distance(a: Path, b: Path) -> int:
    common = len(os.path.commonpath([a.parent, b.parent]).split(os.sep))
    return len(a.parent.parts) + len(b.parent.parts) - 2 * common
