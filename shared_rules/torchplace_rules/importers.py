"""Which files of the project import a given file (the reverse of `ProjectIndex.resolve`).

A checked file's functions are also analysed for what its importers pass
them (`module_summaries.CallerCache`); this table says who the importers are.
It reads the files of the checked file's folder, of the folders above it and
of the project root's other folders (a regular expression over `import` lines:
no parse), and answers by resolving only the candidates whose imports mention
the file's name, or the name of a package whose `__init__.py` hands its names
on.  In an editor session (files change) it looks at a folder again at most
every few seconds, and re-reads only the files whose fingerprint changed.
"""
from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .flow.cross_file import MAX_STAR_IMPORTS


if TYPE_CHECKING:
    from .project_index import ProjectIndex

MAX_FILES = 2000  # a bigger folder is read only this far
MAX_FILE_BYTES = 400_000
RESCAN_SECONDS = 5.0
MAX_TOP_FOLDERS = 8  # the project root's folders read besides those of the file's own chain
MAX_SUBPACKAGES = 8  # the subpackages read of each of the two nearest folders of the chain
MAX_PACKAGE_HOPS = 2  # packages (`__init__.py`) followed up from a file for the importers of its names

_IMPORT = re.compile(r"[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\(?)([^\n#)]*)|import[ \t]+([^\n#]+))")
_COMMENT = re.compile(r"#[^\n]*")
STATIC = ("static",)  # the fingerprint of a file in a static run (see `_read`)
MAX_NAMES_SPAN = 20_000  # the characters of one `from m import (...)` read for its names


def imports_in(text: str) -> list[tuple[int, str, tuple]]:
    """(level, module, imported names) of each import line of `text` (the lines that say `import`
    are found first; the names of `from m import (` are read up to the `)`, over several lines)."""
    out = []
    end = 0
    find = text.find
    at = find("import")
    while at >= 0:
        if at >= end:  # (a line is read once, whatever it says after)
            start = text.rfind("\n", 0, at) + 1
            end = find("\n", at)
            end = len(text) if end < 0 else end
            m = _IMPORT.match(text, start, end)
            if m is not None:
                level, module, paren, names, plain = m.groups()
                if plain is not None:
                    for part in plain.split(","):
                        name = part.split(" as ")[0].strip()
                        if name:
                            out.append((0, name, ()))
                else:
                    if paren and ")" not in text[m.end(4):end].split("#")[0]:
                        close = find(")", end, end + MAX_NAMES_SPAN)
                        if close > 0:
                            names += "," + _COMMENT.sub("", text[end:close]).replace("\n", ",")
                            end = close
                    out.append((len(level), module, tuple([p.split(" as ")[0].strip() for p in names.split(",") if p.strip()])))
        at = find("import", at + 6)
    return out


_BINDING = re.compile(r"^[ \t]*(?:(?:async[ \t]+)?def|class)[ \t]+(\w+)|^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=(?!=)", re.M)
_STAR = re.compile(r"^[ \t]*from[ \t]+\S+[ \t]+import[ \t]+\*", re.M)


def names_bound_in(text: str) -> tuple[frozenset, int]:
    """(the names `text` may bind at module level, over-approximated: every `def`, `class`, assigned
    name and name on an import line, at any indentation; its number of star imports)."""
    names = {a or b for a, b in _BINDING.findall(text)}
    for _, module, imported in imports_in(text):
        names.update(imported)
        names.add(module.split(".")[0])
    for line in text.split("\n"):
        if " as " in line and "import" in line:
            names.update(re.findall(r"\bas[ \t]+(\w+)", line))
    return frozenset(names), len(_STAR.findall(text))


