"""Route Python logging to the client's output channel (`window/logMessage`).

stdout carries the protocol, so nothing may print there; before the client is
connected, records go to stderr (which editors show in the same channel).
Records from worker threads are handed to the event loop.
"""
from __future__ import annotations

import asyncio
import logging
import sys
import threading
from typing import TYPE_CHECKING, Optional

from lsprotocol import types

if TYPE_CHECKING:
    from .server import TorchplaceServer

_LEVELS = {
    logging.CRITICAL: types.MessageType.Error,
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


class ClientLogHandler(logging.Handler):
    def __init__(self, server: "TorchplaceServer") -> None:
        super().__init__()
        self.server = server
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self._busy = threading.local()
        self._fallback = logging.StreamHandler(sys.stderr)
        self.setFormatter(logging.Formatter("%(message)s"))
        self._fallback.setFormatter(logging.Formatter("[torchplace %(levelname)s] %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(self._busy, "active", False):
            return  # logging while sending a log message: drop, never recurse
        if self.loop is None or not self.server.connected:
            self._fallback.emit(record)
            return
        try:
            message = self.format(record)
        except Exception:  # noqa: BLE001
            return
        kind = _LEVELS.get(record.levelno, types.MessageType.Log)
        params = types.LogMessageParams(type=kind, message=message)
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self.loop:
            self._send(params)
        else:
            self.loop.call_soon_threadsafe(self._send, params)

    def _send(self, params: types.LogMessageParams) -> None:
        self._busy.active = True
        try:
            self.server.window_log_message(params)
        except Exception:  # noqa: BLE001 - a broken pipe must not become a log storm
            pass
        finally:
            self._busy.active = False


def install(server: "TorchplaceServer", level: int = logging.INFO) -> ClientLogHandler:
    handler = ClientLogHandler(server)
    ours = logging.getLogger("torchplace_server")
    ours.setLevel(level)
    ours.addHandler(handler)
    ours.propagate = False
    pygls_log = logging.getLogger("pygls")
    pygls_log.setLevel(logging.WARNING)
    pygls_log.addHandler(handler)
    pygls_log.propagate = False
    return handler
