"""JSON-RPC hardening on top of pygls' protocol: every request gets an answer.

pygls (2.1) drops three kinds of message without a word, and keeps one object
per notification for ever:

- a request whose params do not deserialize (hover at line -1, codeAction with
  `range: null`, diagnostic with `textDocument: 7`) is logged and dropped, so
  the client waits for ever: here it is answered with -32602 (Invalid Params)
  naming what was wrong;
- a message nested deeper than the JSON parser allows (`initializationOptions`
  50,000 levels deep) raises in the read loop and is dropped: here the request
  it carried is answered with -32600 (the id is found by a scan that needs no
  recursion) and the server goes on reading;
- every notification handled by a coroutine or a generator (pygls' own
  `didChange` is one) leaves its Future in `_request_futures` under a random
  id: here each handler's Future is dropped once it is done.

The server's own document model (`documents.TorchplaceWorkspace`) is put in
place of pygls' workspace as soon as `initialize` creates it.
"""
from __future__ import annotations

import contextvars
import itertools
import logging
import re
from typing import Any, Optional

import cattrs
from lsprotocol import types
from pygls.exceptions import (FeatureNotificationError, JsonRpcInvalidParams, JsonRpcInvalidRequest,
                              JsonRpcMethodNotFound)
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from .documents import TorchplaceWorkspace

log = logging.getLogger(__name__)

MAX_REASONS = 3  # problems named in an Invalid Params message


class Rejected:
    """What `structure_message` hands on for a message that was answered or dropped already."""

    jsonrpc = "rejected"


REJECTED = Rejected()


def describe_structure_error(exc: BaseException) -> str:
    """'position.line: ...; range: ...' from a cattrs error, short enough for a message."""
    def leaf(error: BaseException, expected) -> str:
        if isinstance(error, KeyError):
            return f"required field {error.args[0]!r} missing"
        if isinstance(error, (TypeError, AttributeError)) and expected is not None:
            return f"expected {getattr(expected, '__name__', expected)}"
        return str(error) or type(error).__name__

    try:
        reasons = cattrs.transform_error(exc, path="$", format_exception=leaf)
    except Exception:  # noqa: BLE001 - any error shape: fall back to its text
        reasons = [str(exc)]
    reasons = [r.replace("$.params.", "").replace("$.params", "params") for r in reasons]
    shown = "; ".join(reasons[:MAX_REASONS])
    if len(reasons) > MAX_REASONS:
        shown += f" (and {len(reasons) - MAX_REASONS} more)"
    return shown


