"""`torchplace serve` over stdio with nothing but the standard library: initialize, open a
buggy file, pull its diagnostics, shut down.  It needs no test plug-ins, so
scripts/test.d/20-pythons.sh runs it on every supported Python."""
import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

TEXT = "import torch\ndevice = torch.device('cuda')\nx = torch.zeros(3)\nx.to(device)\n"


def _send(proc, message):
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def _reader(stream, out: "queue.Queue"):
    while True:
        headers = {}
        while True:
            line = stream.readline()
            if not line:
                out.put(None)
                return
            if line in (b"\r\n", b"\n"):
                break
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        out.put(json.loads(stream.read(int(headers["content-length"]))))


def _response(messages: "queue.Queue", request_id: int, timeout: float = 60) -> dict:
    while True:
        message = messages.get(timeout=timeout)
        assert message is not None, "the server closed its output"
        if message.get("id") == request_id and "method" not in message:
            return message


def test_serve_answers_over_stdio(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(TEXT)
    uri = path.as_uri()
    proc = subprocess.Popen([sys.executable, "-m", "torchplace_rules.cli", "serve"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp_path)
    messages: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, messages), daemon=True).start()
    try:
        _send(proc, {"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": Path(tmp_path).as_uri(),
            "capabilities": {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}}})
        result = _response(messages, 1)["result"]
        assert result["serverInfo"]["name"] == "torchplace"
        _send(proc, {"method": "initialized", "params": {}})
        _send(proc, {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": TEXT}}})
        _send(proc, {"id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
        items = _response(messages, 2)["result"]["items"]
        assert [(d["code"], d["range"]["start"]["line"]) for d in items] == [("TP201", 3)]
        _send(proc, {"id": 3, "method": "shutdown"})
        _response(messages, 3)
        _send(proc, {"method": "exit"})
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