class ImporterTable:
    """Who imports a file: read from the files of that file's folder, of each folder above it up to
    the project root (where scripts, trainers and the modules of enclosing packages are) and of the
    root's other folders (examples/, scripts/, a sibling package; not their subfolders); each
    folder's files are read once (again when they change, in an editor)."""

    def __init__(self, index: "ProjectIndex", find_root) -> None:
        self.index = index
        self.find_root = find_root  # path -> the project root above it (None: none)
        self.folders: dict[Path, tuple] = {}  # folder -> (read at, {file name: entry}, {token: file names}) (see `_read`)
        self.answers: dict[Path, tuple] = {}  # static runs: file -> (its importers, packages handing on its names)
        self.chains: dict[Path, list] = {}  # folder -> the folders read for a file in it
        self.packages: dict[Path, list] = {}  # folder -> its subpackages' names (`_subpackages`), kept as `chains`
        self.tables: dict[Path, list] = {}  # static runs: folder -> [(folder read, its entries, its tokens)] of `chains`
        # file -> (fingerprint, `names_bound_in` its text (None, None until asked), may it set torch's default device)
        self.bindings: dict[Path, tuple] = {}

    def may_bind(self, path: Path, name: str) -> bool:
        """Can the module `path` bind `name`, itself or through a star import the summaries follow
        (a cheap look at its text before summarising it)?"""
        known = self._bindings(path)
        return name in known[1] or 0 < known[2] <= MAX_STAR_IMPORTS

    def names_of(self, path: Path) -> frozenset:
        """The names the module `path` may bind itself (`names_bound_in`)."""
        return self._bindings(path)[1]

    def sets_default_device(self, path: Path) -> bool:
        """May the module `path` change torch's default device when it runs (its text names
        `set_default_tensor_type` or `set_default_device`)?  Asked for every import of a project module:
        a look at the text, kept while the file keeps its fingerprint (its names are not read for it)."""
        return self._bindings(path, False)[3]

    def _bindings(self, path: Path, names: bool = True) -> tuple:
        """(fingerprint, names, star imports, sets the default device) of the module's text, read once
        while the file keeps its fingerprint.  Names and star imports are None until `names` asks for them
        (`names_bound_in` of a large module costs; most imported modules are only asked about the default)."""
        known = self.bindings.get(path)
        if known is not None and self.index.static and (known[1] is not None or not names):
            return known  # (files do not change in a static run: no `stat`)
        with self.index.lock:
            fingerprint = self.index.fingerprint(path)
            if known is None or known[0] != fingerprint or (names and known[1] is None):
                text = self.index.read(path) if fingerprint is not None else None
                if text is None:
                    known = (fingerprint, frozenset(), 0, False)
                else:
                    known = (fingerprint, *(names_bound_in(text) if names else (None, None)),
                             "set_default_tensor_type" in text or "set_default_device" in text)
                self.bindings[path] = known
            return known

    def importers_of(self, path: Path) -> list[Path]:
        """The files that import `path`, nearest first (kept for the whole run when files do not change)."""
        return self._answer(path)[0]

    def reexports_of(self, path: Path) -> dict:
        """{a package's `__init__.py` that hands on names of `path`: those names ("*": any)}: it imports
        them from `path` or, in turn, from such a package (`from .knn import KNN`, `from .agent import *`)."""
        return self._answer(path)[1]

    def _answer(self, path: Path) -> tuple:
        with self.index.lock:
            known = self.answers.get(path) if self.index.static else None
            if known is None:
                known = self.answers[path] = self._importers_of(path)
            return known

    def _importers_of(self, path: Path) -> tuple[list, dict]:
        """(importers, {package: names handed on}): the files that import `path`, and those that import
        one of its names through the packages that hand them on, up to MAX_PACKAGE_HOPS packages up
        (the packages themselves are analysed only where they import `path` directly, as before)."""
        direct: dict = {}

        def importers(source: Path) -> list:
            if source not in direct:
                direct[source] = self._direct_importers(source)
            return direct[source]

        found = list(importers(path))
        handed_on: dict = {}
        layer: dict = {path: None}
        for _ in range(MAX_PACKAGE_HOPS):
            packages: dict = {}
            for source, names in layer.items():
                for importer in importers(source):
                    if self._hands_on(importer) and importer not in handed_on and importer != path:
                        given = self._bound_names(importer, source, names)
                        if given:
                            handed_on[importer] = packages[importer] = given
            for package, names in packages.items():
                for importer in importers(package):
                    if importer.name != "__init__.py" and importer != path and importer not in found \
                            and self._bound_names(importer, package, names):
                        found.append(importer)
            layer = packages
        found.sort(key=_distance_key(path))
        return found, handed_on

    def _hands_on(self, path: Path) -> bool:
        """Is `path` a package's `__init__.py` whose names the summaries follow to where they are
        defined (not an index of many packages: see `cross_file.reexported`)?"""
        if path.name != "__init__.py":
            return False
        return self._entry(path)[4] <= MAX_STAR_IMPORTS

    def _bound_names(self, importer: Path, source: Path, handed_on) -> set:
        """The names the import lines of `importer` bind to what `source` defines (`handed_on` None)
        or to the names it hands on (a set; "*": any)."""
        out: set = set()
        stem = _stem(source)
        for level, module, imported in self._entry(importer)[1]:
            if module and module.rpartition(".")[2] != stem and stem not in imported:
                continue
            if self.index.resolve(importer, module or None, level) == source:
                if not imported:  # `import a.b` binds `a`
                    out.add(module.split(".")[0])
                elif handed_on is None:
                    out.update(imported)
                elif "*" in imported:
                    out.update(handed_on)
                else:
                    out.update(n for n in imported if n in handed_on or "*" in handed_on)
            elif stem in imported and self.index.resolve(importer, f"{module}.{stem}" if module else stem, level) == source:
                out.add(stem)  # `from pkg import module`
        return out

    def _entry(self, path: Path) -> tuple:
        entries, _ = self._read(path.parent)
        return entries.get(path.name, (None, [], 0, set(), 0))

    def _direct_importers(self, path: Path) -> list[Path]:
        found = []
        stem = _stem(path)
        static = self.index.static
        for folder, entries, by_token in self._tables_for(path):
            candidates = by_token.get(stem)
            if not candidates:
                continue
            # what an import line of this folder's files imports depends on the folder only (in a
            # static run): the files of a package that all say `from .utils import f` resolve it once,
            # and files with the same import lines get the same answer
            answers: Optional[dict] = {} if static else None
            same: Optional[dict] = {} if static else None
            base = os.fspath(folder)
            for name in candidates:
                imports = entries[name][1]
                hit = same.get(imports) if same is not None else None
                if hit is None:
                    hit = self._imports(base, name, imports, path, stem, answers)
                    if same is not None:
                        same[imports] = hit
                if hit:
                    candidate = folder / name  # (a Path only for the files that import it)
                    if candidate != path:
                        found.append(candidate)
        return found

    def line_count(self, path: Path) -> int:
        entry = self.folders.get(path.parent, (0, {}, {}))[1].get(path.name)
        return entry[2] if entry is not None else 0

    def _imports(self, folder: str, name: str, imports: list, target: Path, stem: str, answers: Optional[dict]) -> bool:
        """Does an import line of the file `name` of `folder` import `target` (`stem`: its name)?
        `answers`: what the lines of that folder's files were found to import,
        {(module, level): imports target} (None: not kept)."""
        importer = None
        for level, module, names in imports:
            if module and module.rpartition(".")[2] != stem and stem not in names:
                continue  # (a line that does not name the file cannot import it)
            key = (module, level, stem in names)
            hit = answers.get(key) if answers is not None else None
            if hit is None:
                if importer is None:
                    importer = os.path.join(folder, name)  # (resolve reads its folder: a string does)
                hit = self.index.resolve(importer, module or None, level) == target or stem in names and \
                    self.index.resolve(importer, f"{module}.{stem}" if module else stem, level) == target  # `from pkg import module`
                if answers is not None:
                    answers[key] = hit
            if hit:
                return True
        return False

    def _tables_for(self, path: Path) -> list[tuple]:
        """[(folder, its entries, its files by token)] of `_folders_for(path)`, kept per folder in a
        static run (a folder is read once there: `_read` gives the same tables each time)."""
        if not self.index.static:
            return [(folder, *self._read(folder)) for folder in self._folders_for(path)]
        key = path.parent
        known = self.tables.get(key)
        if known is None:
            known = self.tables[key] = [(folder, *self._read(folder)) for folder in self._folders_for(path)]
        return known

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
        return out + _subpackages(root, out, self.packages) + _top_folders(root, out)

    def _read(self, folder: Path) -> tuple:
        """({file name: (fingerprint, imports, lines, tokens, star imports)}, {token: [file name]}) of the
        folder's files (keyed by name: a Path per file costs more than reading its import lines)."""
        known = self.folders.get(folder)
        if known is not None and self.index.static:
            return known[1], known[2]
        now = time.monotonic()
        if known is not None and now - known[0] < RESCAN_SECONDS:
            return known[1], known[2]
        old = known[1] if known is not None else {}
        entries = {}
        try:
            names = sorted(e.name for e in os.scandir(folder) if e.name.endswith(".py") and e.is_file())
        except OSError:
            names = []
        index = self.index
        base = os.fspath(folder)
        for name in names[:MAX_FILES]:
            # (no editor text: the disk's file, named by a string)
            path = os.path.join(base, name) if not index.overlays else folder / name
            # a static run reads a folder once and never compares versions: the read says if it is there
            fingerprint = index.fingerprint(path) if not index.static else STATIC
            entry = old.get(name)
            if entry is None or entry[0] != fingerprint:
                text = index.read(path) if fingerprint is not None else None
                if text is None or len(text) > MAX_FILE_BYTES:
                    continue
                imports = tuple(imports_in(text))  # (a tuple: `_direct_importers` answers equal lines once)
                tokens = {t for _, module, names_ in imports for t in (module.rsplit(".", 1)[-1], module.split(".", 1)[0], *names_) if t}
                entry = (fingerprint, imports, text.count("\n") + 1, tokens, sum(1 for i in imports if i[2] == ("*",)))
            entries[name] = entry
        by_token: dict = {}
        for name, entry in entries.items():
            for token in entry[3]:
                by_token.setdefault(token, []).append(name)
        self.folders[folder] = (now, entries, by_token)
        return entries, by_token


