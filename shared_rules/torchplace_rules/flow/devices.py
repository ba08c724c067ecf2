"""Devices as the analysis sees them: the CPU, an accelerator (with its index
when the code names one), or "the enclosing module's device".

A device the analysis cannot pin down is None; joining two paths keeps a
device only when both agree, so an unknown never turns into a finding.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from .frozen import fast_init

CPU_KIND, ACCEL_KIND, SELF_KIND = "cpu", "accel", "self"
RUNTIME = "runtime"  # the label of an accelerator whose index the program chooses at run time
# Device types PyTorch runs on besides the CPU (the part before `:` in "cuda:0").
ACCEL_TYPES = ("cuda", "mps", "xpu", "xla", "hpu", "npu", "mtia", "privateuseone", )


@fast_init
@dataclass(frozen=True)
class Dev:
    """Where a value lives.  `kind` is cpu, accel, or self (the enclosing
    module's device, unknown but consistent); `label` tells accelerators
    apart (cuda:0 vs cuda:1); `expr` is source text naming it, for fixes.
    `mac`: where it is on a machine with MPS and no CUDA (Apple silicon), where a test of which
    accelerator is there chose it (`"cuda" if torch.cuda.is_available() else "cpu"` is "cpu" there,
    a chain that falls through to `torch.device("mps")` is "mps"); None where no such test chose it
    (see `mac_kind`)."""

    kind: str
    label: str
    expr: Optional[str] = None
    at: Optional[ast.AST] = field(default=None, compare=False, hash=False)
    mac: Optional[str] = None
    # the accelerator a program is only assumed to target: `args.device`, `config.device` or a parameter
    # named `device` whose value the analysis cannot see (no code of its chose it)
    assumed: bool = field(default=False, compare=False, hash=False)

    @property
    def is_cpu(self) -> bool:
        return self.kind == CPU_KIND

    @property
    def is_accel(self) -> bool:
        return self.kind == ACCEL_KIND


CPU = Dev(CPU_KIND, "cpu", '"cpu"')
SELF_DEV = Dev(SELF_KIND, "self")


def join_dev(a: Optional[Dev], b: Optional[Dev]) -> Optional[Dev]:
    if a is None or b is None:
        return None
    if a.kind != b.kind or a.label != b.label:
        return None
    if a.expr != b.expr or a.mac != b.mac or a.assumed != b.assumed:
        return Dev(a.kind, a.label, a.expr if a.expr == b.expr else None, a.at, a.mac if a.mac == b.mac else None,
                   a.assumed and b.assumed)
    return a


def mac_kind(dev: Dev) -> Optional[str]:
    """"cpu" or "mps": where `dev` is on a machine with MPS and no CUDA (the macOS builds of PyTorch
    have no CUDA: `torch.cuda.is_available()` is False there, `torch.backends.mps.is_available()`
    True on Apple silicon).  None where that does not follow from the code (`"cuda"` itself, a choice
    made by a flag)."""
    if dev.kind == CPU_KIND:
        return "cpu"
    if dev.kind == ACCEL_KIND and dev.label.startswith("mps"):
        return "mps"
    return dev.mac


def mac_conflict(a: Dev, b: Dev) -> bool:
    """Two accelerator devices that are the same on a CUDA machine but, on a machine with MPS and
    no CUDA, one is mps and the other the CPU (a choice that only tests for CUDA)."""
    if a.mac is None and b.mac is None:
        return False
    ka, kb = mac_kind(a), mac_kind(b)
    return ka is not None and kb is not None and ka != kb


def chosen_target(a: Optional[Dev], b: Optional[Dev]) -> Optional[Dev]:
    """A choice between the CPU and one accelerator (`"cuda" if use_gpu else "cpu"`, or the same
    choice made by an `if` statement's branches): the program runs where it asks for the
    accelerator, so the choice is that accelerator (labelled "target" unless it names an index or
    is picked at run time).  None when it is not such a choice."""
    if a is None or b is None or a.kind == b.kind or not (a.is_cpu or b.is_cpu):
        return None
    accel = a if a.is_accel else b
    if not accel.is_accel:
        return None
    label = accel.label if ":" in accel.label or accel.label == RUNTIME else "target"
    return Dev(accel.kind, label, accel.expr, accel.at)


def chosen_index(a: Optional[Dev], b: Optional[Dev]) -> Optional[Dev]:
    """Branches picking the same accelerator type with an index chosen at run time on one of them
    (`torch.device("cuda", args.gpu)` / `torch.device("cuda")`): an accelerator whose index the
    program chooses at run time.  None when it is not such a choice."""
    if a is None or b is None or a.kind != ACCEL_KIND or b.kind != ACCEL_KIND or (a.label == RUNTIME) == (b.label == RUNTIME):
        return None
    known = b.label if a.label == RUNTIME else a.label
    if known.partition(":")[0] != "cuda":
        return None
    return Dev(ACCEL_KIND, RUNTIME, None, (a if a.label == RUNTIME else b).at)


def tests_a_device(test: ast.AST) -> bool:
    """Does an `if` test read where a value is (`x.is_cuda`, `t.device.type == "cuda"`)?  Then the
    device its branches choose is that value's, not the program's target."""
    return any(n.__class__ is ast.Attribute and n.attr in _DEVICE_TESTS for n in ast.walk(test))


_DEVICE_TESTS = frozenset(("is_cuda", "is_cpu", "is_mps", "device", "type"))


def devices_conflict(a: Dev, b: Dev, current_is_zero: bool = False) -> bool:
    """Would an op combining (non-0-dim) tensors on a and b raise on a GPU machine?  `"cuda"`
    and `.cuda()` mean the current CUDA device: with `current_is_zero` (the program never calls
    `torch.cuda.set_device`) that is cuda:0."""
    if a.is_cpu and b.is_accel or a.is_accel and b.is_cpu:
        return True
    if a.is_accel and b.is_accel:
        la, lb = _indexed(a.label, current_is_zero), _indexed(b.label, current_is_zero)
        return la != lb and ":" in la and ":" in lb
    return False


def index_dependent(a: Dev, b: Dev, current_is_zero: bool) -> bool:
    """cuda:<i>, i chosen at run time (`f"cuda:{args.gpu}"`, `.cuda(gpu)`), against a CUDA device of
    known index (`"cuda:1"`, or `"cuda"`/`.cuda()`, the current device, cuda:0 where the program never
    picks it): an op combining them raises whenever i is another index, as `--gpu 1` makes it."""
    if a.kind != ACCEL_KIND or b.kind != ACCEL_KIND or (a.label == RUNTIME) == (b.label == RUNTIME):
        return False
    known = _indexed(b.label if a.label == RUNTIME else a.label, current_is_zero)
    return known.startswith("cuda:")


def picks_current_device(text: str) -> bool:
    """Does this code choose the current CUDA device (`torch.cuda.set_device(i)`, `with
    torch.cuda.device(i):`)?  Without that, "cuda" and `.cuda()` mean cuda:0."""
    return "set_device" in text or "cuda.device(" in text


def _indexed(label: str, current_is_zero: bool) -> str:
    return "cuda:0" if label == "cuda" and current_is_zero else label


def runtime_device(prefix, at=None) -> Optional[Dev]:
    """`f"cuda:{rank}"`, `"cuda:{}".format(gpu)`: a CUDA device whose index is chosen at run time
    (`prefix`: the literal text the string starts with).  Every RUNTIME device is a CUDA one (as
    `torch.device(gpu)` and `.cuda(gpu)` are), so `t.is_cuda` is true there; another accelerator type
    with a run-time index (`f"xpu:{rank}"`) is some accelerator, its index not known ("target")."""
    if isinstance(prefix, str):
        base = prefix.split(":")[0].strip().lower()
        if base in ACCEL_TYPES and (":" in prefix or prefix.strip().lower() == base):
            return Dev(ACCEL_KIND, RUNTIME if base == "cuda" else "target", None, at)
    return None


def parse_device_string(text: str, at=None) -> Optional[Dev]:
    """`"cpu"`, `"cuda"`, `"cuda:1"`, `"mps"` as a device (None: not a device string)."""
    base, _, index = text.partition(":")
    base = base.strip().lower()
    if base == "cpu":
        return CPU
    if base in ACCEL_TYPES:
        label = f"{base}:{index}" if index.isdigit() else base
        return Dev(ACCEL_KIND, label, repr(text).replace("'", '"'), at)
    return None
