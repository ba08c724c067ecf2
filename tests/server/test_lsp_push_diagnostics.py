"""Push diagnostics, code actions, hover and code lens against a VS Code 1.65-like
client (no pull diagnostics, lazy code-action resolve, versioned edits)."""
from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from torchplace_rules import apply_fixes, check_source, get_rule
from torchplace_server.rule_pages import render_page

from lsp_helpers import (
    BROKEN, DISCARDED_TO, accept_registrations, expected_full, observed_full, MIXED_DEVICES, SEED_SCRIPT, Docs, expected, observed, record_published,
    requires_rule, server_command, wait_for_published,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command("--no-probe")), scope="module")
async def client(lsp_client: LanguageClient, tmp_path_factory):
    record_published(lsp_client)
    accept_registrations(lsp_client)
    caps = client_capabilities("visual-studio-code")
    assert caps.text_document.diagnostic is None  # this client wants push
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=caps, initialization_options={"settings": {"debounce": 40}})
    )
    lsp_client.folder = tmp_path_factory.mktemp("push")
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def docs(client):
    return Docs(client, client.folder)


async def test_open_publishes_engine_findings_for_the_version(client, docs):
    uri = docs.open("seed.py", SEED_SCRIPT)
    params = await wait_for_published(client, uri, 1)
    assert observed_full(params.diagnostics) == expected_full(SEED_SCRIPT, str(client.folder / "seed.py"))
    for d in params.diagnostics:
        assert d.source == "torchplace"
        assert d.code_description is not None and d.code_description.href.startswith("file://")
        page = Path(d.code_description.href[len("file://"):])
        assert page.name == f"{d.code}.html"
        assert page.read_text() == render_page(get_rule(d.code))
    docs.close(uri)


async def test_burst_of_incremental_edits_reports_only_the_latest_version(client, docs):
    uri = docs.open("burst.py", "import torch\n")
    await wait_for_published(client, uri, 1)
    # Type the mixed-devices program character by character at the end of the file.
    addition = MIXED_DEVICES[len("import torch\n"):]
    line, col = 1, 0
    for ch in addition:
        docs.replace(uri, (line, col), (line, col), ch)
        if ch == "\n":
            line, col = line + 1, 0
        else:
            col += 1
    final = docs.versions[uri]
    assert docs.texts[uri] == MIXED_DEVICES
    params = await wait_for_published(client, uri, final)
    assert observed(params.diagnostics) == expected(MIXED_DEVICES, str(client.folder / "burst.py"))
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions), "an older version was published after a newer one"
    assert len(versions) < len(addition) / 2, "edits in a burst must be debounced"
    docs.close(uri)
    closed = await wait_for_published(client, uri, None)
    assert list(closed.diagnostics) == []


async def test_edits_mid_file_keep_diagnostics_equal_to_a_fresh_check(client, docs):
    """The server re-analyses only what an edit touched (analysis_memo); after each edit,
    and each wait, what it publishes is what a fresh check of the whole text reports."""
    helpers = "".join(
        f"\n\ndef helper_{i}(x):\n    y = torch.zeros(3)\n    return x + y\n" for i in range(6))
    text = SEED_SCRIPT + helpers
    uri = docs.open("midfile.py", text)
    await wait_for_published(client, uri, 1)
    path = str(client.folder / "midfile.py")
    edits = [
        ((2, 0), (2, 0), "import os\n\n"),  # moves every finding down two lines
        ((4, 0), (6, 0), ""),  # and back up
        ((SEED_SCRIPT.count("\n") + 5, 0), (SEED_SCRIPT.count("\n") + 5, 0), "    y = y.cuda()\n"),  # a conflict in helper_0
        ((0, 0), (0, 0), "# header\n"),
    ]
    for start, end, new_text in edits:
        version = docs.replace(uri, start, end, new_text)
        params = await wait_for_published(client, uri, version)
        assert observed_full(params.diagnostics) == expected_full(docs.texts[uri], path)
    docs.close(uri)