def _subpackages(root: Path, chain: list, packages: dict) -> list[Path]:
    """The subpackages (folders with an `__init__.py`, private ones too) of the file's folder and of
    the one above it, below the project root and not in `chain`: a package's modules are often used
    from its own subpackages (pkg/_trainers/trainer.py calling a helper of pkg/_utils.py, or of a
    sibling subpackage), which neither the folders above the file nor the root's hold.  In name
    order, at most MAX_SUBPACKAGES of each.  `packages`: each folder's subpackage names, listed once
    (the files of one folder share the folder above: a package of 400 models is not listed per file)."""
    out: list = []
    for folder in chain[:2]:
        if folder == root or root not in folder.parents:
            break
        names = packages.get(folder)
        if names is None:
            try:
                names = sorted(e.name for e in os.scandir(folder) if e.is_dir() and e.name[0] != "."
                               and os.path.isfile(os.path.join(e.path, "__init__.py")))
            except OSError:
                names = []
            packages[folder] = names
        out += [folder / name for name in names if folder / name not in chain][:MAX_SUBPACKAGES]
    return out


def _top_folders(root: Path, chain: list) -> list[Path]:
    """The project root's folders that are not in `chain` (scripts/, examples/, a sibling package:
    where the code that uses a package usually is), in name order, at most MAX_TOP_FOLDERS."""
    if root not in chain:
        return []
    try:
        names = sorted(e.name for e in os.scandir(root) if e.is_dir() and e.name[0] not in "._")
    except OSError:
        return []
    return [root / name for name in names if root / name not in chain][:MAX_TOP_FOLDERS]


def _stem(path: Path) -> str:
    """The name other files import `path` by."""
    return path.parent.name if path.name == "__init__.py" else path.stem


def _distance_key(target: Path):
    """The sort key of an importer of `target`: (its distance from `target`, its path); the
    distance is worked out once per folder."""
    known: dict = {}

    def key(importer: Path) -> tuple:
        text = str(importer)
        folder = text.rpartition(os.sep)[0]
        distance = known.get(folder)
        if distance is None:
            distance = known[folder] = _distance(importer, target)
        return distance, text
    return key


def _distance(a: Path, b: Path) -> int:
    common = len(os.path.commonpath([a.parent, b.parent]).split(os.sep))
    return len(a.parent.parts) + len(b.parent.parts) - 2 * common
