"""The "Probe cell" command over LSP: a real server, a real kernel, a simulated GPU."""
from __future__ import annotations

import asyncio
import sys

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .probe_lsp_helpers import SCRIPT, open_file, wait_for

@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "torchplace_server"]))
async def client(lsp_client: LanguageClient):
    caps = client_capabilities("visual-studio-code")
    caps.window.work_done_progress = True

    @lsp_client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        return None

    await lsp_client.initialize_session(types.InitializeParams(capabilities=caps))
    yield
    await lsp_client.shutdown_session()


async def test_probe_cell_command_shows_lines_error_summary_and_progress(client: LanguageClient, tmp_path):
    uri = open_file(client, tmp_path, "train.py", SCRIPT)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    last_cell = [lens for lens in lenses if lens.command.command == "torchplace.probeCell"][-1]

    result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.probeCell", arguments=last_cell.command.arguments))

    assert result["ran"] is True
    probe = result["result"]
    assert probe["status"] == "error" and probe["simulated"] is True
    assert probe["error"]["line"] == 9 and probe["ran_cells"] == [0, 1]

    def probe_diagnostics():
        return [d for d in client.diagnostics.get(uri, ()) if d.source == "torchplace probe"]

    await wait_for(lambda: probe_diagnostics())
    errors = [d for d in probe_diagnostics() if d.severity == types.DiagnosticSeverity.Error]
    assert len(errors) == 1 and errors[0].range.start.line == 8
    assert errors[0].message.startswith(
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cpu, different from other "
        "tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)")

    # A push-mode client keeps one list per URI: the engine's findings stay next to the probe's.
    engine = [d for d in client.diagnostics[uri] if d.source != "torchplace probe"]
    assert [d.range.start.line for d in engine if d.code == "TP102"] == [8]

    await wait_for(lambda: client.messages)
    assert any("torchplace probe" in m.message and "line 9" in m.message for m in client.messages)
    assert any("✗ RuntimeError" in m.message and "xb: cuda:0 float32 [8, 4]" in m.message for m in client.log_messages)
    reports = [r for values in client.progress_reports.values() for r in values]
    assert any(isinstance(r, types.WorkDoneProgressBegin) and r.cancellable for r in reports)
    assert any(isinstance(r, types.WorkDoneProgressEnd) for r in reports)

    # Probing the middle cell: the kernel is warm, so nothing above runs again.
    middle = [lens for lens in lenses if lens.command.command == "torchplace.probeCell"][-2]
    again = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.probeCell", arguments=middle.command.arguments))
    assert again["result"]["status"] == "ok" and again["result"]["ran_cells"] == []
    await wait_for(lambda: any("host→device" in d.message for d in probe_diagnostics()))
    moved = [d for d in probe_diagnostics() if d.range.start.line == 5]
    assert moved and moved[0].message == "→ cuda:0 float32 [8, 4]  host→device 128 B"
    assert moved[0].severity == types.DiagnosticSeverity.Information


async def test_cancel_from_the_progress_bar_interrupts_the_cell(client: LanguageClient, tmp_path):
    text = "import time\n# %%\ntime.sleep(120)\n"
    uri = open_file(client, tmp_path, "slow.py", text)
    running = asyncio.ensure_future(client.workspace_execute_command_async(types.ExecuteCommandParams(
        command="torchplace.probeCell", arguments=[uri, 1])))

    def probing_token():
        for token, values in client.progress_reports.items():
            if any(isinstance(v, types.WorkDoneProgressReport) and "probing" in (v.message or "") for v in values):
                return token
        return None

    await wait_for(probing_token)
    await asyncio.sleep(0.5)
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=probing_token()))
    result = await asyncio.wait_for(running, timeout=60)
    assert result["result"]["status"] == "cancelled"
    assert result["result"]["error"]["line"] == 3


async def test_probe_from_top_restarts_and_closing_releases_the_kernel(client: LanguageClient, tmp_path):
    text = "import torch\nstate = torch.zeros(2)\n# %%\nstate += 1\n"
    uri = open_file(client, tmp_path, "state.py", text)

    async def probe(*options):
        result = await client.workspace_execute_command_async(types.ExecuteCommandParams(
            command="torchplace.probeCell", arguments=[uri, 3, *options]))
        assert result["result"]["status"] == "ok"
        return result["result"]["ran_cells"]

    assert await probe() == [0]  # a new kernel runs the cell above first
    assert await probe() == []  # warm: nothing above runs again
    assert await probe({"fromTop": True}) == [0]  # restarted: the cell above runs again
    assert await probe() == []

    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=2, text=text)))
    assert await probe() == [0]  # closing shut the kernel down: a fresh one starts
