"""A rule that raises is isolated and logged; bad requests do not kill the server."""
from __future__ import annotations


import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from torchplace_rules import Config

from lsp_helpers import SEED_SCRIPT, Docs, accept_registrations, expected, observed, record_published, server_command, wait_for_published

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command("--exploding-rule")), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    record_published(lsp_client)
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), initialization_options={"debounce": 0})
    )
    lsp_client.folder = tmp_path_factory.mktemp("robust")
    yield
    await lsp_client.shutdown_session()


async def test_a_crashing_rule_is_logged_and_the_others_still_report(client):
    docs = Docs(client, client.folder)
    text = SEED_SCRIPT + "# EXPLODE\n"
    uri = docs.open("explode.py", text)
    params = await wait_for_published(client, uri, 1)
    # Every other rule still reports (the test process has no TP999 at all).
    assert observed(params.diagnostics) == expected(text, str(client.folder / "explode.py"))
    logged = [m for m in client.log_messages if "TP999" in m.message]
    assert logged and logged[0].type == types.MessageType.Error
    assert "test-exploding-rule" in logged[0].message and "explode.py" in logged[0].message
    assert "boom from the exploding test rule" in logged[0].message
    # The server is alive and keeps working on the next edit.
    version = docs.set_text(uri, text + "z = 1\n")
    params = await wait_for_published(client, uri, version)
    assert observed(params.diagnostics) == expected(docs.texts[uri], str(client.folder / "explode.py"))
    docs.close(uri)


async def test_unknown_command_arguments_do_not_kill_the_server(client):
    with pytest.raises(Exception):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="torchplace.probeCell", arguments=["only-one-argument"])
        )
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri="file:///not/open.py"))
    )
    assert list(lenses) == []


async def test_pyproject_change_is_noticed_without_file_watching(client):
    """This client cannot watch files: the pyproject's modification time is checked instead."""
    project = client.folder / "nowatch"
    project.mkdir()
    pyproject = project / "pyproject.toml"
    pyproject.write_text("[tool.torchplace]\nignore = []\n")
    docs = Docs(client, project)
    uri = docs.open("train.py", SEED_SCRIPT)
    path = str(project / "train.py")
    params = await wait_for_published(client, uri, 1)
    assert observed(params.diagnostics) == expected(SEED_SCRIPT, path)
    pyproject.write_text('[tool.torchplace]\nignore = ["TP1", "TP2"]\n')
    version = docs.set_text(uri, SEED_SCRIPT + "\n")
    params = await wait_for_published(client, uri, version)
    assert observed(params.diagnostics) == expected(docs.texts[uri], path, Config.from_dict({"ignore": ["TP1", "TP2"]}))
    assert not [d for d in params.diagnostics if d.code.startswith(("TP1", "TP2"))]
    docs.close(uri)


async def test_a_slow_document_does_not_block_a_small_one(client):
    docs = Docs(client, client.folder)
    big = docs.open("slow_big.py", SEED_SCRIPT * 200)  # ~5,000 lines: the slow one
    small = docs.open("quick_small.py", SEED_SCRIPT)
    small_params = await wait_for_published(client, small, 1)
    big_params = await wait_for_published(client, big, 1, timeout=60)
    order = [p.uri for p in client.published if p.uri in (big, small)]
    assert order.index(small) < order.index(big), "the small file waited for the big one"
    assert observed(small_params.diagnostics) == expected(SEED_SCRIPT, str(client.folder / "quick_small.py"))
    assert len(big_params.diagnostics) == len(expected(docs.texts[big], str(client.folder / "slow_big.py")))
    docs.close(big)
    docs.close(small)


async def test_a_document_in_another_language_is_not_checked(client):
    uri = (client.folder / "pyproject.toml").as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="toml", version=1, text="[tool.torchplace]\nselect = [\n")
        )
    )
    params = await wait_for_published(client, uri, 1)
    assert list(params.diagnostics) == []
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
