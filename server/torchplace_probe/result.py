"""ProbeResult: what one probe learned, as stable JSON (docs/probe.md) and as text.

Why: three surfaces (CLI text, CLI JSON, the language server) show the same
facts; one data type keeps them in agreement.  Lines are 1-based, like the
CLI's JSON output; notebook cells count lines from their own first line.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Optional

SCHEMA = "torchplace-probe/1"
ARROWS = {"host_to_device": "host→device", "device_to_host": "device→host", "device_to_device": "device→device"}


def format_bytes(n: int) -> str:
    value = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{int(value)} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{n} B"


def format_value(info: dict) -> str:
    """`cuda:0 float32 [32, 10]`, `Net on cuda:0`, `dict: a→cuda:0, b→cpu`."""
    kind = info.get("kind")
    if kind == "tensor":
        return f"{info['device']} {info['dtype']} {list(info['shape'])}"
    if kind == "module":
        where = info.get("split") or ("on " + ", ".join(info["devices"]) if info["devices"] else "with no parameters")
        text = f"{info['type']} {where}"
        stray = {k: d for k, d in info.get("tensor_attributes", {}).items() if d not in info["devices"]}
        if stray and info["devices"]:
            text += " (plain tensor attribute " + ", ".join(f"{k} on {d}" for k, d in stray.items()) + ")"
        return text
    if kind == "device":
        return f"device {info['device']}"
    if kind in ("dict", "list", "tuple"):
        items = ", ".join(f"{k}→{v['device']}" for k, v in info.get("items", {}).items())
        more = "" if len(info.get("items", {})) >= info.get("length", 0) else ", …"
        return f"{kind}: {items}{more}"
    return str(info)


@dataclass
class Transfer:
    kind: str  # host_to_device | device_to_host | device_to_device
    source: str
    target: str
    count: int
    bytes: int

    def label(self) -> str:
        times = f" ×{self.count}" if self.count > 1 else ""
        return f"{ARROWS.get(self.kind, self.kind)} {format_bytes(self.bytes)}{times}"


@dataclass
class LineResult:
    line: int
    hits: int = 0
    values: dict = field(default_factory=dict)
    transfers: list = field(default_factory=list)
    syncs: list = field(default_factory=list)
    discarded_moves: int = 0  # moves on this line whose copy nobody used (`x.to(device)` as a statement)

    @classmethod
    def from_json(cls, data: dict) -> "LineResult":
        return cls(
            line=data["line"], hits=data.get("hits", 0), values=dict(data.get("values", {})),
            transfers=[Transfer(**t) for t in data.get("transfers", [])], syncs=list(data.get("syncs", [])),
            discarded_moves=data.get("discarded_moves", 0),
        )

    @property
    def is_empty(self) -> bool:
        return not (self.values or self.transfers or self.syncs or self.discarded_moves)

    def label(self) -> str:
        """One line of text: `→ cuda:0 float32 [32, 10]  host→device 4.0 MB  sync .item() ×50`."""
        parts = []
        if self.values:
            if len(self.values) == 1:
                parts.append("→ " + format_value(next(iter(self.values.values()))))
            else:
                parts.append("→ " + "; ".join(f"{k}: {format_value(v)}" for k, v in self.values.items()))
        parts += [t.label() for t in self.transfers]
        for s in self.syncs:
            parts.append(f"sync {s['kind']}" + (f" ×{s['count']}" if s["count"] > 1 else ""))
        if self.discarded_moves:
            parts.append("copy not kept (the tensor stays where it was)")
        return "  ".join(parts)


@dataclass
class ProbeError:
    type: str
    message: str
    line: Optional[int]
    kind: str = "exception"  # device-mismatch | exception | interrupted | timeout | kernel-died
    traceback: str = ""
    cell: Optional[int] = None
    stack: list = field(default_factory=list)  # the cell's lines in the traceback, outermost first
    # where the offending operand got its device: {operand, device, line, cell | file, kind, moved_to, created}
    root_cause: Optional[dict] = None
    static_finding: Optional[bool] = None  # a device error: does a static finding sit on its chain?

    def root_cause_text(self) -> str:
        """`line 4: mat1 (on cpu) was created here` and the like; "" when unknown."""
        cause = self.root_cause or {}
        if cause.get("line") is None:
            return ""
        where = f"line {cause['line']}" + (f" of {cause['file']}" if cause.get("file") else "")
        operand, device = cause.get("operand", "the tensor"), cause.get("device", "?")
        kind = cause.get("kind")
        if kind == "move-discarded":
            return (f"{where}: this move to {cause.get('moved_to')} returned a copy that was not used; "
                    f"{operand} stayed on {device}")
        if kind == "moved":
            return f"{where}: {operand} was moved to {device} here"
        if kind == "hidden-attribute":
            return (f"{where}: {operand} is held in `self.{cause.get('attribute')}` of {cause.get('owner')}, which "
                    f"Module.to() does not move (a plain attribute, not a buffer, parameter or ModuleList); "
                    f"it stayed on {device}")
        return f"{where}: {operand} was created on {device} here"


@dataclass
class ProbeResult:
    """The outcome of one probe.  `status`: ok | error | timeout | kernel-died | error-above |
    cancelled | setup-error."""

    status: str
    cell: Optional[int] = None
    first_line: Optional[int] = None
    last_line: Optional[int] = None
    lines: list = field(default_factory=list)
    error: Optional[ProbeError] = None
    variables: dict = field(default_factory=dict)
    device: str = "cpu"  # a real GPU's name, "simulated" or "cpu"
    simulated: bool = False
    copies: int = 0
    bytes: int = 0
    syncs: int = 0
    seconds: float = 0.0
    wall_seconds: float = 0.0
    output: str = ""
    output_truncated: bool = False
    notes: list = field(default_factory=list)
    ran_cells: list = field(default_factory=list)
    device_errors: list = field(default_factory=list)  # {line, type, message}: also those the cell caught
    torch_version: str = ""
    static_findings: list = field(default_factory=list)  # verdicts.StaticFinding.to_json(), when checked
    above_errors: list = field(default_factory=list)  # {cell, type, message, line, kind}: cells above that raised

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def line(self, number: int) -> Optional[LineResult]:
        for rec in self.lines:
            if rec.line == number:
                return rec
        return None

    def to_dict(self) -> dict:
        data = asdict(self)
        data = {"schema": SCHEMA, **data}
        return data

    def to_json(self, indent: Optional[int] = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def summary(self) -> str:
        device = "simulated GPU" if self.simulated else self.device
        parts = [f"device {device}", f"{self.copies} cop{'y' if self.copies == 1 else 'ies'}",
                 format_bytes(self.bytes), f"{self.syncs} sync{'s' if self.syncs != 1 else ''}",
                 f"{self.seconds:.3f} s"]
        return " · ".join(parts)

    def to_text(self, source_lines: Optional[list] = None, path: str = "") -> str:
        where = f"cell {self.cell + 1}" if self.cell is not None else "cell"
        if self.first_line is not None:
            where += f" (lines {self.first_line}–{self.last_line})"
        out = [f"probe {path} {where}: {self.status}".replace("  ", " ")]
        out += [f"  note: {n}" for n in self.notes]
        width = 0
        if source_lines:
            width = min(max((len(source_lines[r.line - 1].rstrip()) for r in self.lines
                             if 0 < r.line <= len(source_lines)), default=0), 60)
        error_line = self.error.line if self.error else None
        caught = {e["line"]: e for e in self.device_errors if not self.error or e["message"] != self.error.message}
        for rec in self.lines:
            if rec.is_empty and rec.line != error_line and rec.line not in caught:
                continue
            text = ""
            if source_lines and 0 < rec.line <= len(source_lines):
                text = source_lines[rec.line - 1].rstrip()[:60].ljust(width) + "  "
            label = rec.label()
            if rec.line == error_line:
                label = (label + "  " if label else "") + f"✗ {self.error.type}: {self.error.message}"
            elif rec.line in caught:
                label = (label + "  " if label else "") + f"✗ (caught) {caught[rec.line]['type']}: {caught[rec.line]['message']}"
            out.append(f"{rec.line:5d} │ {text}{label}")
        if self.error and (error_line is None or self.line(error_line) is None):
            at = f" (line {error_line})" if error_line else ""
            out.append(f"  ✗ {self.error.type}{at}: {self.error.message}")
        if self.error and self.error.root_cause_text():
            out.append(f"  root cause: {self.error.root_cause_text()}")
        if self.error and self.error.static_finding is False:
            out.append("  no static finding explains this error (--report-miss DIR writes a corpus case)")
        judged = [f for f in self.static_findings if f.get("verdict")]
        if judged:
            out.append("static findings:")
            for f in judged:
                cell = f" (cell {f['cell']})" if f.get("cell") is not None else ""
                out.append(f"  line {f['line']}{cell} {f['code']}: {f['verdict'].replace('-', ' ')} — {f['message']}")
        if self.variables:
            out.append("variables:")
            for name, info in self.variables.items():
                out.append(f"  {name}: {format_value(info)}")
        if self.output:
            out.append("output:")
            out += ["  " + line for line in self.output.rstrip("\n").splitlines()[-40:]]
            if self.output_truncated:
                out.append("  [output truncated]")
        out.append("summary: " + self.summary())
        return "\n".join(out)


def result_from_payload(payload: dict[str, Any], **extra: Any) -> ProbeResult:
    """Build a result from the kernel's JSON payload (see kernel_side/runner.py)."""
    err = payload.get("error")
    result = ProbeResult(
        status=payload.get("status", "ok"),
        lines=[LineResult.from_json(rec) for rec in payload.get("lines", [])],
        error=ProbeError(**{k: err.get(k) for k in ("type", "message", "line", "kind", "traceback")},
                         stack=list(err.get("stack") or []), root_cause=err.get("root_cause")) if err else None,
        device_errors=list(payload.get("device_errors", [])),
        variables=payload.get("variables", {}),
        device=payload.get("device", "cpu"),
        simulated=bool(payload.get("simulated")),
        copies=payload.get("copies", 0),
        bytes=payload.get("bytes", 0),
        syncs=payload.get("syncs", 0),
        seconds=payload.get("seconds", 0.0),
        torch_version=payload.get("torch_version", ""),
    )
    for key, value in extra.items():
        setattr(result, key, value)
    return result
