"""ProbeSession: one warm kernel per document, and the probe's host-side flow.

Why: probing a cell must behave like Jupyter: state stays between probes, the
cells above run first when the kernel has not run them (or they changed), and
"probe from top" starts clean.  Faults (timeout, a dead kernel, a missing
ipykernel) become results with a clear message, never exceptions to the caller.
"""
from __future__ import annotations

import json
from functools import lru_cache
import os
import re
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence, Union

from .cells import Cell, cell_for_line, cells_of
from .kernel_host import KernelHost, ProbeSetupError
from .process_tree import SUBREAPER_CODE
from .result import ProbeError, ProbeResult, result_from_payload

KERNEL_SIDE = Path(__file__).with_name("kernel_side")
KERNEL_PACKAGE = "_torchplace_probe_kernel"
MIME = "application/vnd.torchplace.probe+json"
_WANTS_GPU = re.compile(r"\bcuda\b|\.cuda\(")

Document = Union[str, Sequence[str]]


@dataclass
class ProbeOptions:
    """How to probe.  `simulate_gpu`: "auto" (simulate when the code asks for CUDA and
    there is no GPU), "on" or "off"."""

    python: Optional[str] = None
    existing: Optional[str] = None
    simulate_gpu: str = "auto"
    timeout: float = 60.0
    output_limit: int = 64_000
    cwd: Optional[str] = None
    script: Optional[str] = None  # the document's path: `sys.argv[0]`, `__file__`, the working folder
    args: tuple = ()  # the user's command-line arguments (`sys.argv[1:]`)


@lru_cache(maxsize=1)
def _load_code() -> str:
    """A cell that imports the kernel side as a package from its folder (stdlib + torch only)."""
    init = KERNEL_SIDE / "__init__.py"
    return (
        "def __torchplace_probe_load():\n"
        "    import importlib, importlib.util, sys\n"
        f"    if {KERNEL_PACKAGE!r} not in sys.modules:\n"
        f"        spec = importlib.util.spec_from_file_location({KERNEL_PACKAGE!r}, {str(init)!r},\n"
        f"                                                      submodule_search_locations=[{str(KERNEL_SIDE)!r}])\n"
        "        package = importlib.util.module_from_spec(spec)\n"
        f"        sys.modules[{KERNEL_PACKAGE!r}] = package\n"
        "        spec.loader.exec_module(package)\n"
        f"    importlib.import_module({KERNEL_PACKAGE + '.runner'!r})\n"
        "__torchplace_probe_load()\ndel __torchplace_probe_load"
    )


