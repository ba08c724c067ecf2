"""Jupyter notebooks over notebookDocument/sync: cells analysed in order as one
program, findings mapped back to each cell, quick-fixes inside cells."""
from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from torchplace_rules import apply_fixes, check_source

from lsp_helpers import accept_registrations, change_notebook_cell, observed, record_published, requires_rule, server_command, wait_for_published

pytestmark = pytest.mark.asyncio(loop_scope="module")

CELLS = [
    ("code", "import torch\ndevice = torch.device(\"cuda\")"),
    ("markdown", "# Training\nSome *text*."),
    ("code", "x = torch.zeros(3)\n%time y = 1"),
    ("code", "x.to(device)"),
    ("code", "a = torch.ones(2, device=device)\nb = torch.ones(2)\nc = a + b"),
    ("code", "def broken(:\n    pass"),
    ("code", ""),
]
NB_URI = "file:///tmp/torchplace-test/analysis.ipynb"


def cell_uri(i: int) -> str:
    return f"vscode-notebook-cell:/tmp/torchplace-test/analysis.ipynb#cell{i}"


def expected_by_cell(cells) -> dict[str, list]:
    """Independent of the server: join parsable code cells (magics as comments), map lines back."""
    out = {cell_uri(i): [] for i in range(len(cells))}
    program, owners = [], []
    for i, (kind, text) in enumerate(cells):
        if kind != "code":
            continue
        masked = "\n".join("#" + ln[1:] if ln.startswith(("%", "!")) else ln for ln in text.splitlines())
        own = check_source(masked)
        if own and own[0].code == "TP001":
            out[cell_uri(i)] = observed_like(own, 0)
            continue
        for n, line in enumerate(masked.splitlines() or [""]):
            program.append(line)
            owners.append((i, n))
    findings = check_source("\n".join(program) + "\n")
    for f in findings:
        i, n = owners[f.span.start_line]
        out[cell_uri(i)].extend(observed_like([f], f.span.start_line - n))
    return {k: sorted(v) for k, v in out.items()}


def observed_like(findings, offset):
    return [
        (f.code, f.span.start_line - offset, f.span.start_col, f.span.end_line - offset, f.span.end_col, f.message, int(f.severity))
        for f in findings
    ]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()), scope="module")
async def client(lsp_client: LanguageClient):
    record_published(lsp_client)
    accept_registrations(lsp_client)
    caps = types.ClientCapabilities(
        notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities()
        ),
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True)
        ),
    )
    result = await lsp_client.initialize_session(
        types.InitializeParams(capabilities=caps, initialization_options={"debounce": 0})
    )
    assert result.capabilities.notebook_document_sync is not None
    yield
    await lsp_client.shutdown_session()


def open_notebook(client, cells):
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=NB_URI,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(
                        kind=types.NotebookCellKind.Code if kind == "code" else types.NotebookCellKind.Markup,
                        document=cell_uri(i),
                    )
                    for i, (kind, _) in enumerate(cells)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=cell_uri(i), language_id="python" if kind == "code" else "markdown", version=1, text=text)
                for i, (kind, text) in enumerate(cells)
            ],
        )
    )


async def test_cells_are_one_program_and_every_cell_gets_a_result(client):
    open_notebook(client, CELLS)
    want = expected_by_cell(CELLS)
    for i in range(len(CELLS)):
        params = await wait_for_published(client, cell_uri(i), 1)
        assert observed(params.diagnostics) == want[cell_uri(i)], f"cell {i}"
    # The broken cell reports its own syntax error; the others are still analysed.
    assert [d[0] for d in want[cell_uri(5)]] == ["TP001"]


@requires_rule("TP201")
async def test_device_from_cell_1_is_known_in_cell_4(client):
    params = await wait_for_published(client, cell_uri(3), 1)
    assert [d.code for d in params.diagnostics] == ["TP201"]
    assert params.diagnostics[0].range.start.line == 0


@requires_rule("TP101")
async def test_related_information_points_into_cells(client):
    params = await wait_for_published(client, cell_uri(4), 1)
    diag = next(d for d in params.diagnostics if d.code == "TP101")
    assert diag.range.start.line == 2
    assert {r.location.uri for r in diag.related_information} == {cell_uri(4)}


