"""Workspace awareness (issue 14, item 3): modules changed on disk re-check their importers,
and `diagnosticMode: workspace` reports files that are not open (pushed, or pulled through
`workspace/diagnostic`)."""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

from lsp_helpers import DISCARDED_TO, accept_registrations, record_published, server_command

pytestmark = pytest.mark.asyncio

PROJECTS = Path(__file__).resolve().parent.parent / "crossfile" / "projects"
FORGETS = (PROJECTS / "helper_forgets_return" / "utils.py").read_text()
RETURNS = (PROJECTS / "helper_returns_moved" / "utils.py").read_text()
TRAIN = (PROJECTS / "helper_forgets_return" / "train.py").read_text()
CLEAN = "import torch\nx = torch.zeros(3)\n"


def _caps(pull: bool) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False) if pull else None),
        workspace=types.WorkspaceClientCapabilities(
            configuration=False,
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None))


async def _start(client: LanguageClient, folder: Path, pull: bool, options: dict) -> None:
    record_published(client)
    accept_registrations(client)
    await client.initialize_session(types.InitializeParams(
        capabilities=_caps(pull), root_uri=uris.from_fs_path(str(folder)), initialization_options=options,
        workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(folder)), name="ws")]))


async def _until(predicate, timeout: float = 20.0, what: str = "") -> float:
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise AssertionError(f"timed out: {what}")
        await asyncio.sleep(0.02)
    return time.monotonic() - start


def _latest(client, uri):
    mine = [p for p in client.published if p.uri == uri]
    return mine[-1] if mine else None


def _codes(params) -> list[str]:
    return [d.code for d in params.diagnostics] if params is not None else None


def _watched(client, path: Path, kind=types.FileChangeType.Changed) -> None:
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=uris.from_fs_path(str(path)), type=kind)]))


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()))
async def client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


async def test_a_module_overwritten_on_disk_updates_its_importer_within_2_s(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "utils.py").write_text(FORGETS)
    (tmp_path / "train.py").write_text(TRAIN)
    await _start(client, tmp_path, pull=False, options={"debounce": 0})
    await _until(lambda: client.registrations, what="the watcher registration")
    watchers = [w["globPattern"] for p in client.registrations for r in p.registrations
                if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for w in r.register_options["watchers"]]
    assert set(watchers) >= {"**/pyproject.toml", "**/*.py", "**/*.ipynb"}
    train = uris.from_fs_path(str(tmp_path / "train.py"))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=train, language_id="python", version=1, text=TRAIN)))
    await _until(lambda: "TP103" in (_codes(_latest(client, train)) or []), what="TP103 in train.py")
    (tmp_path / "utils.py").write_text(RETURNS)  # a git checkout, another editor, a generator
    _watched(client, tmp_path / "utils.py")
    took = await _until(lambda: "TP103" not in _codes(_latest(client, train)), what="train.py re-checked")
    assert took < 2.0, took


async def test_workspace_mode_pushes_files_that_are_not_open(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nextend-exclude = ["generated"]\n')
    (tmp_path / "bug.py").write_text(DISCARDED_TO)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "skipped.py").write_text(DISCARDED_TO)
    await _start(client, tmp_path, pull=False, options={"debounce": 0, "diagnosticMode": "workspace"})
    bug = uris.from_fs_path(str(tmp_path / "bug.py"))
    await _until(lambda: _codes(_latest(client, bug)) == ["TP201"], what="bug.py reported without being opened")
    assert _latest(client, uris.from_fs_path(str(tmp_path / "generated" / "skipped.py"))) is None
    assert _codes(_latest(client, uris.from_fs_path(str(tmp_path / "clean.py")))) in (None, [])
    (tmp_path / "bug.py").write_text(CLEAN)
    _watched(client, tmp_path / "bug.py")
    await _until(lambda: _codes(_latest(client, bug)) == [], what="bug.py cleared after the fix on disk")
    (tmp_path / "new_bug.py").write_text(DISCARDED_TO)
    _watched(client, tmp_path / "new_bug.py", types.FileChangeType.Created)
    new_bug = uris.from_fs_path(str(tmp_path / "new_bug.py"))
    await _until(lambda: _codes(_latest(client, new_bug)) == ["TP201"], what="a created file reported")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"torchplace": {"debounce": 0, "diagnosticMode": "openFiles"}}))
    await _until(lambda: _codes(_latest(client, new_bug)) == [], what="cleared when the mode is openFiles again")


async def test_workspace_mode_answers_workspace_diagnostic_pulls(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "bug.py").write_text(DISCARDED_TO)
    (tmp_path / "clean.py").write_text(CLEAN)
    await _start(client, tmp_path, pull=True, options={"diagnosticMode": "workspace"})
    report = await asyncio.wait_for(client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])), 30)
    by_uri = {item.uri: [d.code for d in item.items] for item in report.items}
    assert by_uri[uris.from_fs_path(str(tmp_path / "bug.py"))] == ["TP201"]
    assert not client.published, "a pulling client gets no pushed diagnostics"
    # The next request is held until something changes.
    pending = asyncio.ensure_future(client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])))
    await asyncio.sleep(0.5)
    assert not pending.done()
    (tmp_path / "clean.py").write_text(DISCARDED_TO)
    _watched(client, tmp_path / "clean.py")
    report = await asyncio.wait_for(pending, 30)
    assert [(item.uri, [d.code for d in item.items]) for item in report.items] == \
        [(uris.from_fs_path(str(tmp_path / "clean.py")), ["TP201"])]
