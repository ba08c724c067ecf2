"""Nothing outlives the probe: temporary folders, the kernel's children, a hanging interpreter."""
from __future__ import annotations

import os
import stat
import tempfile
import time
from pathlib import Path

import pytest

from torchplace_probe import ProbeOptions, ProbeSession
from torchplace_probe.kernel_host import ProbeSetupError, check_interpreter

SPAWN = '''\
import subprocess, sys
sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
child = subprocess.Popen(sleeper)
daemon = subprocess.Popen(sleeper, start_new_session=True)
print(child.pid, daemon.pid)
'''


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_gone(pids, timeout=15.0) -> list:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = [p for p in pids if _running(p)]
        if not alive:
            return []
        time.sleep(0.1)
    return [p for p in pids if _running(p)]


def _ours(folder: Path) -> set:
    return {p.name for p in folder.iterdir() if p.name.startswith(("torchplace-kernel-", "torchplace-probe-"))}


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="process trees are read from /proc")
def test_shutdown_ends_the_kernels_children_and_removes_its_folders(private_tmp):
    session = ProbeSession(ProbeOptions(simulate_gpu="off", timeout=60))
    result = session.probe(SPAWN)
    assert result.status == "ok", result.to_text()
    pids = [int(p) for p in result.output.split()]
    assert all(_running(p) for p in pids)
    assert _ours(private_tmp)
    session.close()
    assert _wait_gone(pids) == []
    assert _ours(private_tmp) == set()


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="process trees are read from /proc")
def test_restart_and_kernel_death_end_the_children(private_tmp):
    with ProbeSession(ProbeOptions(simulate_gpu="off", timeout=60)) as session:
        first = [int(p) for p in session.probe(SPAWN).output.split()]
        assert session.probe("x = 1\n", from_top=True).status == "ok"  # "probe from top" restarts the kernel
        assert _wait_gone(first) == []
        second = [int(p) for p in session.probe(SPAWN).output.split()]
        kernel_dirs = {p for p in _ours(private_tmp) if p.startswith("torchplace-kernel-")}
        died = session.probe("import os\nos._exit(1)\n")
        assert died.status == "kernel-died"
        assert _wait_gone(second[:1]) == []  # the kernel's process group goes with it
        assert not kernel_dirs & _ours(private_tmp)
        assert session.probe("y = 2\n").status == "ok"


def test_kernel_death_under_the_simulated_gpu_says_so(private_tmp):
    with ProbeSession(ProbeOptions(simulate_gpu="on", timeout=60)) as session:
        died = session.probe("import torch, os\nx = torch.ones(1, device='cuda')\nos._exit(3)\n")
    assert died.status == "kernel-died"
    assert died.simulated and died.device == "simulated"
    assert "device simulated GPU" in died.summary()


def test_a_hanging_interpreter_is_stopped_with_its_children(tmp_path):
    marker = tmp_path / "child.pid"
    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\nsleep 600 &\necho $! > {marker}\nsleep 600\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    started = time.monotonic()
    with pytest.raises(ProbeSetupError, match="did not answer within 2 s"):
        check_interpreter(str(fake), timeout=2)
    assert time.monotonic() - started < 10
    assert _wait_gone([int(marker.read_text())]) == []