async def test_quick_fix_inside_a_cell_then_stale_findings_clear(client):
    uri = cell_uri(3)
    params = await wait_for_published(client, uri, 1)
    fixable = [d for d in params.diagnostics if d.data and d.data.get("fixable")]
    if not fixable:
        pytest.skip("no fixable finding in the cell with this engine")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=fixable[0].range,
            context=types.CodeActionContext(diagnostics=fixable[:1]),
        )
    )
    fix = next(a for a in actions if a.is_preferred)
    (doc_edit,) = fix.edit.document_changes
    assert doc_edit.text_document.uri == uri and doc_edit.text_document.version == 1
    text = CELLS[3][1]
    prefix = CELLS[0][1] + "\nx = torch.zeros(3)\n"  # what cells 1-3 define, three lines
    finding = next(f for f in check_source(prefix + text) if f.code == fixable[0].code)
    (edit,) = doc_edit.edits
    # The edit is the engine's, moved into the cell's own coordinates.
    assert edit.new_text == finding.fix.edits[0].new_text
    assert edit.range.start.line == finding.span.start_line - 3
    change_notebook_cell(client, NB_URI, 2, uri, 2, edit.range, edit.new_text)
    after = await wait_for_published(client, uri, 2)
    assert not [d for d in after.diagnostics if d.code == fixable[0].code]
    fixed_cells = list(CELLS)
    fixed_cells[3] = ("code", apply_fixes(prefix + text, [finding])[0].split("\n", 3)[3])
    want = expected_by_cell(fixed_cells)
    for i in range(len(CELLS)):
        assert observed(client.diagnostics[cell_uri(i)]) == want[cell_uri(i)], f"cell {i}"


async def test_code_lens_on_code_cells_and_hover_inside_a_cell(client):
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=cell_uri(0)))
    )
    assert [(l.command.command, list(l.command.arguments)) for l in lenses] == [("torchplace.probeCell", [cell_uri(0), 0])]
    markdown = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=cell_uri(1)))
    )
    assert list(markdown) == []
    diags = client.diagnostics.get(cell_uri(4), ())
    if not diags:
        pytest.skip("no finding in cell 4 with this engine")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=cell_uri(4)), position=diags[0].range.start)
    )
    assert diags[0].code in hover.contents.value and diags[0].message in hover.contents.value


async def test_closing_the_notebook_clears_every_cell(client):
    before = len(client.published)
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=NB_URI),
            cell_text_documents=[types.TextDocumentIdentifier(uri=cell_uri(i)) for i in range(len(CELLS))],
        )
    )
    for i in range(len(CELLS)):
        await wait_for_published(client, cell_uri(i), None)
    cleared = {p.uri for p in client.published[before:] if not p.diagnostics}
    assert cleared == {cell_uri(i) for i in range(len(CELLS))}


async def test_a_notebook_is_fixed_by_the_notebook_kind_only(client):
    """VS Code asks each cell for `source.fixAll` in parallel: only `notebook.source.fixAll` fixes a notebook."""
    nb, cells = "file:///tmp/torchplace-test/fixall.ipynb", ["import torch\ndevice = torch.device('cuda')\nx = torch.zeros(3)",
                                                             "x.to(device)"]
    uris = [f"vscode-notebook-cell:/tmp/torchplace-test/fixall.ipynb#c{i}" for i in range(2)]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=nb, notebook_type="jupyter-notebook", version=1,
                                                 cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=u) for u in uris]),
        cell_text_documents=[types.TextDocumentItem(uri=u, language_id="python", version=1, text=t) for u, t in zip(uris, cells)]))

    async def kinds(only):
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uris[0]),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=only)))
        return [a.kind for a in actions or [] if isinstance(a, types.CodeAction)]

    assert await kinds(["source.fixAll"]) == []
    assert "notebook.source.fixAll.torchplace" not in await kinds(None)
    assert await kinds(["notebook.source.fixAll"]) == ["notebook.source.fixAll.torchplace"]
    client.notebook_document_did_close(types.DidCloseNotebookDocumentParams(
        notebook_document=types.NotebookDocumentIdentifier(uri=nb),
        cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in uris]))
