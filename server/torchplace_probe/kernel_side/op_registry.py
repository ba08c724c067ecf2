"""What PyTorch's own operator registry says about each op's device check (stdlib + torch only).

Why: a real CUDA run checks devices in one of three places, and the simulated GPU
must check in the same place to raise the same error (or none):

* the generated CUDA wrapper (torchgen `gen_device_check`, register_dispatch_key.py):
  ops whose `device_check` is the default (`ExactSame`) and that have a CUDA kernel
  call `check_and_update_common_device` on every tensor argument (out arguments
  first, then the positional ones), 0-dim tensors included;
* TensorIterator (`device_check: NoCheck   # TensorIterator`): the iterator's own
  `compute_types` check, which lets one 0-dim CPU input join a CUDA op when the op's
  iterator config allows CPU scalars;
* the kernel itself, for the other `NoCheck` ops (`where`, `index`, `copy_`, ...).

This module reads `native_functions.yaml` as shipped inside the installed torch
(`torchgen/packaged/ATen/native/`), so the table always matches the running torch.
The file is regular enough for a line reader (no YAML library is needed in the
user's interpreter); `tests/probe/test_op_registry.py` checks it against torchgen.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Optional

_FUNC = re.compile(r"^- func: (?P<name>[\w.]+)\(")
_FIELD = re.compile(r"^  (?P<key>\w+):\s*(?P<value>.*)$")
_DISPATCH = re.compile(r"^    (?P<keys>[\w, ]+):\s*(?P<kernel>\S+)")


@dataclass(frozen=True)
class OpInfo:
    """One `native_functions.yaml` entry, reduced to what decides its device check."""

    name: str  # "add.Tensor", "index_select" (no overload: "" in the yaml)
    exact_check: bool  # device_check is the default ExactSame
    cuda_kernel: bool  # a CUDA kernel exists (its own, or its structured delegate's)
    structured: bool  # generated through a structured kernel (own or delegate)
    tensor_iterator: bool  # NoCheck because TensorIterator checks devices itself
    composite: str  # "explicit", "implicit" or "" (a backend kernel)
    comment: str = ""  # the yaml's comment on the device_check line

    @property
    def base(self) -> str:
        return self.name.split(".", 1)[0]

    @property
    def overload(self) -> str:
        return self.name.split(".", 1)[1] if "." in self.name else ""

    def cuda_wrapper_name(self, is_out: bool) -> str:
        """The method name the generated CUDA wrapper reports, e.g. `wrapper_CUDA_addmm`,
        `wrapper_CUDA__index_select` (torchgen: NativeSignature for structured groups,
        DispatcherSignature with the overload as prefix otherwise)."""
        base = self.base + ("_out" if is_out else "")
        if self.structured:
            return "wrapper_CUDA_" + base + (f"_{self.overload}" if self.overload else "")
        return f"wrapper_CUDA_{self.overload}_{base}"


def yaml_path() -> Optional[str]:
    """`native_functions.yaml` of the installed torch (torchgen ships inside the torch wheel)."""
    try:
        import torchgen
    except ImportError:
        return None
    path = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native", "native_functions.yaml")
    return path if os.path.exists(path) else None


def _read_entries(text: str) -> list:
    entries: list = []
    current: Optional[dict] = None
    in_dispatch = False
    for line in text.split("\n"):
        match = _FUNC.match(line)
        if match:
            current = {"name": match.group("name"), "dispatch": {}, "comment": ""}
            entries.append(current)
            in_dispatch = False
            continue
        if current is None:
            continue
        field = _FIELD.match(line)
        if field:
            key, value = field.group("key"), field.group("value")
            in_dispatch = key == "dispatch"
            if key == "device_check":
                check, _, comment = value.partition("#")
                current["device_check"] = check.strip()
                current["comment"] = comment.strip()
            elif not in_dispatch:
                current[key] = value.split("#", 1)[0].strip()
            continue
        if in_dispatch:
            disp = _DISPATCH.match(line)
            if disp:
                for key in disp.group("keys").split(","):
                    current["dispatch"][key.strip()] = disp.group("kernel")
            elif line.strip() and not line.startswith("    "):
                in_dispatch = False
    return entries


def parse(text: str) -> dict:
    """name -> OpInfo for every entry of a native_functions.yaml text."""
    raw = {e["name"]: e for e in _read_entries(text)}
    table = {}
    for name, entry in raw.items():
        delegate = raw.get(entry.get("structured_delegate", ""))
        dispatch = entry["dispatch"]
        # ufunc_inner_loop: torchgen writes the CPU and CUDA kernels from the ufunc loops
        own_cuda = "CUDA" in dispatch or "ufunc_inner_loop" in entry
        cuda = own_cuda or (delegate is not None and ("CUDA" in delegate["dispatch"] or "ufunc_inner_loop" in delegate))
        structured = entry.get("structured") == "True" or delegate is not None
        inherits = entry.get("structured_inherits") or (delegate or {}).get("structured_inherits", "")
        nocheck = entry.get("device_check") == "NoCheck"
        ti = nocheck and (inherits == "TensorIteratorBase" or "TensorIterator" in entry["comment"])
        if not dispatch and delegate is None:
            composite = "implicit"
        elif "CompositeImplicitAutograd" in dispatch:
            composite = "implicit"
        elif not cuda and any(k.startswith("CompositeExplicitAutograd") for k in dispatch):
            composite = "explicit"
        else:
            composite = ""
        table[name] = OpInfo(name, not nocheck, cuda, structured, ti, composite, entry["comment"])
    return table


@lru_cache(maxsize=1)
def registry() -> dict:
    """The installed torch's table (empty when the yaml cannot be found)."""
    path = yaml_path()
    if path is None:
        return {}
    with open(path, encoding="utf-8") as fh:
        return parse(fh.read())


def lookup(qualified: str, overload: str) -> Optional[OpInfo]:
    """OpInfo of an ATen OpOverload (`aten::add`, `Tensor`; overload `default` means none)."""
    if not qualified.startswith("aten::"):
        return None
    base = qualified[len("aten::"):]
    name = base if overload in ("", "default") else f"{base}.{overload}"
    return registry().get(name)
