"""The probe's results with a client that pulls diagnostics (as VS Code does): a verdict changes the
pull's result id (else the client keeps showing the findings without it), and in a notebook, whose
cells are pushed to every client, the probe's diagnostics join the cell's pushed list instead of
replacing the engine's findings there."""
from __future__ import annotations

import sys

import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient

from .probe_lsp_helpers import SCRIPT, open_file, wait_for

PROBE_SOURCE = "torchplace probe"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "torchplace_server"]))
async def client(lsp_client: LanguageClient):
    caps = types.ClientCapabilities(
        notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities()),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False)),
        workspace=types.WorkspaceClientCapabilities(
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)),
    )

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps, initialization_options={"debounce": 0}))
    yield
    await lsp_client.shutdown_session()


async def _probe(client, uri, line):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.probeCell", arguments=[uri, line]))


async def _pull(client, uri, previous=None):
    return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous))


async def test_a_verdict_is_a_new_pull_result(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "train.py", SCRIPT)
    before = await _pull(client, uri)
    assert "TP102" in [d.code for d in before.items] and not any("[probe:" in d.message for d in before.items)
    assert (await _probe(client, uri, 8))["result"]["status"] == "error"
    after = await _pull(client, uri, before.result_id)
    assert after.kind == "full" and after.result_id != before.result_id
    assert [d.code for d in after.items if d.data.get("probe") == "confirmed"] == ["TP102"]
    # The probe's own diagnostics are a pushed list of their own: the pulled findings stay as pulled.
    await wait_for(lambda: any(d.source == PROBE_SOURCE for d in client.diagnostics.get(uri, ())))
    assert all(d.source == PROBE_SOURCE for d in client.diagnostics[uri])


async def test_a_probed_notebook_cell_keeps_the_engines_findings_beside_the_probes(client: LanguageClient, tmp_path):
    nb = uris.from_fs_path(str(tmp_path / "nb.ipynb"))
    texts = SCRIPT.split("# %%\n")
    cells = [f"{nb}#cell{i}" for i in range(len(texts))]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=nb, notebook_type="jupyter-notebook", version=1, cells=[
            types.NotebookCell(kind=types.NotebookCellKind.Code, document=c) for c in cells]),
        cell_text_documents=[types.TextDocumentItem(uri=c, language_id="python", version=1, text=t)
                             for c, t in zip(cells, texts)]))
    last = cells[-1]
    await wait_for(lambda: any(d.code == "TP102" for d in client.diagnostics.get(last, ())))
    assert (await _probe(client, last, 0))["result"]["status"] == "error"

    def both() -> bool:
        shown = client.diagnostics.get(last, ())
        return (any(d.source == PROBE_SOURCE for d in shown)
                and any(d.code == "TP102" and (d.data or {}).get("probe") == "confirmed" for d in shown))

    await wait_for(both)
