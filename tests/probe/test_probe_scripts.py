"""Scripts as users write them: argparse, `__file__`, paths relative to the script's folder."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from torchplace_probe import ProbeOptions, ProbeSession

SCRIPT = '''\
import argparse, os, sys
import torch
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.add_argument("--name", default="run")
args = parser.parse_args()
here = os.path.dirname(os.path.abspath(__file__))
labels = open("labels.txt").read().split()
argv = list(sys.argv)
cwd = os.getcwd()
x = torch.ones(args.epochs, device="cuda")
'''


def _write(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "labels.txt").write_text("cat dog\n")
    script = folder / "train.py"
    script.write_text(SCRIPT)
    return script


def test_argparse_script_probes_with_the_users_arguments(tmp_path):
    script = _write(tmp_path)
    cli = str(Path(sys.executable).with_name("torchplace"))
    done = subprocess.run([cli, "probe", str(script), "--simulate-gpu", "--args", "--epochs 3 --name 'a b'",
                           "--format", "json"], capture_output=True, text=True, timeout=180, cwd=str(tmp_path))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    payload = json.loads(done.stdout)
    assert payload["variables"]["x"]["shape"] == [3] and payload["variables"]["x"]["device"] == "cuda:0"


def test_argv_file_and_working_folder_without_arguments(tmp_path):
    script = _write(tmp_path)
    options = ProbeOptions(simulate_gpu="on", timeout=60, script=str(script))
    with ProbeSession(options, name="train.py") as session:
        result = session.probe(SCRIPT + "print(argv, here == cwd, labels)\n")
    assert result.status == "ok", result.to_text()
    assert result.output.strip() == f"[{str(script)!r}] True ['cat', 'dog']"
