"""Pull diagnostics for a client that advertises them (never push), eager edits
as plain `changes` for a client without resolve/documentChanges, settings from
workspace/configuration and pyproject.toml, and bad settings."""
from __future__ import annotations

import asyncio

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pygls import uris
from pygls.exceptions import JsonRpcRequestCancelled

from torchplace_rules import Config, apply_fixes, check_source

from lsp_helpers import (
    DISCARDED_TO, MIXED_DEVICES, SEED_SCRIPT, Docs, accept_registrations, change_notebook_cell, expected, expected_full, observed,
    observed_full,
    record_published, requires_rule, server_command, wait_for_published,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command()), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    record_published(lsp_client)
    registrations = accept_registrations(lsp_client)
    folder = tmp_path_factory.mktemp("pull")
    caps = types.ClientCapabilities(
        notebook_document=types.NotebookDocumentClientCapabilities(
            synchronization=types.NotebookDocumentSyncClientCapabilities()
        ),
        text_document=types.TextDocumentClientCapabilities(
            diagnostic=types.DiagnosticClientCapabilities(dynamic_registration=False),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(value_set=["quickfix", "source"])
                )
            ),
        ),
        workspace=types.WorkspaceClientCapabilities(
            configuration=True,
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True),
            did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True),
        ),
    )
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=caps,
            root_uri=uris.from_fs_path(str(folder)),
            workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(folder)), name="pull")],
        )
    )
    assert result.capabilities.diagnostic_provider is not None
    for _ in range(100):  # the watcher is registered right after `initialized`
        if registrations:
            break
        await asyncio.sleep(0.02)
    lsp_client.folder = folder
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def docs(client):
    return Docs(client, client.folder)


async def pull(client, uri, previous=None):
    return await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous)
    )


async def change_settings(client, settings):
    client.set_configuration({"torchplace": settings})
    before = client.diagnostic_refresh_count
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    for _ in range(1500):  # an upper bound for a busy machine: it returns on the refresh itself
        if client.diagnostic_refresh_count > before:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("no workspace/diagnostic/refresh after a settings change")


async def test_pull_reports_engine_findings_and_never_pushes(client, docs):
    uri = docs.open("seed.py", SEED_SCRIPT)
    report = await pull(client, uri)
    assert report.kind == "full"
    assert observed_full(report.items) == expected_full(SEED_SCRIPT, str(client.folder / "seed.py"))
    again = await pull(client, uri, report.result_id)
    assert again.kind == "unchanged" and again.result_id == report.result_id
    version = docs.replace(uri, (0, 0), (0, 0), "# a comment\n")
    edited = await pull(client, uri, report.result_id)
    assert edited.kind == "full"
    assert observed(edited.items) == expected(docs.texts[uri], str(client.folder / "seed.py"))
    assert version == 2
    docs.close(uri)
    await asyncio.sleep(0.1)
    assert client.published == [], "a pull client must never get publishDiagnostics"


async def test_cancelled_pull_leaves_the_server_responsive(client, docs):
    big = SEED_SCRIPT * 150  # ~3,500 lines
    uri = docs.open("big.py", big)
    small = docs.open("small.py", DISCARDED_TO)
    pending = asyncio.ensure_future(
        client.protocol.send_request_async(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)),
            msg_id="pull-to-cancel",
        )
    )
    await asyncio.sleep(0.05)  # the request is on the wire and being analysed
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="pull-to-cancel"))
    with pytest.raises(JsonRpcRequestCancelled):
        await pending
    report = await pull(client, small)  # other documents are not blocked
    assert observed(report.items) == expected(DISCARDED_TO, str(client.folder / "small.py"))
    full = await pull(client, uri)
    assert len(full.items) == len(check_source(big, str(client.folder / "big.py")))
    docs.close(uri)
    docs.close(small)


