"""Workspace diagnostics on a generated project (issue 14, item 3): time and memory.

The project is `many_files.generate`'s (packages of 100 modules, each a seed
example importing a sibling helper).  The server starts with
`diagnosticMode: workspace` for a client that does not pull, and every file's
diagnostics are published without any file being opened.  Printed: the time
until the server logs that the pass is done, the peak RSS of the server process
and of its worker process (sampled every 0.2 s), and how many files got findings.
"""
from __future__ import annotations

import asyncio
import os
import re
import time
from pathlib import Path

from .rpc_client import LspProcess, started, status_mb

PUSH_CAPS = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
DONE = re.compile(r"workspace diagnostics: checked (\d+) files in ([\d.]+) s; (\d+) with findings")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return [int(p) for p in f.read().split()]
    except OSError:
        return []


async def workspace_pass(command: list[str], folder: Path, timeout: float = 3600) -> dict:
    done: dict = {}
    published: set[str] = set()

    def notified(method, params):
        if method == "window/logMessage":
            match = DONE.search(params["message"])
            if match:
                done.update(files=int(match[1]), seconds=float(match[2]), with_findings=int(match[3]))
        elif method == "textDocument/publishDiagnostics" and params["diagnostics"]:
            published.add(params["uri"])

    start = time.perf_counter()
    proc: LspProcess = await started(command, PUSH_CAPS, {"diagnosticMode": "workspace"}, folder.as_uri())
    proc.on_notification = notified
    peak_server = peak_worker = 0.0
    try:
        while not done and time.perf_counter() - start < timeout:
            await asyncio.sleep(0.2)
            peak_server = max(peak_server, status_mb(proc.pid, "VmRSS") or 0.0)
            for child in _children(proc.pid):
                peak_worker = max(peak_worker, status_mb(child, "VmRSS") or 0.0)
        wall = time.perf_counter() - start
        return {"files": done.get("files"), "with_findings": done.get("with_findings"), "published": len(published),
                "wall_s": wall, "server_peak_rss_mib": peak_server, "worker_peak_rss_mib": peak_worker,
                "server_peak_hwm_mib": status_mb(proc.pid, "VmHWM"), "cpus": os.cpu_count()}
    finally:
        await proc.stop()
