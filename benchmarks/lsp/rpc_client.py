"""A minimal LSP client over a subprocess's stdio, for timing (no framework overhead).

Answers the requests servers send (workspace/configuration, registerCapability,
workDoneProgress/create) and hands every notification to `on_notification`.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import os
from typing import Any, Callable, Optional


class LspProcess:
    def __init__(self, command: list[str], env: Optional[dict] = None) -> None:
        self.command = command
        self.env = env
        self.proc: Optional[asyncio.subprocess.Process] = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future] = {}
        self._reader: Optional[asyncio.Task] = None
        self.on_notification: Callable[[str, Any], None] = lambda method, params: None

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL, env=self.env or os.environ.copy(), limit=1 << 26,
        )
        self._reader = asyncio.create_task(self._read_loop())

    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> asyncio.Future:
        msg_id = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return future

    async def _read_loop(self) -> None:
        reader = self.proc.stdout
        while True:
            length = None
            while True:
                line = await reader.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(await reader.readexactly(length))
            if "method" in message and "id" in message:
                self._answer(message)
            elif "method" in message:
                self.on_notification(message["method"], message.get("params"))
            else:
                future = self._pending.pop(message.get("id"), None)
                if future is not None and not future.done():
                    if "error" in message:
                        future.set_exception(RuntimeError(str(message["error"])))
                    else:
                        future.set_result(message.get("result"))

    def _answer(self, message: dict) -> None:
        method = message["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [None for _ in message["params"]["items"]]
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    async def initialize(self, capabilities: dict, initialization_options: Any = None, root_uri: Optional[str] = None) -> dict:
        result = await self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": root_uri, "capabilities": capabilities,
             "initializationOptions": initialization_options},
        )
        self.notify("initialized", {})
        return result

    async def stop(self) -> None:
        try:
            await asyncio.wait_for(self.request("shutdown", None), 10)
            self.notify("exit", None)
            await asyncio.wait_for(self.proc.wait(), 10)
        except (asyncio.TimeoutError, RuntimeError, ConnectionError):
            self.proc.kill()
        if self._reader:
            self._reader.cancel()


def status_mb(pid: int, field: str = "VmHWM") -> Optional[float]:
    """A memory figure of a process from /proc (Linux), in MiB: VmHWM (peak resident set) or VmRSS (now)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def peak_rss_mb(pid: int) -> Optional[float]:
    return status_mb(pid, "VmHWM")


async def started(command: list[str], capabilities: dict, options, root_uri: str) -> LspProcess:
    """A server process, initialized."""
    proc = LspProcess(command)
    await proc.start()
    await proc.initialize(capabilities, options, root_uri)
    return proc
