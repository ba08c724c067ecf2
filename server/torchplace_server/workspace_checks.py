"""Workspace diagnostics (`torchplace.diagnosticMode: workspace`): every Python file, open or not.

With the default `openFiles` nothing here runs.  In `workspace` mode the
server walks the workspace (the engine's walk: .gitignore, `extendExclude`,
`ignorePatterns`), checks the files that are not open in a low-priority worker
process (`workspace_worker`), a batch at a time, and reports:

- to clients that pull, through `workspace/diagnostic`: the request is held
  until some file's result changed, then answered with the files that changed
  (the client asks again two seconds later; unchanged files keep their results);
- to the others, through `publishDiagnostics` as each batch is done.

Only files with findings keep anything in the server (their diagnostics), so
memory stays small on a 10,000-file project; the worker's memory is bounded by
its summary cache and by replacing it every few thousand files.  Files changed
on disk (watched files) and documents closed in the editor are checked again;
open documents are left to the ordinary document diagnostics.
"""
from __future__ import annotations

import asyncio
import logging
import os
import pickle
import struct
import sys
import time
from typing import TYPE_CHECKING, Optional

from lsprotocol import types
from pygls import uris

from torchplace_rules import Config
from torchplace_rules.files import iter_python_files

from .analysis_units import find_document
from .workspace_worker import frame

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)
BATCH = 25  # files per task sent to the worker
BATCHES_PER_WORKER = 120  # batches before the worker process is replaced (bounded memory)


