"""The language server keeps cross-file findings current: editing the imported
module (unsaved) re-checks the open documents that import it, by republishing
(push clients) or by `workspace/diagnostic/refresh` (pull clients)."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

PROJECTS = Path(__file__).resolve().parent / "projects"
FORGETS = (PROJECTS / "helper_forgets_return" / "utils.py").read_text()
RETURNS = (PROJECTS / "helper_returns_moved" / "utils.py").read_text()
TRAIN = (PROJECTS / "helper_forgets_return" / "train.py").read_text()
SERVER = [sys.executable, "-m", "torchplace_server"]


def _workspace(folder: Path) -> tuple[str, str]:
    (folder / "pyproject.toml").write_text("")
    (folder / "utils.py").write_text(FORGETS)
    (folder / "train.py").write_text(TRAIN)
    return uris.from_fs_path(str(folder / "train.py")), uris.from_fs_path(str(folder / "utils.py"))


def _open(client, uri: str, text: str) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))


def _edit(client, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def _until(predicate, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


def _loud_codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics if d.severity is not None and d.severity <= types.DiagnosticSeverity.Warning]


async def _start(client: LanguageClient, folder: Path, pull: bool) -> None:
    caps = types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False) if pull else None),
        workspace=types.WorkspaceClientCapabilities(
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True) if pull else None),
    )
    result = await client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=uris.from_fs_path(str(folder)),
        workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(folder)), name="ws")]))
    if pull:
        assert result.capabilities.diagnostic_provider.inter_file_dependencies is True


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def push_client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def pull_client(lsp_client: LanguageClient):
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_push_client_gets_importers_republished(push_client: LanguageClient, tmp_path):
    await _start(push_client, tmp_path, pull=False)
    train, utils = _workspace(tmp_path)
    _open(push_client, train, TRAIN)
    await _until(lambda: _loud_codes(push_client.diagnostics.get(train, [])) == ["TP103"])
    _open(push_client, utils, FORGETS)
    _edit(push_client, utils, 2, RETURNS)  # unsaved: the disk still has the bug
    await _until(lambda: train in push_client.diagnostics and _loud_codes(push_client.diagnostics[train]) == [])
    _edit(push_client, utils, 3, FORGETS)
    await _until(lambda: _loud_codes(push_client.diagnostics.get(train, [])) == ["TP103"])


@pytest.mark.asyncio
async def test_pull_client_is_asked_to_pull_again(pull_client: LanguageClient, tmp_path):
    await _start(pull_client, tmp_path, pull=True)
    train, utils = _workspace(tmp_path)
    _open(pull_client, train, TRAIN)

    async def pull() -> list[str]:
        report = await pull_client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=train)))
        return _loud_codes(report.items)

    assert await pull() == ["TP103"]
    before = pull_client.diagnostic_refresh_count
    _open(pull_client, utils, FORGETS)
    _edit(pull_client, utils, 2, RETURNS)
    await _until(lambda: pull_client.diagnostic_refresh_count > before)
    assert await pull() == []
