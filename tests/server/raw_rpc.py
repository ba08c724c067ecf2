"""A bare JSON-RPC peer over the server's stdio, for messages no typed client can send
(malformed params, absurd nesting) and for counting every answer."""
from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Optional

LAUNCHER = str(Path(__file__).resolve().parent / "server_with_test_hooks.py")


class RawServer:
    """The server as a subprocess; messages in as bytes, answers out as dicts."""

    def __init__(self, *flags: str, cwd: Optional[str] = None, command: Optional[list[str]] = None,
                 env: Optional[dict] = None) -> None:
        """The test launcher with `flags`, or `command` (e.g. `python -m torchplace_server`) as an editor starts it."""
        self.proc = subprocess.Popen(command or [sys.executable, LAUNCHER, *flags], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})})
        self.messages: "queue.Queue[dict]" = queue.Queue()
        self.notifications: list[dict] = []
        self.server_requests: list[dict] = []
        self.responses: dict[Any, dict] = {}
        self._next_id = 1000
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send_bytes(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, message: dict) -> None:
        self.send_bytes(json.dumps({"jsonrpc": "2.0", **message}).encode())

    def request(self, method: str, params: Any, msg_id: Optional[int] = None) -> int:
        if msg_id is None:
            self._next_id += 1
            msg_id = self._next_id
        self.send({"id": msg_id, "method": method, "params": params})
        return msg_id

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def answer(self, msg_id: Any, timeout: float) -> dict:
        """The response to `msg_id`, answering the server's own requests meanwhile."""
        import time

        deadline = time.monotonic() + timeout
        while msg_id not in self.responses:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no answer to request {msg_id!r} within {timeout} s")
            try:
                message = self.messages.get(timeout=remaining)
            except queue.Empty:
                continue
            if "method" in message and "id" in message:  # the server asks something: null will do
                self.server_requests.append(message)
                self.send({"id": message["id"], "result": None})
            elif "method" in message:
                self.notifications.append(message)
            else:
                self.responses[message.get("id")] = message
        return self.responses.pop(msg_id)

    def initialize(self, root_uri: Optional[str] = None, capabilities: Optional[dict] = None,
                   options: Any = None, timeout: float = 30) -> dict:
        msg_id = self.request("initialize", {"processId": os.getpid(), "rootUri": root_uri,
                                             "capabilities": capabilities or {}, "initializationOptions": options})
        result = self.answer(msg_id, timeout)
        self.notify("initialized", {})
        return result

    def close(self) -> None:
        try:
            msg_id = self.request("shutdown", None)
            self.answer(msg_id, 10)
            self.notify("exit", None)
            self.proc.wait(10)
        except Exception:  # noqa: BLE001 - a dead server is killed
            self.proc.kill()
            self.proc.wait()
