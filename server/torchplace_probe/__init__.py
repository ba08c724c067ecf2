"""torchplace's probe: run one cell in a real Jupyter kernel and record, per line,
where tensors live, every host↔device copy, every synchronising call and the first
(device-mismatch) error, with an optional simulated GPU.  Runs only when asked.

Host-side API (stdlib + jupyter_client; never imports torch)::

    from torchplace_probe import ProbeSession, ProbeOptions, run_probe

    session = ProbeSession(ProbeOptions(python=None,          # interpreter; default sys.executable
                                        existing=None,        # a running kernel's connection file
                                        simulate_gpu="auto",  # "auto" | "on" | "off"
                                        timeout=60.0))        # seconds per cell
    result = session.probe(text, line=12)        # the `# %%` cell holding 1-based line 12
    result = session.probe(cell_texts, cell=3)   # a notebook: list of code-cell texts
    result = session.probe(text, cell=0, from_top=True,
                           cancel=threading.Event(), on_progress=print)
    session.close()                               # one session (warm kernel) per document

    result = run_probe(text, 12, options)         # one-shot, fresh kernel (the CLI)

`ProbeResult` (torchplace_probe.result): `status` (ok | error | timeout | kernel-died |
error-above | cancelled | setup-error), `lines` (LineResult: `line` 1-based, `values`,
`transfers`, `syncs`, `label()` → "→ cuda:0 float32 [32, 10]  host→device 4.0 MB"),
`error` (ProbeError: type, message, line, kind), `variables`, `device`, `simulated`,
`copies`, `bytes`, `syncs`, `seconds`, `summary()`, `to_json()`, `to_text()`.
Notebook cells number lines from 1 at the cell's first line.  `probe()` is blocking
and never raises for user code or kernel faults: call it from a worker thread.
JSON format: docs/probe.md.

Language server: `torchplace_server.probe_command` calls `probe_cell(server, request)`
(editor_bridge.py): per-line information diagnostics, an error diagnostic on the
failing line, a showMessage summary, the full text in the log, work-done progress
with cancel; it returns `{"ran": True, "result": ProbeResult.to_dict()}`.
"""
from .cells import Cell, split_cells
from .kernel_host import ProbeSetupError
from .result import LineResult, ProbeError, ProbeResult, Transfer, format_bytes, format_value
from .session import ProbeOptions, ProbeSession, run_probe
from .editor_bridge import probe_cell  # the language server's hand-off (torchplace_server.probe_command)

__all__ = [
    "Cell", "LineResult", "ProbeError", "ProbeOptions", "ProbeResult", "ProbeSession", "ProbeSetupError",
    "Transfer", "format_bytes", "format_value", "probe_cell", "run_probe", "split_cells",
]
