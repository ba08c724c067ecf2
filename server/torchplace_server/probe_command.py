"""`torchplace.probeCell`: run one cell under the probe (user-initiated only).

Arguments (from the "Probe cell" code lens): the document URI and a 0-based
line inside the cell.  The probe lives in the separate package
`torchplace_probe`, imported lazily here; until it is installed the command
says so in a `window/showMessage` and runs nothing.

Hand-off to the probe (the only contract): if `torchplace_probe` has a callable
`probe_cell`, it is called as `probe_cell(server, request)` with the
`ProbeRequest` below; it may return a value or an awaitable, and that value is
the command's result.  Everything else (kernel, instrumentation, showing the
results) is the probe's business.
"""
from __future__ import annotations

import importlib
import inspect
import logging
import sys
from dataclasses import asdict, dataclass, replace
from typing import Any, Optional

from lsprotocol import types
from pygls import uris
from torchplace_rules.text_lines import split_lines

from .analysis_units import find_document
from .server import TorchplaceServer  # real import: pygls evaluates command annotations

log = logging.getLogger(__name__)

PROBE_COMMAND = "torchplace.probeCell"
CANCEL_COMMAND = "torchplace.cancelProbe"
PROBE_MODULE = "torchplace_probe"
PROBE_ENTRY = "probe_cell"


@dataclass(frozen=True)
class ProbeRequest:
    uri: str  # the document, or the notebook cell, the lens was on
    line: int  # 0-based line the user asked about
    path: Optional[str]  # filesystem path of the file or notebook, if any
    text: str  # the whole document (or cell) text as the editor has it now
    cell_start: int  # 0-based first line of the cell (its `# %%` line), inclusive
    cell_end: int  # 0-based line after the cell, exclusive
    cell_source: str  # just the cell's code
    notebook_uri: Optional[str] = None  # set for notebook cells
    earlier_cells: tuple[str, ...] = ()  # notebook: every cell before this one, in order ("" for markdown)
    earlier_is_code: tuple[bool, ...] = ()  # notebook: which of `earlier_cells` are code cells
    cell_uris: tuple[str, ...] = ()  # notebook: the URIs of the cells up to and including this one
    from_top: bool = False  # restart the kernel and run every cell up to this one


def build_request(ls: "TorchplaceServer", uri: str, line: int, from_top: bool = False) -> Optional[ProbeRequest]:
    request = _build_request(ls, uri, line)
    return replace(request, from_top=from_top) if request is not None and from_top else request


def _build_request(ls: "TorchplaceServer", uri: str, line: int) -> Optional[ProbeRequest]:
    from .code_lens import cell_lines

    doc = find_document(ls.workspace, uri)
    if doc is None:
        return None
    text = doc.source
    lines = split_lines(text)  # LSP's lines: the request's line numbers are the editor's
    notebook = ls.workspace.get_notebook_document(cell_uri=uri)
    if notebook is not None:
        earlier, is_code, cell_uris = [], [], []
        for cell in notebook.cells:
            cell_uris.append(cell.document)
            if cell.document == uri:
                break
            cell_doc = find_document(ls.workspace, cell.document)
            code = cell.kind == types.NotebookCellKind.Code and cell_doc is not None
            earlier.append(cell_doc.source if code else "")
            is_code.append(code)
        return ProbeRequest(uri, line, uris.to_fs_path(notebook.uri), text, 0, len(lines), text, notebook.uri,
                            tuple(earlier), tuple(is_code), tuple(cell_uris))
    starts = cell_lines(text)
    start = max((s for s in starts if s <= line), default=0)
    end = min((s for s in starts if s > start), default=len(lines))
    return ProbeRequest(uri, line, uris.to_fs_path(uri), text, start, end, "\n".join(lines[start:end]))


async def probe_cell(ls: "TorchplaceServer", uri: Any, line: Any, options: Any = None) -> dict:
    if not isinstance(uri, str) or not isinstance(line, int) or isinstance(line, bool) or line < 0:
        raise ValueError(f"{PROBE_COMMAND} expects (document URI, 0-based line), got ({uri!r}, {line!r})")
    try:
        probe = importlib.import_module(PROBE_MODULE)
    except ImportError as exc:
        message = "torchplace: the probe is not installed (package torchplace_probe is missing), so the cell was not run."
        log.warning("%s (%s)", message, exc)
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        return {"ran": False, "reason": "probe-not-installed"}
    entry = getattr(probe, PROBE_ENTRY, None)
    if not callable(entry):
        message = f"torchplace: the installed probe offers no `{PROBE_ENTRY}` entry point yet, so the cell was not run."
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        return {"ran": False, "reason": "probe-entry-missing"}
    from_top = isinstance(options, dict) and options.get("fromTop") is True
    request = build_request(ls, uri, line, from_top)
    if request is None:
        message = f"torchplace: {uri} is not open in the editor, so the cell was not run."
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
        return {"ran": False, "reason": "document-not-open"}
    log.info("torchplace: probing %s line %d", uri, line)
    result = entry(ls, request)
    if inspect.isawaitable(result):
        result = await result
    return result if result is not None else {"ran": True, "request": asdict(request)}


async def cancel_probe(ls: "TorchplaceServer", uri: Any) -> dict:
    """Stop the probe running for this document (or notebook cell) now."""
    if not isinstance(uri, str):
        raise ValueError(f"{CANCEL_COMMAND} expects (document URI), got ({uri!r})")
    probe = sys.modules.get(PROBE_MODULE + ".editor_bridge")
    cancel = getattr(probe, "cancel_probe", None)
    notebook = ls.workspace.get_notebook_document(cell_uri=uri)
    return {"cancelled": bool(cancel(notebook.uri if notebook is not None else uri)) if cancel else False}


def register(server: "TorchplaceServer") -> None:
    @server.command(CANCEL_COMMAND)
    async def cancel_probe_command(ls: "TorchplaceServer", *args: Any) -> dict:
        if len(args) != 1:
            raise ValueError(f"{CANCEL_COMMAND} expects (document URI), got {len(args)} arguments")
        return await cancel_probe(ls, args[0])

    @server.command(PROBE_COMMAND)
    async def probe_cell_command(ls: "TorchplaceServer", *args: Any) -> dict:
        if len(args) not in (2, 3):
            raise ValueError(f"{PROBE_COMMAND} expects (document URI, line[, {{\"fromTop\": true}}]), got {len(args)} arguments")
        return await probe_cell(ls, *args)

