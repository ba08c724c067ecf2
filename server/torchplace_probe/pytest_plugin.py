"""`pytest --simulate-gpu`: a project's test suite as if on a CUDA machine, on any CI runner.

Why: tests that pick `"cuda" if torch.cuda.is_available() else "cpu"` never meet
their device bugs on a CPU-only runner.  With `--simulate-gpu` the whole session
runs with simulated CUDA devices (values compute on the CPU, every op checks
devices as on a GPU), so those bugs fail the test, and the report names the root
cause (where the offending tensor was created or last moved).  Registered in the
`pytest11` entry point group; without the option it does nothing and never
imports torch.
"""
from __future__ import annotations

from typing import Any

_STATE: dict = {"context": None}


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("torchplace", "torchplace: simulated GPU")
    group.addoption("--simulate-gpu", action="store_true", default=False,
                    help="run the tests with simulated CUDA devices (torchplace); device errors name their root cause")
    group.addoption("--simulated-gpus", type=int, default=None, metavar="N",
                    help="how many simulated GPUs (default 2)")


def pytest_configure(config: Any) -> None:
    if not config.getoption("simulate_gpu", default=False):
        return
    from .kernel_side import simulated_gpu as sim

    model = sim.GpuModel.from_environment()
    count = config.getoption("simulated_gpus", default=None)
    if count:
        model.count = max(1, count)
    context = sim.simulation(model=model, track_origins=True, user_filter=_user_file)
    context.__enter__()
    _STATE["context"] = context
    config.addinivalue_line("markers", "torchplace: tests ran with simulated CUDA devices")


def pytest_unconfigure(config: Any) -> None:
    context, _STATE["context"] = _STATE["context"], None
    if context is not None:
        context.__exit__(None, None, None)


def pytest_report_header(config: Any) -> Any:
    if _STATE["context"] is None:
        return None
    from .kernel_side import sim_state

    return f"torchplace: {sim_state.MODEL.count} simulated CUDA devices (values computed on the CPU)"


def _user_file(name: str) -> bool:
    return not name.startswith("<") and "site-packages" not in name and "/_pytest/" not in name \
        and "/pluggy/" not in name


def pytest_runtest_makereport(item: Any, call: Any) -> None:
    if _STATE["context"] is None or call.excinfo is None:
        return
    from . import device_report

    report = device_report.describe(call.excinfo.value)
    if report is not None:
        item.add_report_section(call.when, "torchplace", device_report.text(report, str(item.config.rootpath)))
        item.user_properties.append(("torchplace_root_cause", report["root_cause"]))
