"""Files changed on disk (`workspace/didChangeWatchedFiles`): project configs, modules, notebooks.

The server asks the client to watch `**/pyproject.toml`, `**/*.py` and
`**/*.ipynb` (when the client allows dynamic registration).  A changed
pyproject.toml re-reads the configuration; a module changed by a git checkout,
another editor or a code generator re-checks the open documents that import it
(a created or deleted module may settle an import that did not resolve, so
then every open document is re-checked); workspace diagnostics re-check the
files that changed.  A document open in the editor is not affected by its file
on disk: the editor's text is the truth until it is closed.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from .analysis_units import find_document
from .cross_file import fs_path

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)
REGISTRATION_ID = "torchplace-watch-files"
PATTERNS = ("**/pyproject.toml", "**/*.py", "**/*.ipynb")


async def register_watchers(ls: "TorchplaceServer") -> None:
    ws = ls.client_capabilities.workspace
    if not (ws and ws.did_change_watched_files and ws.did_change_watched_files.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=pattern) for pattern in PATTERNS])
    try:
        await ls.client_register_capability_async(types.RegistrationParams(registrations=[
            types.Registration(id=REGISTRATION_ID, method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)
        ]))
    except Exception as exc:  # noqa: BLE001 - a client that refuses: configs are still re-read by mtime
        log.warning("torchplace: could not watch files: %r", exc)


def files_changed(ls: "TorchplaceServer", changes: list[types.FileEvent]) -> None:
    if any(change.uri.endswith("pyproject.toml") for change in changes):
        log.info("torchplace: pyproject.toml changed; re-reading [tool.torchplace]")
        ls.settings.project_files_changed()
        ls.diagnostics.settings_changed()
    modules, created_or_deleted, changed_paths = [], False, []
    for change in changes:
        path = fs_path(change.uri)
        if path is None or not path.endswith((".py", ".ipynb")):
            continue
        changed_paths.append(path)
        if find_document(ls.workspace, change.uri) is not None:
            continue  # open: the editor's text is the truth
        if path.endswith(".py"):
            modules.append(path)
            created_or_deleted |= change.type != types.FileChangeType.Changed
    if created_or_deleted:
        log.info("torchplace: modules created or deleted on disk; re-checking the open documents")
        ls.diagnostics.dependencies_changed(ls.diagnostics.open_units())
    else:
        for path in modules:
            ls.cross_file.recheck_dependents(path)
    if changed_paths:
        ls.workspace_checks.files_changed(changed_paths)


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: "TorchplaceServer", params: types.DidChangeWatchedFilesParams) -> None:
        files_changed(ls, params.changes)
