"""Per-line recording of one probed cell (kernel side: stdlib + torch only).

Why: the probe answers "where does each line's tensor live, which lines copy
between host and device, which lines synchronise".  Two cheap mechanisms:

* a trace function limited to frames of the cell's own file (`sys.settrace`
  returns None for every other frame, so library code runs untraced) keeps the
  current cell line and, when a statement finishes, describes the values it
  assigned;
* thin wrappers around the few Tensor methods that copy or synchronise
  (`to`, `cuda`, `cpu`, `copy_`, `item`, `tolist`, `__repr__`, ...) attribute
  each copy and sync to the current cell line.  Every other torch call runs
  unwrapped, which keeps the overhead low.
"""
from __future__ import annotations

import ast
import json
import os
import re
import sys
import time
from typing import Optional

import torch

PROGRESS_SNAPSHOT_S = 0.2

from . import simulated_gpu as sim
from .sim_surface import Patches
from .values import describe

MAX_NAMES_PER_LINE = 8
MAX_DEVICE_ERRORS = 20

# PyTorch's wordings for "this tensor is on the wrong device".
DEVICE_ERROR = re.compile(
    r"Expected all tensors to be on the same device|should be the same or input should be a MKLDNN|"
    r"and weight type|and bias type|indices should be either on cpu|can't convert cuda|"
    r"Torch not compiled with CUDA enabled|tensors are not at the same device|"
    r"Expected object of device type|on the same device|device type for generator|for value tensor|"
    r"'lengths' argument should be a 1D CPU|invalid device ordinal|Attempting to deserialize object on|"
    r"CPU scalars to non-CPU kernel|only dense CPU tensors can be pinned"
)