@requires_rule("TP201")
async def test_eager_quick_fix_uses_plain_changes_without_document_changes(client, docs):
    uri = docs.open("eager.py", DISCARDED_TO)
    report = await pull(client, uri)
    diag = next(d for d in report.items if d.code == "TP201")
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=diag.range,
            context=types.CodeActionContext(diagnostics=[diag]),
        )
    )
    fix = next(a for a in actions if a.is_preferred)
    assert fix.edit is not None and fix.edit.document_changes is None
    docs.apply_workspace_edit(fix.edit)
    finding = next(f for f in check_source(DISCARDED_TO) if f.code == "TP201")
    assert docs.texts[uri] == apply_fixes(DISCARDED_TO, [finding])[0]
    kinds = [a.kind for a in actions if isinstance(a, types.CodeAction)]  # lsprotocol reads actions with a command as Commands
    assert "source.fixAll.torchplace" in kinds
    assert "Show documentation for TP201" in [a.title for a in actions]
    docs.close(uri)


async def test_settings_from_workspace_configuration(client, docs):
    uri = docs.open("settings.py", MIXED_DEVICES + DISCARDED_TO.split("\n", 2)[2])
    text = docs.texts[uri]
    await change_settings(client, {"ignore": ["TP101"], "severity": {"TP201": "hint"}, "interpreter": ["/usr/bin/python3"],
                                   "extraDeviceNames": ["gpu"], "perFileIgnores": {"other_*.py": ["TP2"]}})
    assert not [m for m in client.messages if "extraDeviceNames" in m.message or "perFileIgnores" in m.message]
    report = await pull(client, uri)
    cfg = Config.from_dict({"ignore": ["TP101"], "severity": {"TP201": "hint"}, "extra-device-names": ["gpu"],
                            "per-file-ignores": {"other_*.py": ["TP2"]}})
    assert observed(report.items) == expected(text, str(client.folder / "settings.py"), cfg)
    assert "TP101" not in [d.code for d in report.items]
    await change_settings(client, {"enable": False})
    assert list((await pull(client, uri)).items) == []
    await change_settings(client, {})
    assert observed((await pull(client, uri)).items) == expected(text, str(client.folder / "settings.py"))
    docs.close(uri)


async def test_ignore_patterns_match_folders_trailing_parts_and_stay_fast_when_long(client, docs):
    """`ignorePatterns` go through the engine's `GlobSet`: a folder name ignores what lies below it,
    a relative glob matches a trailing part of the path; a long list is accepted as a whole."""
    for sub in ("vendor/lib", "gen", "src"):
        (client.folder / sub).mkdir(parents=True, exist_ok=True)
    vendored = docs.open("vendor/lib/seed.py", SEED_SCRIPT)
    generated = docs.open("gen/model_pb.py", SEED_SCRIPT)
    kept = docs.open("src/seed.py", SEED_SCRIPT)
    many = [f"unrelated_{i}/*.py" for i in range(100_000)]
    await change_settings(client, {"ignorePatterns": ["vendor", "gen/*_pb.py", *many]})
    assert list((await pull(client, vendored)).items) == []
    assert list((await pull(client, generated)).items) == []
    assert observed((await pull(client, kept)).items) == expected(SEED_SCRIPT, str(client.folder / "src/seed.py"))
    await change_settings(client, {})
    assert observed((await pull(client, vendored)).items) == expected(SEED_SCRIPT, str(client.folder / "vendor/lib/seed.py"))
    for uri in (vendored, generated, kept):
        docs.close(uri)


async def test_bad_setting_is_named_and_defaults_are_used(client, docs):
    uri = docs.open("bad.py", SEED_SCRIPT)
    before = len(client.messages)
    await change_settings(client, {"select": 5, "severty": {"TP101": "hint"}, "enable": "yes"})
    shown = " ".join(m.message for m in client.messages[before:])
    for name in ("torchplace.select", "torchplace.severty", "torchplace.enable"):
        assert name in shown
    assert all(m.type == types.MessageType.Error for m in client.messages[before:])
    report = await pull(client, uri)
    assert observed(report.items) == expected(SEED_SCRIPT, str(client.folder / "bad.py"))
    await change_settings(client, {})
    docs.close(uri)


