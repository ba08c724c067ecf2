"""Every request is answered, whatever arrives (issue 15, item 4), and a client's
malformed answer never becomes a popup (item 3).  A bare JSON-RPC peer sends what
no typed client can; each answer must come within 1 s."""
from __future__ import annotations

import pytest

from raw_rpc import RawServer

ANSWER_S = 1.0
URI = "file:///tmp/torchplace-malformed/a.py"


@pytest.fixture
def server():
    peer = RawServer("--introspect")
    yield peer
    peer.close()


@pytest.fixture(scope="module")
def ready():
    """One initialized server with a document open, shared by the tests that need nothing fresh."""
    peer = RawServer("--introspect")
    peer.initialize()
    _open(peer)
    yield peer
    peer.close()


def _open(peer: RawServer, text: str = "import torch\nx = torch.zeros(3)\n") -> None:
    peer.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}})


MALFORMED = [
    ("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}}, "line"),
    ("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": None, "context": {"diagnostics": []}}, "range"),
    ("textDocument/diagnostic", {"textDocument": 7}, "textDocument"),
    ("textDocument/hover", None, "params"),
    ("textDocument/codeAction", {"textDocument": {"uri": URI},
                                 "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}},
     "context"),
]


@pytest.mark.parametrize("method,params,named", MALFORMED, ids=[f"{m}-{n}" for m, _, n in MALFORMED])
def test_malformed_params_get_invalid_params(ready, method, params, named):
    server = ready
    answer = server.answer(server.request(method, params), ANSWER_S)
    assert answer["error"]["code"] == -32602, answer
    assert named in answer["error"]["message"], answer
    # Still serving: a good request right after is answered.
    good = server.answer(server.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                               "position": {"line": 0, "character": 0}}), 10)
    assert "error" not in good, good


def test_absurd_nesting_is_refused_and_the_server_lives_on(server):
    deep = "[" * 50_000 + "]" * 50_000
    body = ('{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "rootUri": null, '
            '"capabilities": {}, "initializationOptions": %s}}' % deep).encode()
    server.send_bytes(body)
    refused = server.answer(1, ANSWER_S)
    assert refused["error"]["code"] == -32600, refused
    assert "nests too deeply" in refused["error"]["message"]
    result = server.initialize()  # a sane initialize works afterwards
    assert result["result"]["serverInfo"]["name"] == "torchplace"


def test_invalid_json_is_answered_when_it_names_a_request(ready):
    server = ready
    server.send_bytes(b'{"jsonrpc": "2.0", "id": 77, "method": "textDocument/hover", "params": {')
    answer = server.answer(77, ANSWER_S)
    assert answer["error"]["code"] == -32600
    assert "not valid JSON" in answer["error"]["message"]


def test_changes_to_unknown_documents_and_notifications_with_bad_params_do_no_harm(server):
    server.initialize()
    server.notify("textDocument/didChange", {"textDocument": {"uri": "file:///never/opened.py", "version": 2},
                                             "contentChanges": [{"text": "x = 1\n"}]})
    server.notify("textDocument/didChange", {"textDocument": 7})
    server.notify("notebookDocument/didChange", {"notebookDocument": {"uri": "file:///no.ipynb", "version": 2},
                                                 "change": {}})
    _open(server)
    answer = server.answer(server.request("textDocument/diagnostic", {"textDocument": {"uri": URI}}), 10)
    assert answer["result"]["kind"] == "full"
    assert not [n for n in server.notifications if n["method"] == "window/showMessage"], server.notifications


def test_a_null_configuration_answer_shows_no_popup(server):
    server.initialize(capabilities={"workspace": {"configuration": True, "didChangeConfiguration": {}}})
    _open(server, "import torch\ndevice = torch.device('cuda')\nx = torch.zeros(3)\nx.to(device)\n")
    server.notify("workspace/didChangeConfiguration", {"settings": None})  # makes the server ask again
    answer = server.answer(server.request("textDocument/diagnostic", {"textDocument": {"uri": URI}}), 10)
    assert [d["code"] for d in answer["result"]["items"]] == ["TP201"]
    assert [r for r in server.server_requests if r["method"] == "workspace/configuration"]
    shown = [n for n in server.notifications if n["method"] == "window/showMessage"]
    assert shown == [], shown


def test_notifications_leave_no_bookkeeping_behind(server):
    server.initialize()
    _open(server)
    for version in range(2, 502):
        server.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                                 "contentChanges": [{"range": {"start": {"line": 1, "character": 0},
                                                                               "end": {"line": 1, "character": 0}},
                                                                     "text": "#"}]})
    state = server.answer(server.request("torchplace/test/state", {"uri": URI}), 10)["result"]
    assert state["version"] == 501
    assert state["text"].splitlines()[1] == "#" * 500 + "x = torch.zeros(3)"
    assert state["futures"] <= 1, state  # at most the state request itself
