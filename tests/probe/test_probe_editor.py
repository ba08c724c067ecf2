"""The probe in the editor works like Jupyter: root causes, verdicts, results that leave, cancel,
a failing cell above, settings that need a new kernel, the editor's cell numbers."""
from __future__ import annotations

import asyncio
import sys
import time

import pytest_lsp
from lsprotocol import types
from pygls import uris
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .probe_lsp_helpers import SCRIPT, open_file, wait_for

ANSWERS: list = []  # what the "user" clicks in window/showMessageRequest


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "torchplace_server"]))
async def client(lsp_client: LanguageClient):
    caps = client_capabilities("visual-studio-code")
    caps.window.work_done_progress = True
    caps.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities())

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        return None

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def show_message_request(params: types.ShowMessageRequestParams):
        lsp_client.asked = params
        title = ANSWERS.pop(0) if ANSWERS else None
        return types.MessageActionItem(title=title) if title else None

    lsp_client.asked = None
    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps, initialization_options={"debounce": 0}))
    yield
    await lsp_client.shutdown_session()


async def _probe(client, uri, line, *extra):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.probeCell", arguments=[uri, line, *extra]))


def _probe_diagnostics(client, uri):
    return [d for d in client.diagnostics.get(uri, ()) if d.source == "torchplace probe"]


def _edit(client, uri, version, line, text):
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(line, 0), types.Position(line, 0)), text=text)]))


async def test_root_cause_verdicts_and_results_that_leave_with_the_cell(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "train.py", SCRIPT)
    result = await _probe(client, uri, 8)
    assert result["result"]["status"] == "error"
    await wait_for(lambda: _probe_diagnostics(client, uri))
    error = next(d for d in _probe_diagnostics(client, uri) if d.severity == types.DiagnosticSeverity.Error)
    assert error.range.start.line == 8
    related = error.related_information[0]
    assert related.location.uri == uri and related.location.range.start.line == 4
    assert related.message == "root cause: line 5: mat1 was created on cpu here"
    cause = [d for d in _probe_diagnostics(client, uri) if d.code == "probe-root-cause"]
    assert cause and cause[0].range.start.line == 4 and "line 9" in cause[0].message
    # The engine's finding on the failing line is confirmed by the run.
    await wait_for(lambda: any("[probe: confirmed]" in d.message for d in client.diagnostics.get(uri, ())))
    confirmed = [d for d in client.diagnostics[uri] if d.source == "torchplace" and "[probe: confirmed]" in d.message]
    assert [d.code for d in confirmed] == ["TP102"] and confirmed[0].data["probe"] == "confirmed"
    # An edit below the probed cell keeps its results; an edit in it removes them from the Problems panel.
    _edit(client, uri, 2, 9, "print(out.shape)\n")
    await asyncio.sleep(0.5)
    assert _probe_diagnostics(client, uri)
    _edit(client, uri, 3, 8, "# changed\n")
    await wait_for(lambda: not _probe_diagnostics(client, uri)
                    and not any("[probe:" in d.message for d in client.diagnostics.get(uri, ())))


async def test_closing_the_document_removes_its_probe_results(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "close.py", "import torch\nx = torch.ones(2, device='cuda')\n")
    assert (await _probe(client, uri, 1))["result"]["status"] == "ok"
    await wait_for(lambda: _probe_diagnostics(client, uri))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    await wait_for(lambda: not _probe_diagnostics(client, uri))