async def test_pyproject_is_merged_and_reloaded_when_it_changes(client, docs):
    registered = [r.register_options for p in client.registrations for r in p.registrations
                  if r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES]
    assert registered, "the server should watch pyproject.toml files"
    project = client.folder / "proj"
    (project / "pkg").mkdir(parents=True)
    uri = docs.open("proj/pkg/train.py", SEED_SCRIPT)
    path = str(project / "pkg" / "train.py")
    assert observed((await pull(client, uri)).items) == expected(SEED_SCRIPT, path)
    pyproject = project / "pyproject.toml"
    pyproject.write_text('[tool.torchplace]\nignore = ["TP1"]\n')
    before = client.diagnostic_refresh_count
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uris.from_fs_path(str(pyproject)), type=types.FileChangeType.Created)]
        )
    )
    for _ in range(200):
        if client.diagnostic_refresh_count > before:
            break
        await asyncio.sleep(0.02)
    report = await pull(client, uri)
    assert observed(report.items) == expected(SEED_SCRIPT, path, Config.from_dict({"ignore": ["TP1"]}))
    assert not [d for d in report.items if d.code.startswith("TP1")]
    # A broken project table is named, and the editor settings are used instead.
    pyproject.write_text('[tool.torchplace]\nselct = ["TP1"]\n')
    before_msgs = len(client.messages)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uris.from_fs_path(str(pyproject)), type=types.FileChangeType.Changed)]
        )
    )
    report = await pull(client, uri)
    assert observed(report.items) == expected(SEED_SCRIPT, path)
    assert any("selct" in m.message for m in client.messages[before_msgs:])
    docs.close(uri)


async def test_notebook_cells_are_pushed_even_to_a_pulling_client(client):
    """A pulling client asks only for the cells it shows; the notebook's findings are pushed for
    every cell on every change instead (pulls for cells get empty reports: no duplicates)."""
    nb = "file:///tmp/torchplace-pull/refresh.ipynb"
    cells = ["import torch\ndevice = torch.device(\"cuda\")\nx = torch.zeros(3)", "x.to(device)"]
    cell_uris = [f"vscode-notebook-cell:/tmp/torchplace-pull/refresh.ipynb#c{i}" for i in range(2)]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=nb, notebook_type="jupyter-notebook", version=1,
                cells=[types.NotebookCell(kind=types.NotebookCellKind.Code, document=u) for u in cell_uris],
            ),
            cell_text_documents=[
                types.TextDocumentItem(uri=u, language_id="python", version=1, text=t) for u, t in zip(cell_uris, cells)
            ],
        )
    )
    program = "\n".join(cells) + "\n"
    pushed = await wait_for_published(client, cell_uris[1], 1)
    want = [(f.code, f.span.start_line - 3, f.message) for f in check_source(program) if f.span.start_line >= 3]
    assert want and sorted((d.code, d.range.start.line, d.message) for d in pushed.diagnostics) == sorted(want)
    assert list((await wait_for_published(client, cell_uris[0], 1)).diagnostics) == []
    assert list((await pull(client, cell_uris[1])).items) == []
    # Change only cell 0: `x` is no longer a tensor, so cell 1's finding goes, and cell 1 is republished.
    change_notebook_cell(client, nb, 2, cell_uris[0], 2, types.Range(start=types.Position(2, 4), end=types.Position(2, 18)), "[1]")
    for _ in range(300):
        latest = [p for p in client.published if p.uri == cell_uris[1]]
        if len(latest) >= 2:
            break
        await asyncio.sleep(0.02)
    assert [d.code for d in latest[-1].diagnostics] == []
    client.notebook_document_did_close(
        types.DidCloseNotebookDocumentParams(
            notebook_document=types.NotebookDocumentIdentifier(uri=nb),
            cell_text_documents=[types.TextDocumentIdentifier(uri=u) for u in cell_uris],
        )
    )