class ProbeSession:
    """A warm kernel for one document.  Thread-safe: one probe at a time."""

    def __init__(self, options: Optional[ProbeOptions] = None, name: str = "document") -> None:
        self.options = options or ProbeOptions()
        self.name = name
        self.host: Optional[KernelHost] = None
        self._ran: dict = {}  # cell index -> fingerprint the kernel last ran
        self._loaded = False
        self._notebook = False
        self._died = False
        self._device = ("cpu", False)  # (device, simulated) of the last run, for faults without a payload
        self._lock = threading.Lock()
        self._tmp = tempfile.mkdtemp(prefix="torchplace-probe-")

    # --- lifecycle ---
    def close(self) -> None:
        if self.host is not None:
            self.host.shutdown()  # for an attached kernel (`existing`) this only stops our channels
        self.host = None
        shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> "ProbeSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _ensure_kernel(self, notes: list) -> None:
        if self._died:
            notes.append("the kernel had died; started a new one (state from earlier probes is gone)")
            self._died = False
        if self.host is not None and not self.host.is_alive():
            notes.append("the kernel had died; started a new one (state from earlier probes is gone)")
            self._forget()
            if self.options.existing:
                raise ProbeSetupError(f"the kernel of {self.options.existing} is not running")
            self.host.shutdown()
            self.host = None
        if self.host is None:
            host = KernelHost(self.options.python, self.options.existing, self.options.cwd, self.options.output_limit)
            host.start()
            self.host = host
            self._forget()
        if not self._loaded:
            code = _load_code() + ("\n" + SUBREAPER_CODE if self.host.manager is not None else "")
            outcome = self.host.execute(code, timeout=max(self.options.timeout, 120.0))
            if outcome.status != "ok":
                detail = outcome.error_value or outcome.output.strip()[-300:] or "the kernel stopped"
                raise ProbeSetupError(f"cannot load the probe into the kernel ({self.host.python}): {detail}")
            self._loaded = True

    def _forget(self) -> None:
        self._ran.clear()
        self._loaded = False

    def restart(self) -> None:
        """Start from a clean kernel (what "probe from top" does first)."""
        if self.host is not None and self.host.manager is not None and self.host.is_alive():
            self.host.restart()
        elif self.host is not None:
            self.host.shutdown()
            self.host = None
        self._forget()

    def reset(self) -> None:
        """Empty the kernel's user namespace (like Jupyter's `%reset -f`) without a restart."""
        with self._lock:
            if self.host is not None and self.host.is_alive():
                self.host.execute("__import__('IPython').get_ipython().reset(new_session=False)", timeout=30)
            self._ran.clear()

    # --- probing ---
    def probe(self, document: Document, *, cell: Optional[int] = None, line: Optional[int] = None,
              from_top: bool = False, cancel: Optional[threading.Event] = None,
              on_progress: Optional[Callable[[str], None]] = None, record: bool = True) -> ProbeResult:
        """Probe one cell of `document` (a `# %%` file's text, or a notebook's cell texts).

        Pick the cell by index or by a 1-based `line` of a `# %%` file; neither means
        the last cell.  Never raises for user code or kernel faults.  `record=False` runs
        the cell the same way without instrumentation (for timing baselines).
        """
        with self._lock:
            started = time.monotonic()
            result = self._probe(document, cell, line, from_top, cancel, on_progress or (lambda _m: None), record)
            result.wall_seconds = round(time.monotonic() - started, 4)
            return result

    def _probe(self, document, cell_index, line, from_top, cancel, progress, record=True) -> ProbeResult:
        self._notebook = not isinstance(document, str)
        cells = cells_of(document)
        target = self._pick(cells, cell_index, line, isinstance(document, str))
        if target is None:
            return ProbeResult(status="setup-error", notes=["no such cell"],
                               error=ProbeError("ValueError", f"no cell at {cell_index if line is None else f'line {line}'}", None, "setup"))
        if not target.is_code:
            return ProbeResult(status="setup-error", cell=target.index, first_line=target.first_line,
                               last_line=target.last_line, error=ProbeError(
                                   "ValueError", f"cell {target.index + 1} is a markdown cell: nothing to run", None,
                                   "setup"))
        text = document if isinstance(document, str) else "\n".join(c.source for c in cells)
        wants_gpu = bool(_WANTS_GPU.search(text))
        notes: list = []
        base = dict(cell=target.index, first_line=target.first_line, last_line=target.last_line, notes=notes)
        try:
            if from_top:
                progress("restarting the kernel")
                self.restart()
            progress("starting the kernel" if self.host is None else "using the warm kernel")
            self._ensure_kernel(notes)
        except ProbeSetupError as exc:
            return ProbeResult(status="setup-error", error=ProbeError("ProbeSetupError", str(exc), None, "setup"), **base)
        ran: list = []
        above_errors: list = []
        for above in cells[: target.index]:
            if not above.is_code or self._ran.get(above.index) == above.fingerprint:
                continue
            progress(f"running cell {above.index + 1} (lines {above.first_line}–{above.last_line})")
            payload, outcome = self._run(above, probe=False, wants_gpu=wants_gpu, cancel=cancel)
            ran.append(above.index)
            failure = self._fault(outcome, payload, above, base, ran)
            if failure is not None:
                return failure
            if payload and payload.get("status") == "error":
                # Like Jupyter: the failure is shown, the cell counts as run (until it changes), and the
                # probed cell still runs; whether that makes sense is the user's call.
                err = payload["error"]
                above_errors.append({"cell": above.index, "type": err["type"], "message": err["message"],
                                     "line": err.get("line"), "kind": err.get("kind", "exception")})
                notes.append(f"cell {above.index + 1} above raised {err['type']}"
                             + (f" at line {err['line']}" if err.get("line") else "") + "; the probed cell ran anyway")
            self._ran[above.index] = above.fingerprint
        if ran:
            notes.append("ran cell" + ("s " if len(ran) > 1 else " ") + ", ".join(str(i + 1) for i in ran) + " first")
        progress(f"probing cell {target.index + 1}")
        payload, outcome = self._run(target, probe=record, wants_gpu=wants_gpu, cancel=cancel)
        failure = self._fault(outcome, payload, target, base, ran)
        if failure is not None:
            return failure
        self._ran[target.index] = target.fingerprint
        return result_from_payload(payload, ran_cells=ran, output=outcome.output, above_errors=above_errors,
                                   output_truncated=outcome.output_truncated, **base)

    @staticmethod
    def _pick(cells: list, index: Optional[int], line: Optional[int], is_text: bool) -> Optional[Cell]:
        if index is not None:
            return cells[index] if 0 <= index < len(cells) else None
        if line is not None and is_text:
            return cell_for_line(cells, line)
        return cells[-1] if cells else None

    def _progress_path(self) -> str:
        return os.path.join(self._tmp, "progress.json")

    def _run(self, cell: Cell, probe: bool, wants_gpu: bool, cancel):
        filename = f"<torchplace-probe {self.name} cell {cell.index}>"
        progress_path = self._progress_path()
        for stale in (progress_path, progress_path + ".line", progress_path + ".device"):
            try:
                os.unlink(stale)
            except FileNotFoundError:
                pass
        call = (
            f"__torchplace_probe_last = __import__('sys').modules['{KERNEL_PACKAGE}.runner'].run_cell("
            f"{cell.source!r}, {cell.first_line}, {filename!r}, probe={probe}, "
            f"simulate={self.options.simulate_gpu!r}, wants_gpu={wants_gpu}, progress_path={progress_path!r}, "
            f"script={self.options.script!r}, args={list(self.options.args)!r}, is_notebook={self._notebook})"
        )
        outcome = self.host.execute(call, self.options.timeout, mime=MIME, cancel=cancel)
        payload = outcome.payloads[-1] if outcome.payloads else None
        if payload is not None and "device" in payload:
            self._device = (payload["device"], bool(payload.get("simulated")))
        return payload, outcome

    def _partial(self) -> dict:
        """What the kernel wrote of a run that did not finish: `last_line` and recorded `lines`."""
        out: dict = {}
        try:
            with open(self._progress_path()) as fh:
                out.update(json.load(fh))
        except (OSError, ValueError):
            pass
        try:
            with open(self._progress_path() + ".line") as fh:
                out["last_line"] = int(fh.read())
        except (OSError, ValueError):
            pass
        try:
            with open(self._progress_path() + ".device") as fh:
                known = json.load(fh)
            out["device"] = (str(known["device"]), bool(known["simulated"]))
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return out

    def _fault(self, outcome, payload, cell: Cell, base: dict, ran: list) -> Optional[ProbeResult]:
        """A result for a timeout, a cancel or a dead kernel; None when the run finished."""
        notes = base["notes"]
        if outcome.died:
            partial = self._partial()
            last = partial.get("last_line")
            self._forget()
            notes.append("the kernel died (crash, os._exit or out of memory); it restarts on the next probe")
            result = result_from_payload({"lines": partial.get("lines", [])}, status="kernel-died", ran_cells=ran,
                                         output=outcome.output, output_truncated=outcome.output_truncated, **base)
            result.device, result.simulated = partial.get("device", self._device)
            where = f" while running line {last}" if last else ""
            result.error = ProbeError("KernelDied", f"the kernel process died{where}", last, "kernel-died",
                                      self.host.log_tail() if self.host else "", cell.index)
            if self.host is not None and not self.options.existing:
                self.host.shutdown()  # its process group, its temporary folder: nothing stays behind
                self.host = None
                self._died = True
            return result
        if outcome.timed_out or outcome.cancelled:
            status = "timeout" if outcome.timed_out else "cancelled"
            what = (f"the cell ran past the {self.options.timeout:g} s timeout" if outcome.timed_out
                    else "the probe was cancelled")
            if outcome.restarted:
                self._forget()
                notes.append(f"{what}; interrupting failed, so the kernel was restarted")
            else:
                notes.append(f"{what} and was interrupted; the kernel keeps its state")
            partial = self._partial() if payload is None else {}
            result = result_from_payload(payload if payload is not None else {"lines": partial.get("lines", [])},
                                         ran_cells=ran, output=outcome.output,
                                         output_truncated=outcome.output_truncated, **base)
            line = result.error.line if result.error else (partial or self._partial()).get("last_line")
            result.status = status
            result.error = ProbeError("Timeout" if outcome.timed_out else "Cancelled", what, line, status, "", cell.index)
            self._ran.pop(cell.index, None)
            return result
        if payload is None:
            detail = outcome.error_value or "no result came back from the kernel"
            return ProbeResult(status="setup-error", ran_cells=ran, output=outcome.output,
                               error=ProbeError(outcome.error_name or "ProbeError", detail, None, "setup"), **base)
        return None


def run_probe(document: Document, line_or_cell: Optional[int] = None, options: Optional[ProbeOptions] = None, *,
              by: str = "line", from_top: bool = False) -> ProbeResult:
    """One-shot probe with a fresh kernel (the CLI's path).  `by`: "line" (1-based) or "cell"."""
    with ProbeSession(options) as session:
        if by == "cell":
            return session.probe(document, cell=line_or_cell, from_top=from_top)
        return session.probe(document, line=line_or_cell, from_top=from_top)
