"""Which files of the project import a given file (the reverse of `ProjectIndex.resolve`).

A checked file's functions are also analysed for what its importers pass
them (`module_summaries.CallerCache`); this table says who the importers are.
It reads the files of the checked file's folder and of the folders above it
(a regular expression over `import` lines: no parse), and answers by resolving
only the candidates whose imports mention the file's name.  In an editor
session (files change) it looks at a folder again at most every few seconds,
and re-reads only the files whose fingerprint changed.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    from .project_index import ProjectIndex

MAX_FILES = 2000  # a bigger folder is read only this far
MAX_FILE_BYTES = 400_000
RESCAN_SECONDS = 5.0

_IMPORT = re.compile(r"[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+\(?([^\n#)]*)|import[ \t]+([^\n#]+))")


def imports_in(text: str) -> list[tuple[int, str, tuple]]:
    """(level, module, imported names) of each import line of `text` (the pattern is tried only
    on the lines that say `import`)."""
    out = []
    for line in text.split("\n"):
        m = _IMPORT.match(line) if "import" in line else None
        if m is None:
            continue
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
    """Who imports a file: read from the files of that file's folder and of each folder above it up to
    the project root (where scripts, trainers and the modules of enclosing packages are), not from
    sibling packages; each folder's files are read once (again when they change, in an editor)."""

    def __init__(self, index: "ProjectIndex", find_root) -> None:
        self.index = index
        self.find_root = find_root  # path -> the project root above it (None: none)
        self.folders: dict[Path, tuple] = {}  # folder -> (read at, {file: entry}, {token: files}) (see `_read`)
        self.answers: dict[Path, list] = {}  # static runs: file -> its importers
        self.chains: dict[Path, list] = {}  # folder -> the folders read for a file in it

    def importers_of(self, path: Path) -> list[Path]:
        """The files that import `path`, nearest first (kept for the whole run when files do not change)."""
        with self.index.lock:
            known = self.answers.get(path) if self.index.static else None
            if known is None:
                known = self.answers[path] = self._importers_of(path)
            return known

    def _importers_of(self, path: Path) -> list[Path]:
        name = path.parent.name if path.name == "__init__.py" else path.stem
        found = []
        for folder in self._folders_for(path):
            entries, by_token = self._read(folder)
            for candidate in by_token.get(name, ()):
                if candidate != path and self._imports(candidate, entries[candidate][1], path):
                    found.append(candidate)
        found.sort(key=lambda p: (_distance(p, path), str(p)))
        return found

    def line_count(self, path: Path) -> int:
        entry = self.folders.get(path.parent, (0, {}, {}))[1].get(path)
        return entry[2] if entry is not None else 0

    def _imports(self, importer: Path, imports: list, target: Path) -> bool:
        for level, module, names in imports:
            if self.index.resolve(importer, module or None, level) == target:
                return True
            for name in names:
                full = f"{module}.{name}" if module else name
                if name != "*" and self.index.resolve(importer, full, level) == target:
                    return True
        return False

    def _folders_for(self, path: Path) -> list[Path]:
        """The file's folder and the folders above it up to the project root (outside any project:
        the file's folder only).  Kept per folder."""
        known = self.chains.get(path.parent)
        if known is None:
            known = self.chains[path.parent] = self._chain(path)
        return known

    def _chain(self, path: Path) -> list[Path]:
        root = self.index.root if self.index.root is not None and self.index.root in path.parents else self.find_root(path)
        if root is None:
            return [path.parent]
        out = [path.parent]
        for parent in path.parent.parents:
            if len(out) > 8 or not (parent == root or root in parent.parents):
                break
            out.append(parent)
        return out

    def _read(self, folder: Path) -> tuple:
        """({file: (fingerprint, imports, lines, tokens)}, {token: [file]}) of the folder's files."""
        now = time.monotonic()
        known = self.folders.get(folder)
        if known is not None and (self.index.static or now - known[0] < RESCAN_SECONDS):
            return known[1], known[2]
        old = known[1] if known is not None else {}
        entries = {}
        try:
            names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".py") and e.is_file())
        except OSError:
            names = []
        for name in names[:MAX_FILES]:
            path = folder / name
            fingerprint = self.index.fingerprint(path)
            entry = old.get(path)
            if entry is None or entry[0] != fingerprint:
                text = self.index.read(path) if fingerprint is not None else None
                if text is None or len(text) > MAX_FILE_BYTES:
                    continue
                imports = imports_in(text)
                tokens = {t for _, module, names_ in imports for t in (module.rsplit(".", 1)[-1], module.split(".", 1)[0], *names_) if t}
                entry = (fingerprint, imports, text.count("\n") + 1, tokens)
            entries[path] = entry
        by_token: dict = {}
        for path, entry in entries.items():
            for token in entry[3]:
                by_token.setdefault(token, []).append(path)
        self.folders[folder] = (now, entries, by_token)
        return entries, by_token


def _distance(a: Path, b: Path) -> int:
    common = len(os.path.commonpath([a.parent, b.parent]).split(os.sep))
    return len(a.parent.parts) + len(b.parent.parts) - 2 * common
