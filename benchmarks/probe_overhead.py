"""How much the probe costs: 50 CNN training steps plain vs probed vs simulated GPU,
the round trip of a trivial cell on a warm kernel, and a kernel's start-up.

    python benchmarks/probe_overhead.py [--steps 50] [--repeats 5]

All timings run in real ipykernels started by the probe.  "plain" runs the cell
in the kernel without instrumentation; "probed" records lines, copies and
syncs; "simulated" also simulates a CUDA device (values computed on the CPU).
On a machine without a GPU, "plain" and "probed" run on the CPU; their device is
printed.  Targets: probed ≤ 1.3× plain (issue 4); simulated GPU, probed ≤ 2× plain
(issue 12); trivial round trip on a warm kernel ≤ 300 ms (issue 12; 200 ms in
issue 4); kernel start-up (a new kernel to the first trivial result) is reported.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from torchplace_probe import ProbeOptions, ProbeSession  # noqa: E402

SETUP = '''\
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
torch.set_num_threads(1)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.fc = nn.Linear(16 * 7 * 7, 10)
    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        return self.fc(x.flatten(1))
images = torch.randn(512, 1, 28, 28)
labels = torch.randint(0, 10, (512,))
'''

TRAIN = '''\
# %%
model = SmallCNN().to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for step in range({steps}):
    start = (step * 32) % 512
    xb = images[start:start + 32].to(device)
    yb = labels[start:start + 32].to(device)
    loss = F.cross_entropy(model(xb), yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        last = loss.item()
'''


def time_cell(session: ProbeSession, document: str, record: bool, repeats: int) -> tuple[list, object]:
    runs, result = [], None
    session.probe(document, cell=1, record=record)  # warm-up (and runs the setup cell)
    for _ in range(repeats):
        result = session.probe(document, cell=1, record=record)
        if result.status != "ok":
            raise SystemExit(f"benchmark cell failed: {result.to_text()}")
        runs.append(result.seconds)
    return runs, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    document = SETUP + TRAIN.format(steps=args.steps)
    rows = []
    starts = []
    for _ in range(2):
        with ProbeSession(ProbeOptions(simulate_gpu="on", timeout=600)) as cold:
            started = time.perf_counter()
            assert cold.probe("import torch\nx = torch.ones(1, device='cuda')\n").status == "ok"
            starts.append(time.perf_counter() - started)
    with ProbeSession(ProbeOptions(simulate_gpu="off", timeout=600)) as real:
        plain, res = time_cell(real, document, record=False, repeats=args.repeats)
        probed, res = time_cell(real, document, record=True, repeats=args.repeats)
        device = res.device
        trivial = []
        for _ in range(20):
            started = time.perf_counter()
            out = real.probe("x = 1\n")
            trivial.append(time.perf_counter() - started)
            assert out.status == "ok"
    with ProbeSession(ProbeOptions(simulate_gpu="on", timeout=600)) as sim_session:
        sim_plain, _ = time_cell(sim_session, document, record=False, repeats=args.repeats)
        simulated, sim_res = time_cell(sim_session, document, record=True, repeats=args.repeats)
    med = statistics.median
    rows.append(("plain (no probe)", med(plain), device))
    rows.append(("probed", med(probed), device))
    rows.append(("simulated GPU, not recorded", med(sim_plain), "simulated"))
    rows.append(("simulated GPU, probed", med(simulated), "simulated"))
    print(f"{args.steps} training steps of a small CNN (batch 32, 1x28x28), median of {args.repeats} runs")
    for name, seconds, dev in rows:
        print(f"  {name:<30} {seconds * 1000:8.1f} ms  ({seconds / med(plain):.2f}x plain)  device: {dev}")
    print(f"  probed / plain: {med(probed) / med(plain):.2f}x (target <= 1.30x)")
    print(f"  simulated GPU, probed / plain: {med(simulated) / med(plain):.2f}x (target <= 2.00x)")
    print(f"  simulated probed: {sim_res.copies} copies, {sim_res.bytes} bytes, {sim_res.syncs} syncs recorded")
    print(f"trivial cell round trip on a warm kernel: median {med(trivial) * 1000:.1f} ms, "
          f"max {max(trivial) * 1000:.1f} ms (target <= 300 ms)")
    print(f"kernel start-up (new kernel, torch imported, first simulated-GPU cell done): "
          f"{', '.join(f'{s:.1f} s' for s in starts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
