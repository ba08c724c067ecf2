"""A keystroke burst (issue 14, item 7): N one-character changes sent as fast as a client can,
then the time until the diagnostics of the last version arrive.

Push: the server's debounce (150 ms, its default) coalesces the burst.  Pull: as VS Code does,
every change is followed by a `textDocument/diagnostic` request and the previous one, if still
unanswered, is cancelled (`$/cancelRequest`).  The characters are typed inside a comment at the
end of the file, so every version parses and has the same findings.
"""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

from .rpc_client import LspProcess

PUSH_CAPS = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
PULL_CAPS = {"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}}


async def burst(command: list[str], text: str, path: Path, changes: int, pull: bool) -> dict:
    proc = LspProcess(command)
    published: dict[int, float] = {}
    event = asyncio.Event()

    def notified(method, params):
        if method == "textDocument/publishDiagnostics" and params.get("version") is not None:
            published[params["version"]] = time.perf_counter()
            event.set()

    proc.on_notification = notified
    await proc.start()
    await proc.initialize(PULL_CAPS if pull else PUSH_CAPS, {}, path.parent.as_uri())
    uri = path.as_uri()
    body = text if text.endswith("\n") else text + "\n"
    line = len(body.splitlines())
    proc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": body + "#"}})
    if pull:
        await proc.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    else:
        while 1 not in published:
            event.clear()
            await event.wait()
    pending = None
    started = time.perf_counter()
    try:
        for i in range(changes):
            version = i + 2
            at = {"line": line, "character": 1 + i}
            proc.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                   "contentChanges": [{"range": {"start": at, "end": at}, "text": "x"}]})
            if pull:
                if pending is not None and not pending[1].done():
                    proc.notify("$/cancelRequest", {"id": pending[0]})
                msg_id = next(proc._ids)
                future = asyncio.get_running_loop().create_future()
                future.add_done_callback(lambda f: f.cancelled() or f.exception())  # cancelled ones are expected
                proc._pending[msg_id] = future
                proc._send({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/diagnostic",
                            "params": {"textDocument": {"uri": uri}}})
                pending = (msg_id, future)
            if i % 200 == 0:
                await proc.proc.stdin.drain()
                await asyncio.sleep(0)
        await proc.proc.stdin.drain()
        sent = time.perf_counter()
        last = changes + 1
        if pull:
            try:
                await pending[1]
            except RuntimeError:  # cancelled: should not be, it is the last one
                pass
            done = time.perf_counter()
        else:
            while last not in published:
                event.clear()
                await asyncio.wait_for(event.wait(), 120)
            done = published[last]
        return {"changes": changes, "mode": "pull" if pull else "push", "send_s": sent - started,
                "caught_up_s": done - sent}
    finally:
        await proc.stop()