async def test_probe_settings_are_accepted_and_wrong_ones_named(client, docs):
    uri = docs.open("probe_settings.py", SEED_SCRIPT)
    before = len(client.messages)
    await change_settings(client, {"probe": {"timeout": 30, "simulateGpu": "on", "existingKernel": ""}})
    report = await pull(client, uri)  # the pull is answered after the settings were applied
    assert observed(report.items) == expected(SEED_SCRIPT, str(client.folder / "probe_settings.py"))
    assert [m.message for m in client.messages[before:]] == []
    await change_settings(client, {"probe": {"timeout": -1, "simulateGpu": "maybe", "kernel": "x"}})
    await pull(client, uri)
    shown = " ".join(m.message for m in client.messages[before:])
    for name in ("torchplace.probe.timeout", "torchplace.probe.simulateGpu", "torchplace.probe.kernel"):
        assert name in shown
    await change_settings(client, {})
    docs.close(uri)


@pytest.mark.parametrize("content,named", [("tool = 3\n", "'tool' must be a table"),
                                           ("[tool.torchplace\nselect = 1\n", "invalid TOML")])
async def test_an_unusable_pyproject_is_named_once_and_checking_goes_on(client, docs, content, named):
    project = client.folder / f"odd_{len(content)}"
    project.mkdir()
    (project / "pyproject.toml").write_text(content)
    before = len(client.messages)
    uri = docs.open(f"{project.name}/train.py", SEED_SCRIPT)
    path = str(project / "train.py")
    assert observed((await pull(client, uri)).items) == expected(SEED_SCRIPT, path)
    docs.set_text(uri, SEED_SCRIPT + "\n")
    assert observed((await pull(client, uri)).items) == expected(SEED_SCRIPT + "\n", path)
    shown = [m.message for m in client.messages[before:]]
    assert len(shown) == 1 and named in shown[0] and "pyproject.toml" in shown[0], shown
    docs.close(uri)


async def test_wrong_settings_are_named_in_one_message_with_the_value_used(client, docs):
    uri = docs.open("one_message.py", SEED_SCRIPT)
    before = len(client.messages)
    await change_settings(client, {"debounce": -5, "diagnosticMode": "everything", "severity": {"TP201": "fatal"}})
    await pull(client, uri)
    shown = [m.message for m in client.messages[before:]]
    assert len(shown) == 1, shown
    for part in ("torchplace.debounce", "using 150", "torchplace.diagnosticMode", "using openFiles",
                 "torchplace.severity", "fatal"):
        assert part in shown[0]
    # Another setting changes while the wrong ones stay: they are not shown again.
    await change_settings(client, {"debounce": -5, "diagnosticMode": "everything", "severity": {"TP201": "fatal"},
                                   "ignore": ["TP4"]})
    await pull(client, uri)
    assert len(client.messages) == before + 1, [m.message for m in client.messages[before:]]
    await change_settings(client, {})
    docs.close(uri)


async def test_a_pulling_client_is_asked_to_pull_again_when_a_syntax_error_falls_due(client, docs):
    await change_settings(client, {"syntaxErrorDelay": 300})
    uri = docs.open("due.py", SEED_SCRIPT)
    before = observed((await pull(client, uri)).items)
    refreshes = client.diagnostic_refresh_count
    docs.replace(uri, (0, 0), (0, 0), "(\n")
    during = observed((await pull(client, uri)).items)
    assert "TP001" not in [d[0] for d in during] and len(during) == len(before)
    for _ in range(1500):
        if client.diagnostic_refresh_count > refreshes:
            break
        await asyncio.sleep(0.02)
    assert client.diagnostic_refresh_count > refreshes, "no refresh when the syntax error fell due"
    after = observed((await pull(client, uri)).items)
    assert [d[0] for d in after].count("TP001") == 1
    await change_settings(client, {})
    docs.close(uri)
