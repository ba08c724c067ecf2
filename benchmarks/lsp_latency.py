"""LSP latency and memory benchmark for the torchplace server (a script, not a test).

Sections (`--sections`, all by default):
- latency: over LSP on stdio, for a ~500, ~1,500 and ~5,000-line real PyTorch
  file (modeling files from the transformers wheel), the time from a `didChange`
  to the diagnostics for that version (push) or to the pull response, p50 and
  p95 over 100 edits, debounce 0; the same edits to `fixit lsp` (installed with
  pip into a separate venv under /tmp, so it cannot disturb our pins);
- rss: the server's peak RSS with 200 open documents;
- burst: 5,000 one-character changes to the ~1,500-line file sent as fast as
  the client can, push and pull (`lsp/burst.py`);
- soak: RSS after 1,000 and 10,000 changes, and after 1,000 and 3,000
  open/close cycles (`lsp/soak.py`);
- workspace: `diagnosticMode: workspace` on a generated 10,000-file project:
  time, peak RSS of the server and of its worker (`lsp/workspace.py`).

Targets: p95 <= 50 ms at 1,500 lines, <= 150 ms at 5,000 lines; RSS <= 200 MB
with 200 documents; a 5,000-change burst caught up within 2 s of its end; RSS
after 10,000 changes within 5 MB of RSS after 1,000.

    python benchmarks/lsp_latency.py [--sections latency,burst] [--edits 100] [--docs 200]
        [--burst 5000] [--workspace-files 10000] [--no-fixit] [--json out.json]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_commit import engine_commit  # noqa: E402
from lsp.corpus import CACHE, modeling_files, pick_by_size  # noqa: E402
from lsp.burst import burst  # noqa: E402
from lsp.rpc_client import LspProcess, peak_rss_mb  # noqa: E402
from lsp.soak import rss_over_open_close, rss_under_typing  # noqa: E402
from lsp.workspace import workspace_pass  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
FIXIT_VENV = Path(os.environ.get("TORCHPLACE_BENCH_FIXIT_VENV", "/tmp/torchplace-bench-fixit"))
SIZES = (500, 1500, 5000)
TARGET_P95_MS = {1500: 50, 5000: 150}
TARGET_RSS_MB = 200

PUSH_CAPS = {"textDocument": {"publishDiagnostics": {"versionSupport": True}}}
PULL_CAPS = {"textDocument": {"publishDiagnostics": {"versionSupport": True}, "diagnostic": {"dynamicRegistration": False}},
             "workspace": {"diagnostics": {"refreshSupport": True}}}  # the server pulls only with clients that can refresh
SECTIONS = ("latency", "rss", "burst", "soak", "workspace")
TARGET_BURST_S = 2.0


def ensure_fixit() -> Optional[list[str]]:
    exe = FIXIT_VENV / "bin" / "fixit"
    if not exe.exists():
        print(f"installing fixit[lsp] into {FIXIT_VENV} ...", file=sys.stderr)
        try:
            subprocess.run([sys.executable, "-m", "venv", str(FIXIT_VENV)], check=True)
            subprocess.run([str(FIXIT_VENV / "bin" / "pip"), "install", "-q", "fixit[lsp]"], check=True)
        except (subprocess.CalledProcessError, OSError) as exc:
            print(f"fixit unavailable: {exc}", file=sys.stderr)
            return None
    return [str(exe), "lsp", "--debounce-interval", "0"]


class Session:
    """One server process with diagnostics bookkeeping."""

    def __init__(self, command: list[str], pull: bool, options=None) -> None:
        self.proc = LspProcess(command)
        self.pull = pull
        self.options = options
        self.published: dict[str, list[tuple[Optional[int], float]]] = {}
        self.event = asyncio.Event()

    async def start(self, root: Path) -> None:
        self.proc.on_notification = self._notified
        await self.proc.start()
        await self.proc.initialize(PULL_CAPS if self.pull else PUSH_CAPS, self.options, root.as_uri())

    def _notified(self, method, params) -> None:
        if method == "textDocument/publishDiagnostics":
            self.published.setdefault(params["uri"], []).append((params.get("version"), time.perf_counter()))
            self.event.set()

    async def wait_published(self, uri: str, version: int, since: float, timeout: float = 120) -> float:
        """Time of the publish for `version` (or, for servers that send no version, the first after `since`)."""
        deadline = time.perf_counter() + timeout
        while True:
            for v, t in self.published.get(uri, []):
                if (v == version) or (v is None and t >= since):
                    return t
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no diagnostics for {uri} v{version}")
            self.event.clear()
            try:
                await asyncio.wait_for(self.event.wait(), max(0.0, deadline - time.perf_counter()))
            except asyncio.TimeoutError:
                pass

    def open(self, uri: str, text: str) -> None:
        self.proc.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}})

    async def diagnostics_ready(self, uri: str, version: int, since: float) -> float:
        if self.pull:
            await self.proc.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            return time.perf_counter()
        return await self.wait_published(uri, version, since)


def middle_body_line(text: str) -> tuple[int, str]:
    """A line in the middle of the file inside a function body (after a simple assignment),
    and its indentation: typing there moves every line below."""
    lines = text.splitlines()
    for offset in range(len(lines) // 2):
        for i in (len(lines) // 2 + offset, len(lines) // 2 - offset):
            line = lines[i]
            indent = line[: len(line) - len(line.lstrip())]
            if len(indent) >= 8 and " = " in line and line.rstrip().endswith(")") and line.count("(") == line.count(")") \
                    and i + 1 < len(lines) and lines[i + 1].startswith(indent) and not lines[i + 1].strip().startswith(")"):
                return i + 1, indent
    return len(lines), ""


async def latency(command: list[str], pull: bool, text: str, path: Path, edits: int, options,
                  where: str = "end") -> list[float]:
    session = Session(command, pull, options)
    await session.start(path.parent)
    uri = path.as_uri()
    try:
        session.open(uri, text)
        await session.diagnostics_ready(uri, 1, 0.0)
        end_line, indent = (len(text.splitlines()), "") if where == "end" else middle_body_line(text)
        samples = []
        for i in range(edits):
            version = i + 2
            if i % 2 == 0:  # type a statement (at the end of the module, or inside a function mid-file) ...
                change = {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line, "character": 0}},
                          "text": f"{indent}bench_value = {i}\n"}
            else:  # ... and take it out again, so the file keeps its size
                change = {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line + 1, "character": 0}},
                          "text": ""}
            start = time.perf_counter()
            session.proc.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]})
            done = await session.diagnostics_ready(uri, version, start)
            samples.append((done - start) * 1000)
        return samples
    finally:
        await session.proc.stop()


async def peak_rss_with_documents(command: list[str], files: list[Path], options) -> tuple[Optional[float], float]:
    session = Session(command, False, options)
    await session.start(files[0].parent)
    start = time.perf_counter()
    try:
        for path in files:
            session.open(path.as_uri(), path.read_text(encoding="utf-8"))
        for path in files:
            await session.wait_published(path.as_uri(), 1, 0.0, timeout=1800)
        return peak_rss_mb(session.proc.pid), time.perf_counter() - start
    finally:
        await session.proc.stop()


def engine_only_ms(text: str, path: str) -> float:
    """A full check of the same text in-process (no memo, no project index): what each edit
    would cost without incremental re-analysis (the server's figures include the LSP round trip)."""
    from torchplace_rules import check_source

    times = []
    for _ in range(5):
        start = time.perf_counter()
        check_source(text, path)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def latency_section(args, files, docs_dir, ours, fixit, report) -> None:
    print("edits: 'end' types a statement after the last line; 'middle' types one inside a function body")
    print("mid-file (every line below moves).  Each edit is undone by the next, so the size stays.")
    print(f"{'server':<10} {'mode':<11} {'file':<72} {'p50 ms':>8} {'p95 ms':>8} {'target':>7}")
    for size in SIZES:
        label, text = pick_by_size(files, size)
        path = docs_dir / f"bench_{size}.py"
        path.write_text(text)
        engine_ms = engine_only_ms(text, str(path))
        print(f"{'engine':<10} {'direct':<11} {label:<72} {engine_ms:8.1f}          (full check_source in-process, no memo, median of 5)")
        report["latency"].append({"server": "engine", "mode": "direct", "size": size, "file": label, "p50_ms": engine_ms})
        runs = [("torchplace", "push", ours, False, {"debounce": 0}, "end"),
                ("torchplace", "pull", ours, True, {"debounce": 0}, "end"),
                ("torchplace", "push", ours, False, {"debounce": 0}, "middle"),
                ("torchplace", "pull", ours, True, {"debounce": 0}, "middle")]
        if fixit:
            runs.append(("fixit", "push", fixit, False, None, "end"))
        for name, mode, command, pull, options, where in runs:
            mode = f"{mode}/{where}"
            try:
                edits = args.fixit_edits if name == "fixit" and args.fixit_edits else args.edits
                samples = await latency(command, pull, text, path, edits, options, where)
            except Exception as exc:  # noqa: BLE001 - report and go on with the other servers
                print(f"{name:<10} {mode:<11} {label:<72} failed: {exc!r}")
                continue
            p50, p95 = percentile(samples, 50), percentile(samples, 95)
            target = TARGET_P95_MS.get(size)
            mark = "" if name != "torchplace" or target is None else ("ok" if p95 <= target else "MISS") + f" {target}"
            print(f"{name:<10} {mode:<11} {label:<72} {p50:8.1f} {p95:8.1f} {mark:>7}  ({len(samples)} edits)")
            report["latency"].append({"server": name, "mode": mode, "size": size, "file": label, "p50_ms": p50, "p95_ms": p95,
                                      "mean_ms": statistics.fmean(samples), "edits": len(samples), "target_p95_ms": target})


async def rss_section(args, files, ours, fixit, report) -> None:
    servers = [("torchplace", ours, {"debounce": 0})] + ([("fixit", fixit, None)] if fixit and not args.no_fixit_rss else [])
    for name, command, options in servers:
        chosen = files[: (args.fixit_docs or args.docs) if name == "fixit" else args.docs]
        rss, seconds = await peak_rss_with_documents(command, chosen, options)
        lines = sum(len(p.read_text().splitlines()) for p in chosen)
        mark = "" if name != "torchplace" else ("ok" if rss is not None and rss <= TARGET_RSS_MB else "MISS") + f" {TARGET_RSS_MB}"
        shown = f"{rss:.0f} MiB" if rss is not None else "unknown"
        print(f"{name:<10} peak RSS with {len(chosen)} open documents ({lines} lines): {shown} "
              f"(all diagnostics in {seconds:.1f} s) {mark}")
        report["rss"].append({"server": name, "documents": len(chosen), "lines": lines, "peak_rss_mib": rss, "seconds": seconds})


async def burst_section(args, files, docs_dir, ours, report) -> None:
    label, text = pick_by_size(files, 1500)
    path = docs_dir / "burst_1500.py"
    path.write_text(text)
    for pull in (False, True):
        result = await burst(ours, text, path, args.burst, pull)
        mark = "ok" if result["caught_up_s"] <= TARGET_BURST_S else "MISS"
        print(f"burst of {result['changes']} one-character changes ({result['mode']}, {label}): sent in "
              f"{result['send_s']:.2f} s (the server reads as fast as that), last version's diagnostics "
              f"{result['caught_up_s']:.2f} s after the last change was sent  {mark} {TARGET_BURST_S:g} s")
        report["burst"].append({**result, "file": label})


async def soak_section(files, docs_dir, ours, report) -> None:
    label, text = pick_by_size(files, 500)
    typing = await rss_under_typing(ours, text, docs_dir)
    first, last = typing[min(typing)], typing[max(typing)]
    mark = "ok" if last - first <= 5 else "MISS"
    print(f"RSS under typing ({label}): {', '.join(f'{v:.1f} MiB after {k} changes' for k, v in typing.items())}; "
          f"growth {last - first:+.2f} MiB  {mark} 5 MiB")
    cycles = await rss_over_open_close(ours, text, docs_dir)
    first, last = cycles[min(cycles)], cycles[max(cycles)]
    print(f"RSS over open/close: {', '.join(f'{v:.1f} MiB after {k} cycles' for k, v in cycles.items())}; "
          f"growth {last - first:+.2f} MiB")
    report["soak"] = {"typing": typing, "open_close": cycles, "file": label}


async def workspace_section(args, ours, report) -> None:
    import shutil
    import tempfile

    from many_files import generate

    folder = Path(tempfile.mkdtemp(prefix="torchplace-ws-"))
    try:
        lines = generate(folder, args.workspace_files)
        result = await workspace_pass(ours, folder)
        print(f"workspace diagnostics on {args.workspace_files} generated files ({lines} lines): "
              f"{result['files']} checked in {result['wall_s']:.1f} s, {result['published']} files with findings published; "
              f"peak RSS server {result['server_peak_rss_mib']:.0f} MiB, worker {result['worker_peak_rss_mib']:.0f} MiB")
        report["workspace"] = {**result, "generated_files": args.workspace_files, "lines": lines}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def main_async(args) -> dict:
    files = modeling_files()
    docs_dir = CACHE / "docs"
    docs_dir.mkdir(parents=True, exist_ok=True)
    ours = [sys.executable, "-m", "torchplace_server"]
    sections = args.sections.split(",")
    fixit = None if args.no_fixit or not {"latency", "rss"} & set(sections) else ensure_fixit()
    report: dict = {"engine": engine_commit(), "python": sys.version.split()[0], "edits": args.edits, "latency": [],
                    "rss": [], "burst": []}
    print(f"engine commit: {report['engine']}")
    if "latency" in sections:
        await latency_section(args, files, docs_dir, ours, fixit, report)
    if "rss" in sections:
        await rss_section(args, files, ours, fixit, report)
    if "burst" in sections:
        await burst_section(args, files, docs_dir, ours, report)
    if "soak" in sections:
        await soak_section(files, docs_dir, ours, report)
    if "workspace" in sections:
        await workspace_section(args, ours, report)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--no-fixit", action="store_true", help="skip the fixit comparison")
    parser.add_argument("--no-fixit-rss", action="store_true", help="skip fixit's 200-document memory run")
    parser.add_argument("--fixit-edits", type=int, help="fewer edits for fixit (it takes seconds per edit)")
    parser.add_argument("--fixit-docs", type=int, help="fewer open documents for fixit's memory run")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--sections", default=",".join(SECTIONS), help=f"comma-separated, of {', '.join(SECTIONS)}")
    parser.add_argument("--burst", type=int, default=5000, help="changes in the burst")
    parser.add_argument("--workspace-files", type=int, default=10_000, help="files of the generated workspace")
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
