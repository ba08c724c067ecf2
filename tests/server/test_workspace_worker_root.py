"""The workspace-diagnostics worker takes the workspace folder as its index's project root, as the open
documents' index does (`cross_file.CrossFile.index`): in a workspace without a project marker the
driver script beside `exp/` is read (R2, context/earlier_method.py) for files that are not open too."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from torchplace_rules import Config
from torchplace_server.workspace_worker import frame, read_frame

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "crossfile"))
from test_earlier_method_writes import EXP, RUN  # noqa: E402


def _worker_codes(folder: Path, *root: str) -> list:
    """TP codes the worker (`python -m torchplace_server.workspace_worker utf-16 [ROOT]`) answers for exp_main.py."""
    target = str(folder / "exp" / "exp_main.py")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-m", "torchplace_server.workspace_worker", "utf-16", *root],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        proc.stdin.write(frame([(target, Config())]))
        proc.stdin.flush()
        [(path, diagnostics)] = read_frame(proc.stdout)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    assert path == target
    return [d[0] for d in diagnostics if d[1] <= 2]  # errors and warnings


def _tree(folder: Path, trained: str) -> Path:
    (folder / "exp").mkdir(parents=True)
    (folder / "exp" / "__init__.py").write_text("")
    (folder / "exp" / "exp_main.py").write_text(textwrap.dedent(EXP))
    (folder / "run.py").write_text(textwrap.dedent(RUN.format(trained=trained)))
    return folder


def test_the_worker_reads_the_workspace_without_a_marker_from_its_root(tmp_path):
    project = _tree(tmp_path / "ws", "setting")
    assert _worker_codes(project, str(project)) == []
    assert _worker_codes(project) == ["TP204"]  # (no root given: the file's own folder only)


def test_twin_the_driver_trains_another_setting(tmp_path):
    project = _tree(tmp_path / "ws", "'other'")
    assert _worker_codes(project, str(project)) == ["TP204"]
