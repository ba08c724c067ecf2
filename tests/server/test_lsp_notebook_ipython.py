"""IPython syntax in notebook cells over LSP: no valid cell is a syntax error, and a
cell holding `files = !ls` still defines its names for the cells after it."""
from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from lsp_helpers import accept_registrations, record_published, server_command, wait_for_published

pytestmark = pytest.mark.asyncio(loop_scope="module")

NB_URI = "file:///tmp/torchplace-test/ipython.ipynb"
CELLS = [
    "import torch\nfiles = !ls\ndevice = torch.device('cuda')",
    "?torch.ones\ntorch.zeros?",
    "for f in files:\n    %time print(f)",
    "%%time\nz = 1",
    "x = torch.zeros(3)\nx.to(device)",
]


def cell_uri(i: int) -> str:
    return f"vscode-notebook-cell:/tmp/torchplace-test/ipython.ipynb#cell{i}"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()), scope="module")
async def client(lsp_client: LanguageClient):
    record_published(lsp_client)
    accept_registrations(lsp_client)
    caps = types.ClientCapabilities(notebook_document=types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities()))
    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps, initialization_options={"debounce": 0}))
    yield
    await lsp_client.shutdown_session()


async def test_ipython_cells_are_code_and_keep_their_names(client):
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(
            uri=NB_URI, notebook_type="jupyter-notebook", version=1,
            cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=cell_uri(i)) for i in range(len(CELLS))]),
        cell_text_documents=[types.TextDocumentItem(uri=cell_uri(i), language_id="python", version=1, text=text)
                             for i, text in enumerate(CELLS)],
    ))
    published = {i: await wait_for_published(client, cell_uri(i), 1) for i in range(len(CELLS))}
    assert all(d.code != "TP001" for p in published.values() for d in p.diagnostics)
    # `device` comes from the cell that also holds `files = !ls`: that cell was not dropped.
    assert [(d.code, d.range.start.line) for d in published[4].diagnostics] == [("TP201", 1)]