async def test_broken_file_keeps_one_syntax_diagnostic(client, docs):
    uri = docs.open("broken.py", BROKEN)
    params = await wait_for_published(client, uri, 1)
    assert [d.code for d in params.diagnostics] == ["TP001"]
    assert params.diagnostics[0].severity == types.DiagnosticSeverity.Error
    # Still alive, and recovers once fixed.
    fixed = BROKEN.replace("to(device\n", "to(device)\n")
    version = docs.set_text(uri, fixed)
    params = await wait_for_published(client, uri, version)
    assert observed(params.diagnostics) == expected(fixed, str(client.folder / "broken.py"))
    docs.close(uri)


async def _actions(client, uri, diagnostics, only=None):
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostics[0].range if diagnostics else types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
        )
    )


async def test_every_quick_fix_applies_the_engine_edit_and_rechecks(client, docs):
    text = SEED_SCRIPT
    path = str(client.folder / "fixes.py")
    fixable = [f for f in check_source(text, path) if f.fix is not None]
    if not fixable:
        pytest.skip("the engine has no fixable rule yet")
    for index, finding in enumerate(fixable):
        uri = docs.open(f"fix_{index}.py", text)
        params = await wait_for_published(client, uri, 1)
        diag = next(d for d in params.diagnostics if d.code == finding.code and d.range.start.line == finding.span.start_line)
        assert diag.data["fixable"] is True
        actions = await _actions(client, uri, [diag])
        fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix and a.title.startswith(finding.fix.title))
        assert fix.is_preferred is finding.fix.is_safe
        assert fix.edit is None  # lazily resolved for this client
        resolved = await client.code_action_resolve_async(fix)
        docs.apply_workspace_edit(resolved.edit)
        want, _ = apply_fixes(text, [finding], unsafe=True)
        assert docs.texts[uri] == want
        after = await wait_for_published(client, uri, docs.versions[uri])
        assert observed(after.diagnostics) == expected(want, str(client.folder / f"fix_{index}.py"))
        docs.close(uri)


async def _apply_preferred_fix(client, docs, uri, code):
    """Apply the preferred quick-fix of the first `code` diagnostic; returns that diagnostic."""
    params = await wait_for_published(client, uri, docs.versions[uri])
    diag = next(d for d in params.diagnostics if d.code == code)
    actions = await _actions(client, uri, [diag])
    fix = await client.code_action_resolve_async(next(a for a in actions if a.is_preferred))
    docs.apply_workspace_edit(fix.edit)
    return diag


@requires_rule("TP201")
async def test_discarded_to_quick_fix_assigns_the_result(client, docs):
    uri = docs.open("tp201.py", DISCARDED_TO)
    diag = await _apply_preferred_fix(client, docs, uri, "TP201")
    assert diag.range.start.line == 3 and diag.severity == types.DiagnosticSeverity.Warning
    assert docs.texts[uri].splitlines()[3] == "x = x.to(device)"
    after = await wait_for_published(client, uri, docs.versions[uri])
    assert "TP201" not in [d.code for d in after.diagnostics]
    docs.close(uri)


@requires_rule("TP101")
async def test_mixed_devices_error_with_related_information(client, docs):
    uri = docs.open("tp101.py", MIXED_DEVICES)
    diag = await _apply_preferred_fix(client, docs, uri, "TP101")
    assert diag.range.start.line == 4 and diag.severity == types.DiagnosticSeverity.Error
    assert diag.related_information, "mixed devices should point at where each side was created"
    assert all(r.location.uri == uri for r in diag.related_information)
    assert "b = torch.ones(2, device=device)" in docs.texts[uri]
    docs.close(uri)


