"""Cross-file findings: imports of the workspace's own modules, kept current while typing.

One `ProjectIndex` per server resolves `from models.net import Net` to the
workspace's files and caches what each module defines.  Open documents feed it
their unsaved text, so editing `models/net.py` changes what `train.py` sees
before anything is saved.  When a document changes, the open documents that
imported it (recorded by their last analysis) are checked again: push clients
get republished diagnostics, pull clients a `workspace/diagnostic/refresh`
(the server advertises `interFileDependencies`).
"""
from __future__ import annotations

import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from pygls import uris

from torchplace_rules.project_index import ProjectIndex

from .analysis_units import find_document

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)


class CrossFile:
    """The server's project index, its editor overlays and the re-check of dependents."""

    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self._index: Optional[ProjectIndex] = None
        self._pending: set[str] = set()  # documents changed since the last flush

    @property
    def index(self) -> ProjectIndex:
        if self._index is None:
            root = self.server.workspace.root_path if self.server.workspace else None
            # jedi answers from a subprocess of this interpreter: a compiled module it meets
            # while resolving a name is never imported (and initialised) in the server.
            self._index = ProjectIndex(root=root if root and os.path.isdir(root) else None, environment=sys.executable)
        return self._index

    def deps_current(self, deps: dict) -> bool:
        """Are the files an analysis read from other modules unchanged (text and disk)?"""
        fingerprint = self.index.fingerprint
        return all(fingerprint(path) == fp for path, fp in deps.items())

    # -- document events ---------------------------------------------------
    def document_changed(self, uri: str) -> None:
        """Feed the new text to the index, then re-check open documents that import it.  Done once
        per turn of the event loop, however many changes a burst brought (`flush`)."""
        if not self._pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self._pending.add(uri)

    def flush(self) -> None:
        """Bring the index up to date with the documents changed since the last flush."""
        pending, self._pending = self._pending, set()
        for uri in pending:
            path = fs_path(uri)
            if path is None:
                continue
            doc = find_document(self.server.workspace, uri)
            if doc is not None and path.endswith(".py"):
                self.index.set_overlay(path, doc.source)
            self.recheck_dependents(path)

    def document_closed(self, uri: str) -> None:
        self._pending.discard(uri)
        path = fs_path(uri)
        if path is not None:
            self.index.drop_overlay(path)  # the disk is the truth again
            with self.index.lock:  # a closed document is not re-checked: forget what it imported
                self.index.dependencies.pop(Path(path).resolve(), None)
            self.recheck_dependents(path)

    def recheck_dependents(self, path: str) -> None:
        dependents = {str(p) for p in self.index.dependents_of(path)}
        if not dependents:
            return
        keys = [key for key in self.server.diagnostics.open_units()
                if fs_path(key) is not None and os.path.realpath(fs_path(key)) in dependents]
        if keys:
            log.debug("torchplace: %s changed; re-checking %s", path, ", ".join(keys))
            self.server.diagnostics.dependencies_changed(keys)


def fs_path(uri: str) -> Optional[str]:
    try:
        path = uris.to_fs_path(uri)
    except Exception:  # an odd URI is not a file of the workspace
        return None
    return path if path and uri.startswith("file:") else None
