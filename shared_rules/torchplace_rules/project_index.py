"""Where a project's own imports live: module names to files, and file texts.

`ProjectIndex` is what `check_source(..., project=...)` receives.  It resolves
`import config`, `from models.net import Net` and `from .net import Net` to the
project's files the way Python would find them when the code runs from the
project (the project root, `src/`, the importing file's folder and its parents
for flat layouts, extra roots like sys.path), reads them (unsaved editor text
first), and hands them to `module_summaries` to be analysed once.  Nothing here
raises on user input: an import it cannot place is simply unknown.
"""
from __future__ import annotations

import errno
import os
import stat
import threading
from pathlib import Path
from typing import Iterable, Optional

from .config import DEFAULT_MAX_FILE_SIZE
from .importers import ImporterTable
from .module_summaries import CallerCache, SummaryCache
from .source_files import UnreadableFile, read_source
from .third_party_classes import ThirdPartyClasses

_UNSET = object()
PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
MAX_PARENT_ROOTS = 6  # flat layouts: how far up from the importing file to look without a project root


def find_project_root(path: os.PathLike | str) -> Optional[Path]:
    """The nearest folder at or above `path` with pyproject.toml, setup.py, setup.cfg or .git."""
    here = Path(path).resolve()
    if not here.is_dir():
        here = here.parent
    for folder in (here, *here.parents):
        if any((folder / marker).exists() for marker in PROJECT_MARKERS):
            return folder
    return None