async def test_fix_all_matches_the_engine(client, docs):
    text = SEED_SCRIPT
    path = str(client.folder / "fixall.py")
    uri = docs.open("fixall.py", text)
    await wait_for_published(client, uri, 1)
    actions = await _actions(client, uri, [], only=["source.fixAll"])
    want = text
    for _ in range(10):
        new, applied = apply_fixes(want, check_source(want, path))
        if not applied:
            break
        want = new
    if want == text:
        assert not actions
        pytest.skip("the engine has no safe fix for this script yet")
    (action,) = actions
    assert action.kind == "source.fixAll.torchplace"
    resolved = await client.code_action_resolve_async(action)
    docs.apply_workspace_edit(resolved.edit)
    assert docs.texts[uri] == want
    docs.close(uri)


async def test_ignore_comment_action_silences_the_line(client, docs):
    text = SEED_SCRIPT
    findings = [f for f in check_source(text) if f.code != "TP001"]
    if not findings:
        pytest.skip("the engine reports nothing on this script yet")
    target = findings[0]
    uri = docs.open("ignore.py", text)
    params = await wait_for_published(client, uri, 1)
    diag = next(d for d in params.diagnostics if d.code == target.code and d.range.start.line == target.span.start_line)
    actions = await _actions(client, uri, [diag])
    ignore = next(a for a in actions if a.title == f"Ignore {target.code} for this line")
    resolved = await client.code_action_resolve_async(ignore)
    docs.apply_workspace_edit(resolved.edit)
    line = docs.texts[uri].splitlines()[target.span.start_line]
    assert line.endswith(f"# torchplace: ignore[{target.code}]")
    after = await wait_for_published(client, uri, docs.versions[uri])
    assert not [d for d in after.diagnostics if d.code == target.code and d.range.start.line == target.span.start_line]
    assert observed(after.diagnostics) == expected(docs.texts[uri])
    docs.close(uri)


async def test_hover_on_a_flagged_range_shows_the_rule_docs(client, docs):
    text = SEED_SCRIPT
    findings = check_source(text)
    uri = docs.open("hover.py", text)
    await wait_for_published(client, uri, 1)
    nothing = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(0, 0))
    )
    assert nothing is None or findings and findings[0].span.start_line == 0
    if not findings:
        pytest.skip("the engine reports nothing on this script yet")
    f = findings[0]
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(f.span.start_line, f.span.start_col),
        )
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    value = hover.contents.value
    assert f.code in value and f.message in value and f"[Documentation for {f.code}](file://" in value
    assert len(value.splitlines()) <= 12, value
    docs.close(uri)


async def test_code_lens_above_each_cell_and_probe_not_installed(client, docs):
    text = "# %% setup\nimport torch\n\n# %% train\nx = torch.zeros(2)\n#%%\ny = 1\n"
    uri = docs.open("cells.py", text)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert [(l.range.start.line, l.command.title, l.command.command) for l in lenses] == [
        (0, "Probe cell", "torchplace.probeCell"),
        (3, "Probe cell", "torchplace.probeCell"),
        (5, "Probe cell", "torchplace.probeCell"),
    ]
    assert list(lenses[1].command.arguments) == [uri, 3]
    before = len(client.messages)
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="torchplace.probeCell", arguments=lenses[1].command.arguments)
    )
    assert result["ran"] is False and result["reason"] == "probe-not-installed"
    shown = client.messages[before:]
    assert shown and "probe is not installed" in shown[-1].message
    docs.close(uri)


async def test_a_path_that_needs_escaping_in_its_uri(client, docs):
    uri = docs.open("with space & 100%.py", DISCARDED_TO)
    assert "%20" in uri
    params = await wait_for_published(client, uri, 1)
    assert observed(params.diagnostics) == expected(DISCARDED_TO, str(client.folder / "with space & 100%.py"))
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert list(lenses) == []
    if params.diagnostics:
        actions = await _actions(client, uri, params.diagnostics[:1])
        assert actions
    docs.close(uri)
    closed = await wait_for_published(client, uri, None)
    assert list(closed.diagnostics) == []
