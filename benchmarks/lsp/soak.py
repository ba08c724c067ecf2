"""Memory under typing and under opening and closing documents (issue 15, item 5).

`rss_under_typing`: RSS after 1,000 and after 10,000 incremental one-character
changes to one document (each answered by a diagnostics pull every 50 changes,
as an editor pulls while typing).  `rss_over_open_close`: RSS after 100 and
after 1,000 open/check/close cycles of fresh documents.  RSS is VmRSS of the
server process after a full garbage collection is given time to run (a pull
after the burst settles the work).
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Optional

from .rpc_client import LspProcess

PULL_CAPS = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}


def rss_mb(pid: int) -> Optional[float]:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


async def _settled(proc: LspProcess, uri: str) -> None:
    await proc.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})


async def rss_under_typing(command: list[str], text: str, folder: Path, marks=(1_000, 10_000)) -> dict[int, float]:
    proc = LspProcess(command)
    await proc.start()
    await proc.initialize(PULL_CAPS, {"debounce": 0}, folder.as_uri())
    uri = (folder / "soak.py").as_uri()
    proc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})
    await _settled(proc, uri)
    line = len(text.splitlines())
    out: dict[int, float] = {}
    try:
        for change in range(1, max(marks) + 1):
            # Type a comment character on the last line, then take it out again: the size stays.
            if change % 2:
                edit = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": "#"}
            else:
                edit = {"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": ""}
            proc.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": change + 1}, "contentChanges": [edit]})
            if change % 50 == 0:
                await _settled(proc, uri)
            if change in marks:
                await _settled(proc, uri)
                await asyncio.sleep(0.5)
                out[change] = rss_mb(proc.pid)
        return out
    finally:
        await proc.stop()


async def rss_over_open_close(command: list[str], text: str, folder: Path, marks=(100, 1_000)) -> dict[int, float]:
    proc = LspProcess(command)
    await proc.start()
    await proc.initialize(PULL_CAPS, {"debounce": 0}, folder.as_uri())
    out: dict[int, float] = {}
    try:
        for cycle in range(1, max(marks) + 1):
            uri = (folder / f"cycle_{cycle}.py").as_uri()
            proc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                  "text": text + f"# {cycle}\n"}})
            await _settled(proc, uri)
            proc.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            if cycle in marks:
                await _settled(proc, uri)
                await asyncio.sleep(0.5)
                out[cycle] = rss_mb(proc.pid)
        return out
    finally:
        await proc.stop()
