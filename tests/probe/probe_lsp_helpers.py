"""Shared by the probe's LSP tests: a script whose last cell fails on a GPU, opening a file, a wait."""
from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls import uris

SCRIPT = '''\
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# %%
model = torch.nn.Linear(4, 2).to(device)
x = torch.randn(8, 4)
xb = x.to(device)
y = model(xb)
# %%
out = model(x)
'''


async def wait_for(predicate, timeout=120.0):
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


def open_file(client, folder, name: str, text: str) -> str:
    """Write `text` to `folder/name` and open it in the editor; returns its URI."""
    path = folder / name
    path.write_text(text)
    uri = uris.from_fs_path(str(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
    return uri