class WorkspaceChecks:
    def __init__(self, server: "TorchplaceServer") -> None:
        self.server = server
        self.active = False
        self._worker: Optional[asyncio.subprocess.Process] = None
        self._worker_batches = 0
        self._results: dict[str, list[types.Diagnostic]] = {}  # path -> diagnostics, files with findings only
        self._dirty: dict[str, None] = {}  # paths to check, in order
        self._changed: set[str] = set()  # paths whose result changed since the last pull report
        self._rescan = False
        self._task: Optional[asyncio.Task] = None
        self._ready: Optional[asyncio.Event] = None  # set when a pull report has something to say
        self.files_checked = 0

    # -- events -----------------------------------------------------------------
    def settings_changed(self) -> None:
        wanted = self.server.settings.diagnostic_mode == "workspace" and self._root() is not None
        if wanted:
            self.active = True
            self._rescan = True
            self._kick()
        elif self.active:
            self._stop()

    def files_changed(self, paths: list[str]) -> None:
        if not self.active:
            return
        for path in paths:
            if path.endswith((".py", ".pyi")):
                self._dirty[os.path.abspath(path)] = None
        self._kick()

    def document_opened(self, uri: str) -> None:
        path = _fs_path(uri)
        if self.active and path is not None:
            self._dirty.pop(path, None)

    def document_closed(self, uri: str) -> None:
        path = _fs_path(uri)
        if self.active and path is not None and path.endswith((".py", ".pyi")):
            self._changed.add(path)  # re-sent even if unchanged: the client dropped it on close
            self._dirty[path] = None
            self._kick()

    def shutdown(self) -> None:
        """End the worker process (at once: it holds nothing worth waiting for)."""
        worker, self._worker = self._worker, None
        if worker is not None and worker.returncode is None:
            try:
                worker.kill()
            except ProcessLookupError:
                pass

    # -- workspace/diagnostic ------------------------------------------------------
    async def report(self) -> types.WorkspaceDiagnosticReport:
        """Held until some file's result changed (or for ever while the mode is `openFiles`)."""
        if self._ready is None:
            self._ready = asyncio.Event()
        while not self._changed:
            self._ready.clear()
            await self._ready.wait()
        changed, self._changed = self._changed, set()
        items = []
        for path in sorted(changed):
            uri = uris.from_fs_path(path)
            if uri is None or find_document(self.server.workspace, uri) is not None:
                continue  # open documents have their own diagnostics
            items.append(types.WorkspaceFullDocumentDiagnosticReport(
                uri=uri, version=None, items=self._results.get(path, [])))
        return types.WorkspaceDiagnosticReport(items=items)

    # -- the pass -----------------------------------------------------------------------
    def _kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = self.server.spawn(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        started, checked = time.monotonic(), 0
        while self.active and (self._rescan or self._dirty):
            if self._rescan:
                self._rescan = False
                paths = await loop.run_in_executor(None, self._enumerate)
                for path in list(self._results):
                    if path not in paths:
                        self._store(path, None)
                self._dirty = dict.fromkeys(paths)
                log.info("torchplace: workspace diagnostics: %d Python files to check", len(paths))
            batch = []
            while self._dirty and len(batch) < BATCH:
                path = next(iter(self._dirty))
                del self._dirty[path]
                uri = uris.from_fs_path(path)
                if uri is not None and find_document(self.server.workspace, uri) is None:
                    batch.append(path)
            items, skipped = self._configs(batch)
            for path in skipped:
                self._store(path, None)
            if not items:
                continue
            try:
                results = await self._check(items)
            except Exception as exc:  # noqa: BLE001 - a dead worker: start another, skip this batch
                log.error("torchplace: workspace diagnostics: the worker failed (%r); skipping %d files", exc, len(items))
                self.shutdown()
                continue
            for path, compact in results:
                self._store(path, compact)
            checked += len(results)
            self.files_checked += len(results)
            self._publish_changes()
        if checked:
            log.info("torchplace: workspace diagnostics: checked %d files in %.1f s; %d with findings",
                     checked, time.monotonic() - started, len(self._results))

    def _enumerate(self) -> dict[str, None]:
        root = self._root()
        config = self.server.settings.config_for_path(os.path.join(root, "__workspace__.py")) or Config()
        return dict.fromkeys(os.path.abspath(str(p)) for p in iter_python_files([root], config))

    def _configs(self, paths: list[str]) -> tuple[list[tuple[str, Config]], list[str]]:
        items, skipped = [], []
        for path in paths:
            config = self.server.settings.config_for_path(path)
            if config is None:
                skipped.append(path)
            else:
                items.append((path, config))
        return items, skipped

    def _store(self, path: str, compact: Optional[list]) -> None:
        diagnostics = [self._diagnostic(c) for c in compact] if compact else []
        old = self._results.get(path, [])
        if diagnostics:
            self._results[path] = diagnostics
        else:
            self._results.pop(path, None)
        if diagnostics != old:
            self._changed.add(path)

    def _diagnostic(self, compact: tuple) -> types.Diagnostic:
        code, severity, message, rng, related, unnecessary, fixable = compact
        uri_of = self.server.rule_docs.uri(code)
        return types.Diagnostic(
            range=_range(rng), message=message, severity=types.DiagnosticSeverity(severity), code=code,
            code_description=types.CodeDescription(href=uri_of) if uri_of else None, source="torchplace",
            tags=[types.DiagnosticTag.Unnecessary] if unnecessary else None,
            data={"fixable": fixable, "workspace": True},
        )

    def _publish_changes(self) -> None:
        if not self._changed:
            return
        if self.server.uses_pull_diagnostics:
            if self._ready is not None:
                self._ready.set()
            return
        changed, self._changed = self._changed, set()
        for path in changed:
            uri = uris.from_fs_path(path)
            if uri is None or find_document(self.server.workspace, uri) is not None:
                continue
            self.server.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=self._results.get(path, [])))

    def _stop(self) -> None:
        self.active = False
        if self._task is not None:
            self._task.cancel()
        self._dirty.clear()
        for path in list(self._results):
            self._store(path, None)
        self._publish_changes()
        self.shutdown()

    async def _check(self, items: list[tuple[str, Config]]) -> list:
        """One batch through the worker process (started, or replaced after many batches, here)."""
        if self._worker is not None and (self._worker.returncode is not None or self._worker_batches >= BATCHES_PER_WORKER):
            self.shutdown()
        if self._worker is None:
            encoding = str(self.server.workspace.position_encoding or "utf-16")
            self._worker = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "torchplace_server.workspace_worker", encoding, *filter(None, [self._root()]),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=1 << 26)
            self._worker_batches = 0
        worker = self._worker
        self._worker_batches += 1
        worker.stdin.write(frame(items))
        await worker.stdin.drain()
        (size,) = struct.unpack(">I", await worker.stdout.readexactly(4))
        answer = pickle.loads(await worker.stdout.readexactly(size))
        if isinstance(answer, Exception):
            raise answer
        return answer

    def _root(self) -> Optional[str]:
        root = self.server.workspace.root_path if self.server.workspace else None
        return root if root and os.path.isdir(root) else None


def _range(rng: tuple[int, int, int, int]) -> types.Range:
    return types.Range(start=types.Position(line=rng[0], character=rng[1]),
                       end=types.Position(line=rng[2], character=rng[3]))


def _fs_path(uri: str) -> Optional[str]:
    if not uri.startswith("file:"):
        return None
    path = uris.to_fs_path(uri)
    return os.path.abspath(path) if path else None
