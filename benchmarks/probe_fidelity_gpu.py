"""The probe's fidelity cases on a real GPU: does each stated behaviour hold, and does the simulation agree?

    python benchmarks/probe_fidelity_gpu.py [--json OUT] [--only SUBSTRING]

Runs every case of tests/probe/fidelity_cases.py twice: on the machine's real CUDA
devices, and under the simulated GPU (which also works on a GPU machine: it keeps
every tensor on the CPU).  Prints one row per case: the outcome the case states,
whether real CUDA confirms it, and whether the simulation matches real CUDA.
Cases that need more GPUs than the machine has are listed as not comparable.
Exit status 1 when real CUDA contradicts a stated behaviour (fix or remove that
case, never skip it) or the simulation differs from real CUDA; 2 without a GPU.
Record the figures in benchmarks/README.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "tests" / "probe"))

import torch  # noqa: E402

from fidelity_cases import CASES, Raises  # noqa: E402
from fidelity_check import disagreement, outcome  # noqa: E402
from torchplace_probe.kernel_side import simulated_gpu as sg  # noqa: E402


def _describe(result: tuple) -> str:
    kind, value = result
    if kind == "raises":
        return f"{type(value).__name__}: {str(value).splitlines()[0][:120]}"
    device = getattr(value, "device", None)
    return f"ok ({device})" if device is not None else f"ok ({value!r:.40})"


def _same(real: tuple, simulated: tuple) -> bool:
    if real[0] != simulated[0]:
        return False
    if real[0] == "raises":
        return type(real[1]) is type(simulated[1]) and str(real[1]).split("\n")[0] == str(simulated[1]).split("\n")[0]
    return _describe(real) == _describe(simulated)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the rows as JSON to this file")
    parser.add_argument("--only", default="", help="run the cases whose name contains this text")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device: this script compares the simulated GPU with a real one; run it on a GPU machine")
        return 2
    gpus = torch.cuda.device_count()
    print(f"torch {torch.__version__}, {gpus} x {torch.cuda.get_device_name(0)}")
    rows, contradicted, differs, skipped = [], 0, 0, 0
    for case in CASES:
        if args.only and args.only not in case.name:
            continue
        if case.devices > gpus:
            skipped += 1
            rows.append({"case": case.name, "status": f"not comparable: needs {case.devices} GPUs"})
            continue
        real = outcome(case)
        torch.cuda.synchronize()
        with sg.simulation():
            simulated = outcome(case)
        confirmed = disagreement(case, real) is None
        agrees = _same(real, simulated)
        contradicted += not confirmed
        differs += not agrees
        rows.append({"case": case.name, "stated": "raises" if isinstance(case.expect, Raises) else "ok",
                     "real": _describe(real), "simulated": _describe(simulated),
                     "real_confirms_case": confirmed, "simulation_matches_real": agrees, "source": case.source})
        mark = ("ok " if confirmed else "CONTRADICTED ") + ("= sim" if agrees else "!= sim")
        print(f"  {mark:<22} {case.name}: real {rows[-1]['real']}" + ("" if agrees else f" | sim {rows[-1]['simulated']}"))
    compared = len(rows) - skipped
    print(f"{compared} cases compared ({skipped} need more GPUs): real CUDA confirms {compared - contradicted}, "
          f"the simulation matches real CUDA in {compared - differs}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2), encoding="utf-8")
    return 1 if contradicted or differs else 0


if __name__ == "__main__":
    sys.exit(main())
