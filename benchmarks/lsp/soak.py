"""Memory under typing and under opening and closing documents (issue 15, item 5).

`rss_under_typing`: RSS after 1,000 and after 10,000 incremental changes to one
document (a character typed and taken out again at its end; a diagnostics pull
every 50 changes, as an editor pulls while typing).  `rss_over_open_close`: RSS
after 1,000 and after 3,000 open/check/close cycles of new documents (the first
few hundred fill caches of bounded size).  RSS is VmRSS of the server process
once the last pull is answered.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from .rpc_client import LspProcess, started, status_mb

PULL_CAPS = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}


async def _pull(proc: LspProcess, uri: str) -> None:
    await proc.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})


def _open(proc: LspProcess, uri: str, text: str) -> None:
    proc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})


async def _rss_at(proc: LspProcess, uri: str) -> float:
    await _pull(proc, uri)
    await asyncio.sleep(0.5)
    return status_mb(proc.pid, "VmRSS")


async def rss_under_typing(command: list[str], text: str, folder: Path, marks=(1_000, 10_000)) -> dict[int, float]:
    proc = await started(command, PULL_CAPS, {"debounce": 0}, folder.as_uri())
    uri = (folder / "soak.py").as_uri()
    _open(proc, uri, text)
    await _pull(proc, uri)
    line = len(text.splitlines())
    out: dict[int, float] = {}
    try:
        for change in range(1, max(marks) + 1):
            typed = change % 2 == 1  # type "#" at the start of the last line, then take it out again
            end = {"line": line, "character": 0 if typed else 1}
            edit = {"range": {"start": {"line": line, "character": 0}, "end": end}, "text": "#" if typed else ""}
            proc.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": change + 1}, "contentChanges": [edit]})
            if change % 50 == 0:
                await _pull(proc, uri)
            if change in marks:
                out[change] = await _rss_at(proc, uri)
        return out
    finally:
        await proc.stop()


async def rss_over_open_close(command: list[str], text: str, folder: Path, marks=(1_000, 3_000)) -> dict[int, float]:
    proc = await started(command, PULL_CAPS, {"debounce": 0}, folder.as_uri())
    out: dict[int, float] = {}
    try:
        for cycle in range(1, max(marks) + 1):
            uri = (folder / f"cycle_{cycle}.py").as_uri()
            _open(proc, uri, text + f"# {cycle}\n")
            await _pull(proc, uri)
            proc.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            if cycle in marks:
                out[cycle] = await _rss_at(proc, uri)
        return out
    finally:
        await proc.stop()
