"""The simulated GPU in CI: `pytest --simulate-gpu` and `torchplace run` on examples/simulate_gpu_ci."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "simulate_gpu_ci"
BUG = "    loss = nn.functional.cross_entropy(logits, labels)  # the bug: `labels` stayed on the CPU\n"
FIX = "    loss = nn.functional.cross_entropy(logits, labels.to(device))\n"


@pytest.fixture
def project(tmp_path):
    copy = tmp_path / "project"
    shutil.copytree(EXAMPLE, copy)
    return copy


def _fix(project: Path) -> None:
    source = project / "classifier.py"
    text = source.read_text()
    assert BUG in text
    source.write_text(text.replace(BUG, FIX))


def _pytest(project: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options],
                          cwd=project, capture_output=True, text=True, timeout=300)


def test_pytest_simulate_gpu_fails_on_the_device_bug_and_passes_after_the_fix(project):
    plain = _pytest(project)
    assert plain.returncode == 0, plain.stdout[-3000:]  # a CPU-only runner never sees the bug
    simulated = _pytest(project, "--simulate-gpu")
    assert simulated.returncode == 1, simulated.stdout[-3000:]
    out = simulated.stdout
    assert ("Expected all tensors to be on the same device, but got target is on cpu, different from other tensors "
            "on cuda:0") in out
    assert "raised at classifier.py:22" in out
    assert "root cause: tests/test_classifier.py:10: target was created on cpu here" in out
    assert "device_rules.py" not in out  # the traceback ends in the user's code, as on a GPU
    _fix(project)
    fixed = _pytest(project, "--simulate-gpu")
    assert fixed.returncode == 0, fixed.stdout[-3000:]


def test_torchplace_run_fails_on_the_device_bug_and_passes_after_the_fix(project, tmp_path):
    cli = str(Path(sys.executable).with_name("torchplace"))
    report = tmp_path / "report.json"
    failed = subprocess.run([cli, "run", "--report", str(report), "train.py", "--steps", "2"], cwd=project,
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "RuntimeError: Expected all tensors to be on the same device" in failed.stderr
    assert "root cause: train.py:17: target was created on cpu here" in failed.stderr
    assert '"line": 17' in report.read_text()
    _fix(project)
    fixed = subprocess.run([cli, "run", "train.py", "--steps", "2"], cwd=project, capture_output=True, text=True,
                           timeout=300)
    assert fixed.returncode == 0, fixed.stderr[-3000:]
    assert "step 1: loss" in fixed.stdout and "on cuda" in fixed.stdout