async def test_a_failing_cell_above_is_reported_and_the_probed_cell_still_runs(client: LanguageClient, tmp_path):
    text = "import torch\n# %%\nraise ValueError('broken setup')\n# %%\nz = torch.ones(2, device='cuda')\n"
    uri = open_file(client, tmp_path, "above.py", text)
    first = (await _probe(client, uri, 4))["result"]
    assert first["status"] == "ok" and first["variables"]["z"]["device"] == "cuda:0"
    assert first["above_errors"] == [{"cell": 1, "type": "ValueError", "message": "broken setup", "line": 3,
                                      "kind": "exception"}]
    await wait_for(lambda: any(d.code == "probe-cell-above" for d in _probe_diagnostics(client, uri)))
    above = next(d for d in _probe_diagnostics(client, uri) if d.code == "probe-cell-above")
    assert above.range.start.line == 2 and above.message.startswith("ValueError in cell 2")
    again = (await _probe(client, uri, 4))["result"]
    assert again["status"] == "ok" and again["ran_cells"] == []  # like Jupyter: it ran, it is not run again


async def test_cancel_stops_a_looping_cell_at_once(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "loop.py", "n = 0\n# %%\nwhile True:\n    n += 1\n")
    assert (await _probe(client, uri, 0))["result"]["status"] == "ok"  # a warm kernel
    running = asyncio.ensure_future(_probe(client, uri, 2))

    def probing():
        return any(isinstance(v, types.WorkDoneProgressReport) and "probing cell 2" in (v.message or "")
                   for values in client.progress_reports.values() for v in values)

    await wait_for(probing)
    await asyncio.sleep(0.3)
    started = time.monotonic()
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.cancelProbe", arguments=[uri]))
    result = await asyncio.wait_for(running, timeout=30)
    assert answer == {"cancelled": True}
    assert time.monotonic() - started < 2.0
    assert result["result"]["status"] == "cancelled" and result["result"]["error"]["line"] in (3, 4)


async def test_a_setting_that_needs_a_new_kernel_asks_first(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "state.py", "import torch\nstate = torch.zeros(2)\n")
    assert (await _probe(client, uri, 0))["result"]["status"] == "ok"

    def configure(probe):
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"torchplace": {"probe": probe}}))

    configure({"timeout": 30})  # a per-run setting: the warm kernel stays, nobody is asked
    await asyncio.sleep(0.3)
    assert (await _probe(client, uri, 0))["result"]["status"] == "ok" and client.asked is None
    configure({"simulateGpu": "off"})
    await asyncio.sleep(0.3)
    ANSWERS[:] = ["Keep the kernel"]
    declined = await _probe(client, uri, 0)
    assert declined == {"ran": False, "reason": "kernel-restart-declined", "change": "simulate_gpu 'auto' → 'off'"}
    assert "needs a new kernel" in client.asked.message
    ANSWERS[:] = ["Restart kernel"]
    restarted = await _probe(client, uri, 0)
    assert restarted["ran"] is True and restarted["result"]["ran_cells"] == []


async def test_notebook_cells_are_numbered_as_the_editor_shows_them(client: LanguageClient, tmp_path):
    nb = uris.from_fs_path(str(tmp_path / "nb.ipynb"))
    cells = [("markdown", "# Title"), ("code", "import torch\nw = torch.ones(2, device='cuda')\n"),
             ("code", "v = w.sum()\n")]
    client.notebook_document_did_open(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri=nb, notebook_type="jupyter-notebook", version=1, cells=[
            types.NotebookCell(kind=types.NotebookCellKind.Code if k == "code" else types.NotebookCellKind.Markup,
                               document=f"{nb}#cell{i}") for i, (k, _) in enumerate(cells)]),
        cell_text_documents=[types.TextDocumentItem(uri=f"{nb}#cell{i}", language_id="python", version=1, text=t)
                             for i, (_, t) in enumerate(cells)]))
    result = (await _probe(client, f"{nb}#cell2", 0))["result"]
    assert result["status"] == "ok" and result["cell"] == 2 and result["ran_cells"] == [1]
    # A probe that worked is no notification (the view shows it), only a line in the log.
    await wait_for(lambda: any("cell 3 ran clean" in m.message for m in client.log_messages))
    assert not any("ran clean" in m.message for m in client.messages)
    assert any("ran cell 2 first" in note for note in result["notes"])
