"""Shared helpers for the language-server tests (real server over stdio).

A plain module, not conftest.py: several test folders exist and `conftest`
as a module name would be ambiguous."""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Optional

import pytest
from lsprotocol import types
from pygls import uris

from torchplace_rules import Config, check_source, get_rule

HERE = Path(__file__).resolve().parent
LAUNCHER = str(HERE / "server_with_test_hooks.py")
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS

# The examples, with the engine's expected codes once the rules exist.
DISCARDED_TO = "import torch\ndevice = torch.device(\"cuda\")\nx = torch.zeros(3)\nx.to(device)\n"
MIXED_DEVICES = (
    "import torch\ndevice = torch.device(\"cuda\")\n"
    "a = torch.ones(2, device=device)\nb = torch.ones(2)\nc = a + b\n"
)
BROKEN = "import torch\nmodel = torch.nn.Linear(4, 2).to(device\nx = 1\n"

# A seed-like training script with several kinds of placement bugs.
SEED_SCRIPT = '''\
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


model = Net()
model.to(device)
x = torch.zeros(8, 4)
x.to(device)
y = model(x)
a = torch.ones(2, device=device)
b = torch.ones(2)
c = a + b
'''


def server_command(*flags: str) -> list[str]:
    return [sys.executable, LAUNCHER, *flags]


def has_rule(code: str) -> bool:
    try:
        get_rule(code)
    except KeyError:
        return False
    return True


def requires_rule(code: str):
    """Concrete tests on a rule run once that rule is in the catalog (rules land one by one)."""
    return pytest.mark.skipif(not has_rule(code), reason=f"{code} is not in the engine yet")


def expected(text: str, path: Optional[str] = None, config: Optional[Config] = None):
    """What the engine says, in the shape compared with LSP diagnostics (ASCII texts)."""
    return sorted(
        (f.code, f.span.start_line, f.span.start_col, f.span.end_line, f.span.end_col, f.message, int(f.severity))
        for f in check_source(text, path, config)
    )


def observed(diagnostics) -> list:
    return sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.message, int(d.severity))
        for d in diagnostics
    )


def record_published(client) -> list[types.PublishDiagnosticsParams]:
    """Keep every publishDiagnostics (with its version): pytest-lsp keeps only the last list."""
    if getattr(client, "published", None) is not None:
        return client.published
    client.published = []
    features = client.protocol.fm.features
    original = features[PUBLISH]

    def recording(params):
        client.published.append(params)
        return original(params)

    features[PUBLISH] = recording
    return client.published


async def wait_for_published(client, uri: str, version: Optional[int], timeout: float = 15.0) -> types.PublishDiagnosticsParams:
    """The first publish for `uri` at `version` (waiting for it if needed)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for params in client.published:
            if params.uri == uri and params.version == version:
                return params
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise AssertionError(f"no diagnostics for {uri} version {version}; got {[(p.uri, p.version) for p in client.published]}")
        try:
            await asyncio.wait_for(client.wait_for_notification(PUBLISH), remaining)
        except asyncio.TimeoutError:
            pass


class Docs:
    """Open/edit/close documents with correct versions."""

    def __init__(self, client, folder: Path) -> None:
        self.client = client
        self.folder = folder
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}

    def open(self, name: str, text: str, write: bool = True) -> str:
        path = self.folder / name
        if write:
            path.write_text(text)
        uri = uris.from_fs_path(str(path))
        self.versions[uri] = 1
        self.texts[uri] = text
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
            )
        )
        return uri

    def replace(self, uri: str, start: tuple[int, int], end: tuple[int, int], new_text: str) -> int:
        """One incremental change; returns the new version."""
        text = self.texts[uri]
        self.texts[uri] = apply_range(text, start, end, new_text)
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=types.Position(*start), end=types.Position(*end)), text=new_text
                    )
                ],
            )
        )
        return self.versions[uri]

    def apply_workspace_edit(self, edit: types.WorkspaceEdit) -> None:
        """Apply an edit as an editor would (checking versions), and send the change."""
        changes: list[tuple[str, list[types.TextEdit]]] = []
        if edit.document_changes:
            for dc in edit.document_changes:
                assert dc.text_document.version == self.versions[dc.text_document.uri], "edit made for another version"
                changes.append((dc.text_document.uri, list(dc.edits)))
        else:
            changes = list((edit.changes or {}).items())
        for uri, edits in changes:
            text = self.texts[uri]
            for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
                text = apply_range(text, (e.range.start.line, e.range.start.character), (e.range.end.line, e.range.end.character), e.new_text)
            self.set_text(uri, text)

    def set_text(self, uri: str, text: str) -> int:
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )


def apply_range(text: str, start: tuple[int, int], end: tuple[int, int], new_text: str) -> str:
    lines = text.splitlines(keepends=True)

    def offset(line: int, col: int) -> int:
        if line >= len(lines):
            return len(text)
        return sum(len(l) for l in lines[:line]) + col

    a, b = offset(*start), offset(*end)
    return text[:a] + new_text + text[b:]


def accept_registrations(client) -> list[types.RegistrationParams]:
    """Answer client/registerCapability as an editor does, remembering what was registered."""
    if getattr(client, "registrations", None) is not None:
        return client.registrations
    client.registrations = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(params: types.RegistrationParams) -> None:
        client.registrations.append(params)

    return client.registrations


def expected_full(text: str, path: Optional[str] = None, config: Optional[Config] = None):
    """`expected` plus the Unnecessary tag and the related locations and messages."""
    return sorted(
        (f.code, f.span.start_line, f.span.start_col, f.span.end_line, f.span.end_col, f.message, int(f.severity),
         f.unnecessary,
         tuple(sorted(((r.span.start_line, r.span.start_col, r.span.end_line, r.span.end_col), r.message) for r in f.related)))
        for f in check_source(text, path, config)
    )


def observed_full(diagnostics) -> list:
    return sorted(
        (d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.message, int(d.severity),
         bool(d.tags) and types.DiagnosticTag.Unnecessary in d.tags,
         tuple(sorted(((r.location.range.start.line, r.location.range.start.character, r.location.range.end.line,
                        r.location.range.end.character), r.message) for r in d.related_information or [])))
        for d in diagnostics
    )


def change_notebook_cell(client, notebook_uri: str, notebook_version: int, cell: str, cell_version: int,
                         range_: types.Range, text: str) -> None:
    """notebookDocument/didChange with one incremental text change in one cell."""
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(uri=notebook_uri, version=notebook_version),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(
                    text_content=[
                        types.NotebookDocumentCellContentChanges(
                            document=types.VersionedTextDocumentIdentifier(uri=cell, version=cell_version),
                            changes=[types.TextDocumentContentChangePartial(range=range_, text=text)],
                        )
                    ]
                )
            ),
        )
    )
