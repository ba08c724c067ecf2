"""`torchplace serve` / `python -m torchplace_server`: arguments, CLI plug-in, TCP mode."""
from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time

import pytest

from torchplace_server.serve_command import parse_tcp, register


def test_serve_subcommand_registers_stdio_and_tcp():
    parser = argparse.ArgumentParser(prog="torchplace")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["serve"])
    assert args.tcp is None and callable(args.func)
    args = parser.parse_args(["serve", "--tcp", "9000"])
    assert args.tcp == ("127.0.0.1", 9000)
    assert parse_tcp("0.0.0.0:7") == ("0.0.0.0", 7)
    assert parse_tcp("[::1]:8") == ("::1", 8)
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--tcp", "x:notaport"])
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--stdio", "--tcp", "1"])


def test_torchplace_cli_has_serve():
    out = subprocess.run([sys.executable, "-m", "torchplace_rules.cli", "serve", "--help"], capture_output=True, text=True)
    if out.returncode != 0 and "serve" not in out.stdout + out.stderr:
        pytest.skip(f"the CLI cannot load plug-ins here: {out.stderr.strip()[:200]}")
    assert "--tcp" in out.stdout and "--stdio" in out.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_tcp_mode_listens_on_loopback_and_answers_initialize():
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "torchplace_server", "--tcp", str(port)], stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30  # imports are slow on a busy 2-core machine
        while time.monotonic() < deadline:
            try:
                conn = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if proc.poll() is not None:
                    raise AssertionError(proc.stderr.read().decode())
                time.sleep(0.05)
        else:
            raise AssertionError("server did not listen")
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()
        conn.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        data, reply = b"", None
        while reply is None:  # log messages may come first
            chunk = conn.recv(65536)
            if not chunk:
                break
            data += chunk
            while b"\r\n\r\n" in data:
                header, _, rest = data.partition(b"\r\n\r\n")
                length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) < length:
                    break
                message, data = json.loads(rest[:length]), rest[length:]
                if message.get("id") == 1:
                    reply = message
        assert reply is not None and reply["result"]["serverInfo"]["name"] == "torchplace"
        conn.close()
    finally:
        proc.kill()
        proc.wait()


def test_the_server_imports_no_torch():
    code = (
        "import sys, torchplace_server.server as s, torchplace_server.__main__\n"
        "s.build_server()\n"
        "from torchplace_rules import check_source\n"
        "check_source('import torch\\nx = torch.zeros(2).cuda()\\n')\n"
        "bad = [m for m in sys.modules if m == 'torch' or m.startswith('torch.')]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
