"""Typing through a syntax error (issue 14, item 2): the other findings stay (moved with the
edit), the syntax error (TP001) comes only after a pause, and never with reportSyntaxErrors off."""
from __future__ import annotations

import asyncio
import time

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from lsp_helpers import (
    SEED_SCRIPT, Docs, accept_registrations, change_notebook_cell, expected, observed, record_published,
    server_command, wait_for_published,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
PAUSE_MS = 400


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command("--no-probe")), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    record_published(lsp_client)
    accept_registrations(lsp_client)
    caps = client_capabilities("visual-studio-code")
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities())
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps, initialization_options={"debounce": 0, "syntaxErrorDelay": PAUSE_MS}))
    lsp_client.folder = tmp_path_factory.mktemp("typing")
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def docs(client):
    return Docs(client, client.folder)


def _without_syntax(diagnostics):
    return [d for d in observed(diagnostics) if d[0] != "TP001"]


async def _next_publish(client, uri, after: int, timeout: float = 10.0):
    """The first publish for `uri` after the first `after` ones."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        mine = [p for p in client.published if p.uri == uri]
        if len(mine) > after:
            return mine[after]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no publish #{after + 1} for {uri}")


async def test_typing_a_dot_keeps_the_other_findings_and_the_syntax_error_waits(client, docs):
    uri = docs.open("typing.py", SEED_SCRIPT)
    path = str(client.folder / "typing.py")
    first = await wait_for_published(client, uri, 1)
    before = observed(first.diagnostics)
    assert before == expected(SEED_SCRIPT, path) and before
    # A new line after line 17 (`x = torch.zeros(8, 4)`): everything below moves one line down.
    typed_at = time.monotonic()
    version = docs.replace(uri, (17, 0), (17, 0), "loss.\n")
    during = await wait_for_published(client, uri, version)
    moved = sorted((c, l + (1 if l >= 17 else 0), sc, el + (1 if el >= 17 else 0), ec, m, s)
                   for c, l, sc, el, ec, m, s in before)
    assert observed(during.diagnostics) == moved, "the other findings stay, moved with the edit"
    count = len([p for p in client.published if p.uri == uri])
    later = await _next_publish(client, uri, count - 1 + 1)
    assert time.monotonic() - typed_at >= PAUSE_MS / 1000 * 0.9
    assert [d.code for d in later.diagnostics if d.code == "TP001"] == ["TP001"]
    assert _without_syntax(later.diagnostics) == moved
    # Finishing the expression brings a fresh check.
    version = docs.replace(uri, (17, 5), (17, 5), "item()")
    done = await wait_for_published(client, uri, version)
    assert observed(done.diagnostics) == expected(docs.texts[uri], path)
    docs.close(uri)


async def test_carried_findings_have_no_fix_but_can_be_ignored(client, docs):
    uri = docs.open("carried.py", SEED_SCRIPT)
    await wait_for_published(client, uri, 1)
    version = docs.replace(uri, (0, 0), (0, 0), "(\n")  # the top of the file no longer parses
    during = await wait_for_published(client, uri, version)
    discarded = next(d for d in during.diagnostics if d.code == "TP201")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=discarded.range,
        context=types.CodeActionContext(diagnostics=[discarded], only=[types.CodeActionKind.QuickFix])))
    titles = [a.title for a in actions]
    assert titles == ["Ignore TP201 for this line", "Show documentation for TP201"], titles
    docs.close(uri)


async def test_no_syntax_error_at_all_when_switched_off(client, docs):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"torchplace": {"debounce": 0, "syntaxErrorDelay": 0, "reportSyntaxErrors": False}}))
    uri = docs.open("off.py", "import torch\nx = (\n")
    opened = await wait_for_published(client, uri, 1)
    assert list(opened.diagnostics) == []
    version = docs.replace(uri, (1, 5), (1, 5), "((")
    assert list((await wait_for_published(client, uri, version)).diagnostics) == []
    docs.close(uri)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"torchplace": {"debounce": 0, "syntaxErrorDelay": PAUSE_MS}}))


async def test_a_broken_notebook_cell_keeps_its_findings(client):
    nb = "file:///tmp/torchplace-typing/nb.ipynb"
    cells = ["import torch\ndevice = torch.device('cuda')", "x = torch.zeros(3)\nx.to(device)\ny = 1"]
    uris = [f"vscode-notebook-cell:/tmp/torchplace-typing/nb.ipynb#c{i}" for i in range(2)]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=nb, notebook_type="jupyter-notebook", version=1,
            cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=u) for u in uris]),
        cell_text_documents=[types.TextDocumentItem(uri=u, language_id="python", version=1, text=t)
                             for u, t in zip(uris, cells)]))
    opened = await wait_for_published(client, uris[1], 1)
    assert [(d.code, d.range.start.line) for d in opened.diagnostics] == [("TP201", 1)]
    # Type `y.` at the end of cell 2: the cell does not parse for a moment.
    change_notebook_cell(client, nb, 2, uris[1], 2, types.Range(start=types.Position(2, 5), end=types.Position(2, 5)), "\ny.")
    during = await wait_for_published(client, uris[1], 2)
    assert [(d.code, d.range.start.line) for d in during.diagnostics] == [("TP201", 1)]
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=nb),
        cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in uris]))
