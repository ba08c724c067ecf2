"""`torchplace serve` (plugged into the CLI via the `torchplace.commands` entry
point) and `python -m torchplace_server`: start the server on stdio, or on TCP
for debugging (loopback unless a host is named)."""
from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
from typing import Optional

DEFAULT_HOST = "127.0.0.1"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def parse_tcp(value: str) -> tuple[str, int]:
    """`PORT`, `:PORT` or `HOST:PORT` (IPv6 as `[::1]:PORT`)."""
    host, sep, port = value.rpartition(":")
    if not sep:
        host, port = "", value
    host = host.strip("[]") or DEFAULT_HOST
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--tcp expects [HOST:]PORT, got {value!r}") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"--tcp port out of range: {number}")
    return host, number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--stdio", action="store_true", help="speak LSP on stdin/stdout (the default)")
    mode.add_argument("--tcp", type=parse_tcp, metavar="[HOST:]PORT",
                      help=f"listen on TCP for debugging (host defaults to {DEFAULT_HOST})")
    parser.add_argument("--log-level", default="info", choices=["debug", "info", "warning", "error"],
                        help="how much the server logs to the editor's output channel")


def tune_garbage_collector() -> None:
    """Checking a big file allocates many short-lived AST objects: collect the young
    generation less often, and keep the modules loaded at start-up out of every scan."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


def keep_project_code_off_the_path() -> None:
    """`python -m` puts the working directory (the user's project) first on sys.path, so an
    import by name in the server (jedi's, a plugin's) could load the project's own modules,
    compiled extensions included.  The server never needs them: nothing runs without a probe."""
    cwd = os.getcwd()
    sys.path[:] = [p for p in sys.path if p not in ("", ".", cwd)]


def run(args: argparse.Namespace) -> int:
    keep_project_code_off_the_path()
    from .server import build_server

    server = build_server()
    tune_garbage_collector()
    logging.getLogger("torchplace_server").setLevel(getattr(logging, str(args.log_level).upper()))
    if args.tcp:
        host, port = args.tcp
        if host not in LOOPBACK:
            print(f"torchplace serve: warning: listening on {host}, reachable from other machines", file=sys.stderr)
        server.start_tcp(host, port)
    else:
        server.start_io()
    server.analysis.shutdown()
    server.workspace_checks.shutdown()
    return 0


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the torchplace language server",
        description="Run the torchplace language server (LSP on stdio by default).",
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m torchplace_server", description="torchplace language server")
    add_arguments(parser)
    return run(parser.parse_args(argv))