def assigned_names(source: str, first_line: int) -> dict:
    """statement line (1-based, document) -> (last line, names it assigns)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    offset = first_line - 1
    table: dict = {}

    def names_of(target) -> list:
        if isinstance(target, ast.Name):
            return [target.id]
        if isinstance(target, (ast.Tuple, ast.List)):
            return [n for elt in target.elts for n in names_of(elt)]
        if isinstance(target, ast.Starred):
            return names_of(target.value)
        return []

    for node in ast.walk(tree):
        names: list = []
        end = getattr(node, "end_lineno", None)
        if isinstance(node, ast.Assign):
            names = [n for t in node.targets for n in names_of(t)]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            names = names_of(node.target)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            names = names_of(node.target)
            end = node.iter.end_lineno
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            names = [n for item in node.items if item.optional_vars is not None for n in names_of(item.optional_vars)]
            end = max(item.context_expr.end_lineno for item in node.items)
        if names:
            table[node.lineno + offset] = (end + offset, names[:MAX_NAMES_PER_LINE])
    return table


class LineRecord:
    __slots__ = ("hits", "values", "transfers", "syncs", "discarded_moves")

    def __init__(self) -> None:
        self.hits = 0
        self.values: dict = {}
        self.transfers: dict = {}
        self.syncs: dict = {}
        self.discarded_moves = 0

    def to_json(self, line: int) -> dict:
        out = {
            "line": line, "hits": self.hits, "values": self.values,
            "transfers": [dict(kind=k[0], source=k[1], target=k[2], **v) for k, v in self.transfers.items()],
            "syncs": [{"kind": k, "count": n} for k, n in self.syncs.items()],
        }
        if self.discarded_moves:
            out["discarded_moves"] = self.discarded_moves
        return out


def transfer_kind(src: torch.device, dst: torch.device) -> Optional[str]:
    if src == dst or "meta" in (src.type, dst.type):
        return None
    if src.type == "cpu":
        return "host_to_device"
    if dst.type == "cpu":
        return "device_to_host"
    return "device_to_device"


class Recorder:
    """Records one cell run; install() before exec, uninstall() after."""

    def __init__(self, filename: str, source: str, first_line: int, progress_path: Optional[str] = None,
                 simulated: bool = False) -> None:
        self.filename = filename
        self.simulated = simulated
        self.assigned = assigned_names(source, first_line)
        self.lines: dict = {}
        self.current_line = first_line
        self.frame_lines: dict = {}
        self.progress_path = progress_path
        self._last_snapshot = 0.0
        self._line_file = None  # kept open: rewritten in place for every new line
        self.copies = 0
        self.bytes = 0
        self.syncs = 0
        self._patches = Patches()
        self._seen_exceptions: set = set()
        self.device_errors: list = []
        self._depth = 0
        self._previous_trace = None
        self._previous_hook = None

    # --- line tracking ---
    def _record(self, line: int) -> LineRecord:
        rec = self.lines.get(line)
        if rec is None:
            rec = self.lines[line] = LineRecord()
            self._write_progress(line)
        return rec

    def _make_global_trace(self):
        """The function sys.settrace calls for every new frame: as cheap as possible,
        since under the simulated GPU every torch call enters Python frames."""
        def global_trace(frame, event, arg, _filename=self.filename, _local=self._local_trace):
            return _local if frame.f_code.co_filename == _filename else None
        return global_trace

    def _local_trace(self, frame, event, arg):
        if event == "line":
            key = id(frame)
            prev = self.frame_lines.get(key)
            line = frame.f_lineno
            if prev is not None:
                self._finish(frame, prev, line)
            self.frame_lines[key] = line
            self.current_line = line
            self._record(line).hits += 1
        elif event == "exception":
            self._note_exception(frame.f_lineno, arg[1])
        elif event == "return":
            prev = self.frame_lines.pop(id(frame), None)
            if prev is not None:
                self._finish(frame, prev, None)
            caller = frame.f_back
            if caller is not None and id(caller) in self.frame_lines:
                self.current_line = self.frame_lines[id(caller)]
        return self._local_trace

    def _finish(self, frame, prev: int, now: Optional[int]) -> None:
        stmt = self.assigned.get(prev)
        if stmt is None:
            return
        end, names = stmt
        if now is not None and prev <= now <= end:
            return  # still inside the same statement
        namespace = frame.f_locals
        rec = self._record(prev)
        for name in names:
            if name in namespace:
                info = describe(namespace[name])
                if info is not None:
                    rec.values[name] = info

    def _note_exception(self, line: int, exc: BaseException) -> None:
        """Device errors are kept even when the cell catches them (`try: ... except RuntimeError`)."""
        if id(exc) in self._seen_exceptions or len(self.device_errors) >= MAX_DEVICE_ERRORS:
            return
        self._seen_exceptions.add(id(exc))
        message = str(exc)
        if DEVICE_ERROR.search(message):
            self.device_errors.append({"line": line, "type": type(exc).__name__, "message": message})

    # --- copies and syncs ---
    def on_transfer(self, src: torch.device, dst: torch.device, nbytes: int) -> None:
        kind = transfer_kind(src, dst)
        if kind is None:
            return
        rec = self._record(self.current_line)
        key = (kind, str(src), str(dst))
        entry = rec.transfers.setdefault(key, {"count": 0, "bytes": 0})
        entry["count"] += 1
        entry["bytes"] += nbytes
        self.copies += 1
        self.bytes += nbytes

    def on_sync(self, kind: str, t: torch.Tensor) -> None:
        if sim.device_of(t).type == "cpu":
            return
        rec = self._record(self.current_line)
        rec.syncs[kind] = rec.syncs.get(kind, 0) + 1
        self.syncs += 1

    def _patch(self, owner, name, make) -> None:
        self._patches.set(owner, name, make(getattr(owner, name)))

    def _install_patches(self) -> None:
        rec = self

        def moving(original, target_of):
            def wrapper(self, *args, **kwargs):
                src = sim.device_of(self)
                out = original(self, *args, **kwargs)
                if isinstance(out, torch.Tensor) and out is not self:
                    rec.on_transfer(src, sim.device_of(out), self.numel() * self.element_size())
                    if src.type != "cpu" and target_of(out).type == "cpu":
                        rec.on_sync(".cpu()" if original.__name__ == "cpu" else ".to('cpu')", self)
                return out
            wrapper.__name__ = original.__name__
            wrapper.__doc__ = original.__doc__
            return wrapper

        def copying(original):
            def copy_(self, src, *args, **kwargs):
                if isinstance(src, torch.Tensor):
                    rec.on_transfer(sim.device_of(src), sim.device_of(self), src.numel() * src.element_size())
                return original(self, src, *args, **kwargs)
            copy_.__doc__ = original.__doc__
            return copy_

        def syncing(kind):
            def make(original):
                def wrapper(self, *args, **kwargs):
                    # torch resolves C methods on torch.Tensor by name when it calls a
                    # mode, so under simulation this wrapper is entered twice.
                    if rec._depth:
                        return original(self, *args, **kwargs)
                    rec.on_sync(kind, self)
                    rec._depth += 1
                    try:
                        return original(self, *args, **kwargs)
                    finally:
                        rec._depth -= 1
                wrapper.__name__ = original.__name__
                wrapper.__doc__ = original.__doc__
                return wrapper
            return make

        def factory(original):
            def wrapper(*args, **kwargs):
                out = original(*args, **kwargs)
                if kwargs.get("device") is not None and isinstance(out, torch.Tensor):
                    src_is_tensor = bool(args) and isinstance(args[0], torch.Tensor)
                    src = sim.device_of(args[0]) if src_is_tensor else torch.device("cpu")
                    rec.on_transfer(src, sim.device_of(out), out.numel() * out.element_size())
                return out
            wrapper.__name__ = original.__name__
            wrapper.__doc__ = original.__doc__
            return wrapper

        T = torch.Tensor
        if not self.simulated:  # under simulation the simulated device reports moves itself
            self._patch(T, "to", lambda o: moving(o, sim.device_of))
            self._patch(T, "cuda", lambda o: moving(o, sim.device_of))
            self._patch(T, "cpu", lambda o: moving(o, sim.device_of))
            self._patch(T, "copy_", copying)
            self._patch(torch, "tensor", factory)
            self._patch(torch, "as_tensor", factory)
        else:  # the simulated device reports every copy itself
            self._previous_hook = sim.set_transfer_hook(self.on_transfer)
        for name, kind in ((
            "item", ".item()"), ("tolist", ".tolist()"), ("__repr__", "print/repr"), ("numpy", ".numpy()"),
            ("__bool__", "bool()"), ("__float__", "float()"), ("__int__", "int()"), ("nonzero", ".nonzero()"),
        ):
            self._patch(T, name, syncing(kind))

    def install(self) -> None:
        sim.origins.forget_moves(self.filename)
        self._install_patches()
        self._previous_trace = sys.gettrace()
        sys.settrace(self._make_global_trace())

    def uninstall(self) -> None:
        sys.settrace(self._previous_trace)
        if self._line_file is not None:
            self._line_file.close()
            self._line_file = None
        self._patches.undo()
        if self.simulated:
            sim.set_transfer_hook(self._previous_hook)

    # --- results ---
    def _write_progress(self, line: int) -> None:
        """For the host, should the kernel die or hang: the line running now (every new line; a few
        bytes), and what the lines recorded so far (at most every PROGRESS_SNAPSHOT_S: writing
        them all on every new line made a long cell's cost grow with the square of its length)."""
        if not self.progress_path:
            return
        try:
            if self._line_file is None:
                self._line_file = open(self.progress_path + ".line", "w")
            self._line_file.seek(0)
            self._line_file.write(f"{line:<12}")  # fixed width: nothing of a longer number is left
            self._line_file.flush()
            now = time.monotonic()
            if now - self._last_snapshot < PROGRESS_SNAPSHOT_S:
                return
            self._last_snapshot = now
            tmp = self.progress_path + ".tmp"
            with open(tmp, "w") as fh:
                json.dump({"lines": self.lines_json()}, fh)
            os.replace(tmp, self.progress_path)
        except Exception:
            pass

    def lines_json(self) -> list:
        return [rec.to_json(line) for line, rec in sorted(self.lines.items())]

    def note_dropped_moves(self) -> None:
        """Moves whose copy nobody used (`x.to(device)` as a statement), known once the cell ended."""
        for line, count in sim.origins.dropped_moves(self.filename).items():
            self._record(line).discarded_moves = count


def error_stack(exc: BaseException, filename: str) -> list:
    """The cell's own lines in the exception's traceback, outermost first."""
    tb = exc.__traceback__
    lines = []
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            lines.append(tb.tb_lineno)
        tb = tb.tb_next
    return lines
