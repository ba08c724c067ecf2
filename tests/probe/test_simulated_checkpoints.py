"""Checkpoints written under the simulated GPU are ordinary torch files (checked by a plain torch process)."""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile

import torch
import torch.nn as nn

from torchplace_probe import ProbeOptions, ProbeSession
from torchplace_probe.kernel_side import simulated_gpu as sg

PLAIN_LOAD = """
import json, sys, torch
state = torch.load(sys.argv[1], map_location="cpu")
print(json.dumps({k: [str(v.device), v.flatten().tolist()] for k, v in state["model"].items()}))
"""
PLAIN_LOAD_NO_MAP = "import sys, torch; torch.load(sys.argv[1])"


def _plain(code: str, *args: str) -> subprocess.CompletedProcess:
    """A separate interpreter that never heard of torchplace."""
    return subprocess.run([sys.executable, "-I", "-c", code, *args], capture_output=True, text=True, timeout=120)


def test_saved_checkpoint_loads_in_plain_torch_and_back_in_the_simulation(tmp_path):
    path = tmp_path / "ckpt.pt"
    with sg.simulation():
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).cuda()
        opt = torch.optim.Adam(model.parameters())
        model(torch.randn(5, 3, device="cuda")).sum().backward()
        opt.step()
        expected = {k: v.cpu().flatten().tolist() for k, v in model.state_dict().items()}
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 1}, path)
        back = torch.load(path)
        assert all(v.device == torch.device("cuda", 0) for v in back["model"].values())
        assert back["optimizer"]["state"][0]["exp_avg"].is_cuda
    # Nothing of the simulation is in the file: only torch's own records.
    with zipfile.ZipFile(path) as archive:
        assert not any(b"torchplace" in archive.read(name) or b"_tp_sim" in archive.read(name)
                       for name in archive.namelist())
    done = _plain(PLAIN_LOAD, str(path))
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert {k: v[0] for k, v in loaded.items()} == {k: "cpu" for k in expected}
    assert {k: v[1] for k, v in loaded.items()} == expected
    # Like any GPU checkpoint, it needs map_location on a machine without a GPU.
    failed = _plain(PLAIN_LOAD_NO_MAP, str(path))
    assert failed.returncode != 0
    assert "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False" in failed.stderr


def test_weights_only_load_and_pickled_tensors_outside_the_simulation(tmp_path):
    path = tmp_path / "weights.pt"
    with sg.simulation():
        weights = {"w": torch.ones(2, 2, device="cuda:1"), "b": torch.zeros(2)}
        torch.save(weights, path)
    done = _plain("import sys, torch; d = torch.load(sys.argv[1], map_location='cpu', weights_only=True); "
                  "print(sorted((k, str(v.device)) for k, v in d.items()))", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[('b', 'cpu'), ('w', 'cpu')]"
    with sg.simulation():
        back = torch.load(path, weights_only=True)
        assert back["w"].device == torch.device("cuda", 1) and back["b"].device == torch.device("cpu")
    # A tensor that was simulated, pickled after the simulation ended, still loads in plain torch.
    stray = tmp_path / "stray.pt"
    torch.save(weights, stray)
    done = _plain("import sys, torch; print(torch.load(sys.argv[1], map_location='cpu')['w'].shape)", str(stray))
    assert done.returncode == 0 and "torch.Size([2, 2])" in done.stdout, done.stderr


def test_a_probed_training_cell_leaves_a_checkpoint_plain_torch_loads(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(
        "import torch, torch.nn as nn\n"
        "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "model = nn.Linear(3, 2).to(device)\n"
        "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(torch.randn(4, 3, device=device)).sum().backward()\n"
        "opt.step()\n"
        "torch.save({'model': model.state_dict()}, 'checkpoint.pt')\n"
    )
    options = ProbeOptions(simulate_gpu="on", timeout=60, cwd=str(tmp_path), script=str(script))
    with ProbeSession(options, name="train.py") as session:
        result = session.probe(script.read_text())
    assert result.status == "ok" and result.simulated, result.to_text()
    saved = tmp_path / "checkpoint.pt"  # relative to the script's folder, as `python train.py` writes it
    done = _plain(PLAIN_LOAD, str(saved))
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"weight", "bias"}