class TorchplaceProtocol(LanguageServerProtocol):
    """pygls' protocol with malformed messages answered and per-message Futures released."""

    def __init__(self, server, converter) -> None:
        super().__init__(server, converter)
        self._notification_ids = itertools.count()

    def structure_message(self, data: dict[str, Any]):
        if "jsonrpc" not in data:
            return data  # a nested object: structured with its message
        try:
            return super().structure_message(data)
        except Exception as exc:  # noqa: BLE001 - answer instead of dropping
            self._refuse(data, exc)
            return REJECTED

    def _refuse(self, data: dict[str, Any], exc: BaseException) -> None:
        method = data.get("method")
        cause = exc.__cause__ or exc
        reason = describe_structure_error(cause)
        if "id" in data and method is not None:
            log.warning("torchplace: refused %s request %r: invalid params: %s", method, data.get("id"), reason)
            error = JsonRpcInvalidParams(message=f"Invalid params for {method}: {reason}")
            self._send_response(data["id"], error=error.to_response_error())
        elif method is not None:
            log.warning("torchplace: ignored %s notification: invalid params: %s", method, reason)
        else:  # a response to one of our requests: whoever waits for it gets "no answer" (None)
            log.warning("torchplace: the client's answer to request %r is malformed (%s); taken as null",
                        data.get("id"), reason)
            future = self._request_futures.pop(data.get("id"), None)
            self._result_types.pop(data.get("id"), None)
            if future is not None and not future.done():
                future.set_result(None)

    def handle_message(self, message):
        """pygls' dispatch, by the message's fields: pygls tells the kinds apart with
        `isinstance` against runtime-checkable Protocols, which re-reads the Protocol's
        members on every call (about a third of the time a keystroke's message costs)."""
        if message is REJECTED:
            return
        if message.jsonrpc != JsonRPCProtocol.VERSION:
            log.warning("torchplace: ignored a message that is not JSON-RPC %s", JsonRPCProtocol.VERSION)
            return
        method = getattr(message, "method", None)
        if self._shutdown and method != types.EXIT:
            log.warning("torchplace: shutting down; ignored %s", method or "a response")
            return
        ctx = contextvars.copy_context()
        if method is not None and hasattr(message, "id"):
            ctx.run(self._handle_request, message.id, method, message.params)
        elif method is not None:
            ctx.run(self._handle_notification, method, message.params)
        elif getattr(message, "error", None) is not None:
            ctx.run(self._handle_response, message.id, None, message.error)
        else:
            ctx.run(self._handle_response, message.id, message.result)

    def _handle_notification(self, method_name: str, params: Any):
        """pygls' notification handling, with a counter for the internal id (not a uuid4 each)."""
        if method_name == types.CANCEL_REQUEST:
            self._handle_cancel_notification(params.id)
            return
        try:
            handler = self._get_handler(method_name)
        except JsonRpcMethodNotFound:
            log.debug("torchplace: ignored notification %s (not handled)", method_name)
            return
        try:
            self._execute_handler(msg_id=f"notification-{next(self._notification_ids)}", handler=handler,
                                  args=(params,), callback=self._check_handler_result)
        except Exception as error:  # noqa: BLE001 - as pygls: reported, the server goes on
            log.exception("torchplace: notification %s failed", method_name)
            self._server._report_server_error(error, FeatureNotificationError)

    def refuse_unreadable(self, body: bytes, error: BaseException) -> None:
        """Answer the request inside a body the JSON parser gave up on (too deep, invalid)."""
        msg_id, method = scan_top_level(body)
        kind = "nests too deeply to be read" if isinstance(error, RecursionError) else "is not valid JSON"
        log.warning("torchplace: refused a %d-byte message (%s): it %s", len(body), method or "no method", kind)
        if msg_id is None or method is None:
            return  # a notification or a response: nobody is waiting for an answer
        refusal = JsonRpcInvalidRequest(message=f"The {method} request {kind}; it was refused.")
        self._send_response(msg_id, error=refusal.to_response_error())

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        def done(future, msg_id=msg_id):
            if self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        """pygls' initialize, with the server's own document model put in right after it is made,
        and pull diagnostics offered only to clients the server will push nothing to."""
        inner = super().lsp_initialize(params)
        try:
            step = next(inner)
        except StopIteration as stop:
            self._adopt_workspace()
            return self._offered(stop.value)
        self._adopt_workspace()
        while True:
            value = yield step
            try:
                step = inner.send(value)
            except StopIteration as stop:
                return self._offered(stop.value)

    def _offered(self, result: types.InitializeResult) -> types.InitializeResult:
        """A client that pulls but cannot be asked to pull again (Neovim 0.11) gets pushed
        diagnostics (see `uses_pull_diagnostics`); offering it pull as well would show each
        finding twice, the pulled copy going stale when another file changes."""
        if result is not None and not self._server.uses_pull_diagnostics:
            result.capabilities.diagnostic_provider = None
        return result

    def _adopt_workspace(self) -> None:
        if self._workspace is not None and not isinstance(self._workspace, TorchplaceWorkspace):
            self._workspace = TorchplaceWorkspace.replacing(self._workspace)


_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+', re.DOTALL)


def scan_top_level(body: bytes) -> tuple[Optional[Any], Optional[str]]:
    """(id, method) of a JSON-RPC message without parsing it (no recursion, any depth)."""
    import json

    depth = 0
    key: Optional[bytes] = None
    expect_value = False
    found: dict[bytes, Any] = {}
    for match in _TOKEN.finditer(body):
        token = match.group()
        if token in (b"{", b"["):
            depth += 1
            expect_value = False
        elif token in (b"}", b"]"):
            depth -= 1
        elif token == b":":
            expect_value = depth == 1
        elif token == b",":
            key = None
        elif depth == 1 and expect_value and key in (b'"id"', b'"method"'):
            try:
                found[key] = json.loads(token)
            except ValueError:
                pass
            expect_value = False
        elif depth == 1 and key is None:
            key = token
        if b'"id"' in found and b'"method"' in found:
            break
    msg_id = found.get(b'"id"')
    method = found.get(b'"method"')
    return (msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None,
            method if isinstance(method, str) else None)