class ProjectIndex:
    """Module resolution, file texts and the summary cache of one workspace."""

    def __init__(self, root: Optional[os.PathLike | str] = None, extra_roots: Iterable[os.PathLike | str] = (),
                 environment: Optional[str] = None, use_jedi: bool = True, max_summaries: int = 3000,
                 static: bool = False, named_roots: Iterable[os.PathLike | str] = ()) -> None:
        self.root = Path(root).resolve() if root else None
        # folders the user named (`torchplace check DIR`), deepest first: the project root of a
        # file with no marker at or above it (see `project_root`)
        self.named_roots = tuple(sorted({Path(r).resolve() for r in named_roots}, key=lambda p: -len(p.parts)))
        self.extra_roots = tuple(Path(r).resolve() for r in extra_roots)
        self.overlays: dict[Path, str] = {}
        self._overlay_fingerprints: dict[Path, tuple] = {}  # hashed once: asked for on every lookup
        self.static = static  # files do not change while this index lives (a CLI run): skip re-validation
        self.lock = threading.RLock()
        self.summaries = SummaryCache(self, max_summaries)
        self.callers = CallerCache(self, max(16, max_summaries // 10))  # what importers pass a file's functions
        self.importers = ImporterTable(self, self.project_root)
        self.third_party = ThirdPartyClasses(self.root, environment, enabled=use_jedi, extra_paths=self.extra_roots)
        # checked file -> {project file it read: fingerprint}, transitively (not in a static run)
        self.dependencies: dict[Path, dict] = {}
        self._roots: dict[Path, tuple[Path, ...]] = {}
        self._resolved: dict[tuple, Optional[Path]] = {}  # static runs: (folder, module, level) -> file
        self._real_dirs: dict[str, Path] = {}  # static runs: folder -> its real path
        self._real_files: dict[str, Path] = {}  # static runs: absolute path as given -> `real_file`
        self._files: dict[str, bool] = {}  # static runs: candidate module file -> is it a file
        self._in_folder: dict[tuple, Optional[Path]] = {}  # static runs: (folder, module) -> its file there
        self._project_roots: dict = {}  # static runs: path as given, and each real folder -> its marked root
        self._named_roots_of: dict = {}  # static runs: path as given -> `_named_root`

    # -- texts -------------------------------------------------------------------
    def set_overlay(self, path: os.PathLike | str, text: str) -> None:
        """Unsaved editor text for `path`: used instead of the disk until dropped."""
        resolved = Path(path).resolve()
        import hashlib  # (here: its import loads OpenSSL, which a `torchplace check` run never needs)

        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).digest()
        with self.lock:
            self.overlays[resolved] = text
            self._overlay_fingerprints[resolved] = ("text", digest)

    def drop_overlay(self, path: os.PathLike | str) -> None:
        resolved = Path(path).resolve()
        with self.lock:
            self.overlays.pop(resolved, None)
            self._overlay_fingerprints.pop(resolved, None)

    def fingerprint(self, path: Path | str) -> Optional[tuple]:
        """What identifies this version of the file (None: it is gone)."""
        known = self._overlay_fingerprints.get(path)
        if known is not None:
            return known
        try:
            st = os.stat(path)  # (`path.stat()`; `path` may be a string)
        except OSError:
            return None
        return ("disk", st.st_mtime_ns, st.st_size)

    def read(self, path: Path) -> Optional[str]:
        text = self.overlays.get(path)
        if text is not None:
            return text
        try:  # regular files of sane size only, decoded as Python decodes them
            return read_source(path, DEFAULT_MAX_FILE_SIZE).text
        except UnreadableFile:
            return None

    # -- resolution --------------------------------------------------------------
    def search_roots(self, importer: Optional[Path]) -> tuple[Path, ...]:
        """Folders a top-level module name is looked up in, for a file in `importer`'s folder."""
        folder = importer.parent if importer is not None else None
        cached = self._roots.get(folder) if folder is not None else None
        if cached is not None:
            return cached
        roots: list[Path] = []
        if folder is not None:
            # (a marked root only: a named folder bounds no lookup, `check a/` still finds `from b import x` above it)
            root = self.root if self.root is not None and _is_within(folder, self.root) else self._marker_root(folder)
            roots.append(folder)
            for n, parent in enumerate(folder.parents):
                if root is not None and not _is_within(parent, root):
                    break
                if root is None and n >= MAX_PARENT_ROOTS:
                    break
                roots.append(parent)
            if root is not None:
                roots.append(root / "src")
        if self.root is not None:
            roots += [self.root, self.root / "src"]
        roots += self.extra_roots
        out = tuple(dict.fromkeys(r for r in roots if r.is_dir()))
        if folder is not None:
            self._roots[folder] = out
        return out

    def project_root(self, path: os.PathLike | str) -> Optional[Path]:
        """`find_project_root(path)`; where no folder at or above `path` has a marker, the deepest
        folder the user named (`torchplace check DIR`) that holds it: whoever checks DIR names
        the project (its scripts import its modules), and an archive or a copy of a repository
        has no .git.  A marker above DIR still wins; a file named alone gets no root from it."""
        found = self._marker_root(path)
        if found is None and self.named_roots:
            found = self._named_root(path)
        return found

    def _named_root(self, path: os.PathLike | str) -> Optional[Path]:
        """The deepest named folder that holds `path` (kept per path in a static run)."""
        given = os.fspath(path)
        known = self._named_roots_of.get(given, _UNSET)
        if known is _UNSET:
            here = Path(path).resolve()
            known = next((r for r in self.named_roots if _is_within(here, r)), None)
            if self.static:
                self._named_roots_of[given] = known
        return known

    def _marker_root(self, path: os.PathLike | str) -> Optional[Path]:
        """`find_project_root(path)`.  In a static run each folder is looked at once: the files of
        transformers' 530 model folders all walk up through the same parents (four `stat` calls a
        folder, up to `/` where no folder has a marker)."""
        if not self.static:
            return find_project_root(path)
        given = os.fspath(path)
        known = self._project_roots.get(given, _UNSET)
        if known is not _UNSET:
            return known
        here = Path(path).resolve()
        if not here.is_dir():
            here = here.parent
        walked, found = [], None
        for folder in (here, *here.parents):
            known = self._project_roots.get(folder, _UNSET)
            if known is not _UNSET:
                found = known
                break
            walked.append(folder)
            if any((folder / marker).exists() for marker in PROJECT_MARKERS):
                found = folder
                break
        for folder in walked:
            self._project_roots[folder] = found
        self._project_roots[given] = found
        return found

    def resolve(self, importer: Optional[os.PathLike | str], module: Optional[str], level: int = 0) -> Optional[Path]:
        """The file of `module` (`from ..module import x` has level 2), or None.  In a static run
        (files do not change) each answer is kept: the lookup costs a dozen `stat` calls."""
        if not self.static:
            return self._resolve(importer, module, level)
        key = (os.path.dirname(os.fspath(importer)) if importer else None, module, level)
        try:
            return self._resolved[key]
        except KeyError:
            found = self._resolved[key] = self._resolve(importer, module, level)
            return found

    def _resolve(self, importer, module: Optional[str], level: int) -> Optional[Path]:
        try:
            importer_path = self.real_file(importer) if importer else None
        except (OSError, ValueError):
            return None
        is_file = self._is_file if self.static else Path.is_file
        parts = module.split(".") if module else []
        if level:
            if importer_path is None:
                return None
            base = importer_path.parent
            for _ in range(level - 1):
                base = base.parent
            return self._module_in(base, module, parts, is_file) if parts else _package_file(base, is_file)
        if not parts or not all(p.isidentifier() for p in parts):
            return None
        for root in self.search_roots(importer_path):
            found = self._module_in(root, module, parts, is_file)
            if found is not None:
                return found
        return None

    def _module_in(self, base: Path, module: str, parts: list, is_file) -> Optional[Path]:
        """`_module_file(base, parts)`, kept in a static run: the folders above a file are searched
        for the same modules by every file below them (each model's folder asks its parents for `torch`)."""
        if not self.static:
            return _module_file(base, parts, is_file)
        key = (os.fspath(base), module)
        found = self._in_folder.get(key, _UNSET)
        if found is _UNSET:
            found = self._in_folder[key] = self._file_of_module(key[0], parts)
        return found

    def _file_of_module(self, base: str, parts: list) -> Optional[Path]:
        """`_module_file` of a static run, on strings: a folder that holds no such module (most
        lookups: each model's folder is asked for `torch`, `typing`, ...) makes no `Path`."""
        folder = os.path.join(base, *parts[:-1])
        candidate = os.path.join(folder, parts[-1] + ".py")
        if self._is_file(candidate):
            return Path(candidate)
        init = os.path.join(folder, parts[-1], "__init__.py")
        return Path(init) if self._is_file(init) else None

    def _is_file(self, path) -> bool:
        """`Path(path).is_file()`, kept in a static run: every file of a package asks for the same
        candidates (`from ...modeling_utils import X` in each model's folder)."""
        key = os.fspath(path)
        found = self._files.get(key)
        if found is None:
            found = self._files[key] = _is_regular_file(key)
        return found

    def real_file(self, path) -> Path:
        """`Path(path).resolve()`.  In a static run a file that is no symbolic link is its folder's
        real path (kept per folder) and its name: one `lstat` instead of one per path component."""
        if not self.static:
            return Path(path).resolve()
        given = os.fspath(path)
        known = self._real_files.get(given)
        if known is not None:
            return known
        folder, name = os.path.split(os.path.abspath(given))
        if not name or os.path.islink(os.path.join(folder, name)):
            return Path(path).resolve()
        real = self._real_dirs.get(folder)
        if real is None:
            real = self._real_dirs[folder] = Path(folder).resolve()
        real = real / name
        if given.__class__ is str and os.path.isabs(given):  # (a relative path depends on the working folder)
            self._real_files[given] = real
        return real

    def record_dependencies(self, path: Optional[str], deps: dict) -> None:
        """What the check of `path` read from other files, for `dependents_of` (an editor's question:
        which results a change makes stale).  Not kept in a static run, where no file changes."""
        if path and not self.static:
            try:
                self.dependencies[self.real_file(path)] = dict(deps)
            except (OSError, ValueError):
                pass

    def dependencies_of(self, path: Optional[str]) -> dict:
        """{file: fingerprint} of what the last check of `path` read from other modules."""
        try:
            return dict(self.dependencies.get(Path(path).resolve(), {})) if path else {}
        except (OSError, ValueError):
            return {}

    def dependents_of(self, changed: os.PathLike | str) -> list[Path]:
        """Checked files whose results may change when `changed` changes."""
        target = Path(changed).resolve()
        return sorted(p for p, deps in self.dependencies.items() if target in deps and p != target)


def _is_regular_file(path: str) -> bool:
    """`Path(path).is_file()` (the same errors pass as "no"; others raise), without making a `Path`."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno not in _NO_FILE_ERRNOS and getattr(exc, "winerror", None) not in _NO_FILE_WINERRORS:
            raise
        return False
    except ValueError:
        return False


_NO_FILE_ERRNOS = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # (pathlib's `_IGNORED_ERRNOS`)
_NO_FILE_WINERRORS = (21, 123, 1921)  # (pathlib's `_IGNORED_WINERRORS`)


def _is_within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _module_file(base: Path, parts: list[str], is_file=Path.is_file) -> Optional[Path]:
    folder = base.joinpath(*parts[:-1]) if len(parts) > 1 else base
    last = parts[-1]
    candidate = folder / f"{last}.py"
    if is_file(candidate):
        return candidate
    return _package_file(folder / last, is_file)


def _package_file(folder: Path, is_file=Path.is_file) -> Optional[Path]:
    init = folder / "__init__.py"
    return init if is_file(init) else None
