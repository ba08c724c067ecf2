"""The probe end to end in a real ipykernel: per-line records, cells above, faults."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

from torchplace_probe import ProbeOptions, ProbeSession, run_probe

TRAINING = '''\
import torch
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
# %%
model = torch.nn.Linear(10, 2).to(device)
x = torch.randn(32, 10)
for step in range(3):
    xb = x.to(device)
    loss = model(xb).sum()
    print(loss.item())
batch = {"inputs": xb, "raw": x}
# %%
out = model(x)
'''


def test_lines_transfers_syncs_and_variables(simulated_session):
    result = simulated_session.probe(TRAINING, line=5)
    assert result.status == "ok", result.to_text()
    assert result.cell == 1 and result.ran_cells == [0]
    assert result.simulated and result.device == "simulated"
    model_line = result.line(4)
    assert model_line.values["model"]["devices"] == ["cuda:0"]
    assert model_line.transfers[0].kind == "host_to_device" and model_line.transfers[0].bytes == (10 * 2 + 2) * 4
    assert result.line(5).label() == "→ cpu float32 [32, 10]"
    moved = result.line(7)
    assert moved.hits == 3
    assert moved.label() == "→ cuda:0 float32 [32, 10]  host→device 3.8 KB ×3"
    assert result.line(9).syncs == [{"kind": ".item()", "count": 3}]
    assert result.copies == 5 and result.syncs == 3
    assert result.variables["batch"]["devices"] == ["cpu", "cuda:0"]
    assert result.variables["batch"]["items"]["inputs"]["device"] == "cuda:0"
    assert len(result.output.strip().splitlines()) == 3


def test_mismatch_error_on_the_real_line(simulated_session):
    result = simulated_session.probe(TRAINING, cell=2)
    assert result.status == "error"
    assert result.ran_cells == []  # the kernel already ran the cells above: it stays warm
    assert result.error.line == 12
    assert result.error.kind == "device-mismatch"
    assert result.error.message == (
        "Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on "
        "cuda:0 (when checking argument in method wrapper_CUDA_addmm)"
    )
    # the root cause: where the CPU operand was made (line 5 of the cell above)
    assert result.error.root_cause["line"] == 5 and result.error.root_cause["kind"] == "created"
    assert result.error.root_cause["cell"] == 1 and result.error.root_cause["device"] == "cpu"
    payload = json.loads(result.to_json())
    assert payload["schema"] == "torchplace-probe/1" and payload["error"]["line"] == 12
    assert payload["error"]["root_cause"]["line"] == 5


def test_changed_cell_above_runs_again(simulated_session):
    simulated_session.probe(TRAINING, cell=1)
    changed = TRAINING.replace("torch.randn(32, 10)", "torch.randn(32, 10).to(device)")
    result = simulated_session.probe(changed, cell=2)
    assert result.ran_cells == [1]
    assert result.status == "ok", result.to_text()
    assert result.variables["out"]["device"] == "cuda:0"


def test_module_split_across_devices(simulated_session):
    code = '''\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)
        self.b = torch.nn.Linear(2, 2)
        self.mask = torch.ones(2)
net = Net()
net.a.to("cuda")
'''
    result = simulated_session.probe(code)
    info = result.variables["net"]
    assert info["split"] == "split across cpu and cuda:0"
    assert info["tensor_attributes"] == {"mask": "cpu"}


def test_notebook_cells(simulated_session):
    cells = ["import torch\nt = torch.ones(3, device='cuda')\n", "u = t.cpu()\nv = t.numpy()\n"]
    result = simulated_session.probe(cells, cell=1, from_top=True)
    assert result.status == "error"
    assert result.error.line == 2 and result.error.type == "TypeError"
    assert result.line(1).values["u"]["device"] == "cpu"
    assert result.line(1).syncs == [{"kind": ".cpu()", "count": 1}] or result.line(1).transfers


def test_plain_run_without_gpu_records_cpu(plain_session):
    result = plain_session.probe("import torch\nx = torch.ones(2, 3)\ny = x.to('cpu')\n")
    assert result.status == "ok" and not result.simulated and result.device == "cpu"
    assert result.line(2).label() == "→ cpu float32 [2, 3]"
    assert result.copies == 0


def test_timeout_interrupts_and_keeps_the_kernel(plain_session):
    plain_session.options.timeout = 2
    try:
        started = time.monotonic()
        result = plain_session.probe("import time\nn = 0\nwhile True:\n    n += 1\n")
        assert time.monotonic() - started < 15
    finally:
        plain_session.options.timeout = 30
    assert result.status == "timeout"
    assert result.error.line in (3, 4)
    again = plain_session.probe("m = 41 + 1\n")
    assert again.status == "ok"


def test_cancel_interrupts(plain_session):
    cancel = threading.Event()
    threading.Timer(1.0, cancel.set).start()
    result = plain_session.probe("import time\ntime.sleep(30)\n", cancel=cancel)
    assert result.status == "cancelled"


def test_output_is_capped(plain_session):
    plain_session.host.output_limit = 1000
    try:
        result = plain_session.probe("for i in range(5000):\n    print('x' * 50)\n")
    finally:
        plain_session.host.output_limit = 64_000
    assert result.status == "ok" and result.output_truncated and len(result.output) <= 1000


def test_dead_kernel_is_reported_then_restarted(plain_session):
    result = plain_session.probe("import os\na = 1\nos._exit(3)\n")
    assert result.status == "kernel-died"
    assert result.error.line == 3
    assert "died" in result.error.message
    again = plain_session.probe("b = 2\n")
    assert again.status == "ok"
    assert any("died" in note for note in again.notes)


def test_segfault_is_reported_then_restarted(plain_session):
    result = plain_session.probe("import ctypes\nok = 1\nctypes.string_at(0)\n")
    assert result.status == "kernel-died" and result.error.line == 3
    assert plain_session.probe("c = 4\n").status == "ok"


def test_missing_ipykernel_names_the_interpreter(tmp_path):
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    python = str(bare / "bin" / "python")
    result = run_probe("x = 1\n", 1, ProbeOptions(python=python))
    assert result.status == "setup-error"
    assert python in result.error.message
    assert f"{python} -m pip install ipykernel torch" in result.error.message


def test_cli_json_and_exit_code(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(TRAINING)
    done = subprocess.run([sys.executable, "-m", "torchplace_probe", str(path), "--line", "12", "--format", "json",
                           "--simulate-gpu"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    payload = json.loads(done.stdout)
    assert payload["error"]["line"] == 12 and payload["simulated"] is True
    text = subprocess.run([sys.executable, "-m", "torchplace_probe", str(path), "--cell", "2"],
                          capture_output=True, text=True, timeout=120)
    assert text.returncode == 0
    assert "host→device 3.8 KB ×3" in text.stdout
    assert "summary: device simulated GPU · 5 copies" in text.stdout


def test_cell_that_ignores_interrupts_gets_a_restarted_kernel(plain_session):
    plain_session.options.timeout = 2
    try:
        result = plain_session.probe(
            "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.01)\n")
    finally:
        plain_session.options.timeout = 30
    assert result.status == "timeout"
    assert any("restarted" in note for note in result.notes)
    assert result.error.line in (3, 4)  # from the lines recorded before the kernel was restarted
    assert plain_session.probe("z = 3\n").status == "ok"


def test_markdown_cell_is_not_run(plain_session):
    result = plain_session.probe("x = 1\n# %% [markdown]\n# notes\n", line=3)
    assert result.status == "setup-error" and "markdown" in result.error.message


def test_attach_to_existing_kernel(tmp_path):
    from jupyter_client import KernelManager

    manager = KernelManager(kernel_name="python3")
    manager.ip = "127.0.0.1"
    manager.start_kernel()
    try:
        ready = manager.client()
        ready.start_channels()
        ready.wait_for_ready(timeout=60)
        ready.stop_channels()
        options = ProbeOptions(existing=manager.connection_file, simulate_gpu="on", timeout=60)
        with ProbeSession(options) as session:
            result = session.probe("import torch\nt = torch.zeros(2, device='cuda')\n")
        assert result.status == "ok", result.to_text()
        assert result.variables["t"]["device"] == "cuda:0"
        assert manager.is_alive()  # attaching never shuts down someone else's kernel
    finally:
        manager.shutdown_kernel(now=True)


def test_existing_kernel_off_loopback_is_refused(tmp_path):
    conn = tmp_path / "kernel.json"
    conn.write_text(json.dumps({"ip": "10.1.2.3", "transport": "tcp", "shell_port": 1, "iopub_port": 2,
                                "stdin_port": 3, "control_port": 4, "hb_port": 5, "key": "k",
                                "signature_scheme": "hmac-sha256"}))
    result = run_probe("x = 1\n", 1, ProbeOptions(existing=str(conn)))
    assert result.status == "setup-error" and "loopback" in result.error.message


def test_torchplace_cli_probes_a_notebook(tmp_path):
    nb = {"cells": [
        {"cell_type": "code", "source": ["import torch\n", "w = torch.ones(3, device='cuda')\n"], "metadata": {},
         "outputs": [], "execution_count": None},
        {"cell_type": "markdown", "source": "notes", "metadata": {}},
        {"cell_type": "code", "source": "s = w.sum().item()\n", "metadata": {}, "outputs": [], "execution_count": None},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb))
    cli = str(Path(sys.executable).with_name("torchplace"))
    done = subprocess.run([cli, "probe", str(path), "--cell", "3", "--format", "json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["simulated"] is True  # no GPU here and the notebook asks for CUDA
    assert payload["lines"][0]["syncs"] == [{"kind": ".item()", "count": 1}]


def test_the_host_never_imports_torch():
    code = (
        "import sys\n"
        "from torchplace_probe import ProbeOptions, run_probe\n"
        "import torchplace_probe.editor_bridge, torchplace_probe.probe_command\n"
        "r = run_probe('import torch\\nx = torch.ones(1)\\n', 1, ProbeOptions(simulate_gpu='off'))\n"
        "assert r.status == 'ok', r.to_text()\n"
        "assert 'torch' not in sys.modules, 'the host imported torch'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
