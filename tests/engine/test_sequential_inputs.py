"""`nn.Sequential` of torch layers called in `forward` with a tensor made on the CPU there.

Sequential's forward runs its members in turn (`for module in self: input = module(input)`), and a
torch.nn layer never moves its input, so a CPU input meets the first member holding parameters on
the module's device: TP202 at the factory, as for a single layer.  A project module among the
members may move the input itself, and members that hold nothing run where the input is: nothing
is reported then (corpus b8: chemicalx_caster_eye_cpu_in_forward)."""
import pytest

from .fake_gpu import run_on_fake_gpu
from .test_finding_context import loud

MODEL = """\
import torch
import torch.nn as nn


class Mover(nn.Module):
    def forward(self, x):
        return x.cuda()


class M(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n
        self.enc = {layers}

    def forward(self, x):
        return self.enc(torch.eye(self.n))
"""
RUN = "\nm = M(3).cuda()\nout = m(torch.ones(2, 3, device='cuda'))\n"

RAISES = ["nn.Sequential(nn.Linear(n, 4))", "nn.Sequential(nn.ReLU(), nn.Linear(n, 4))",
          "nn.Sequential(nn.Linear(n, 4), nn.ReLU(True), nn.Linear(4, 4))"]
RUNS = ["nn.Sequential(nn.ReLU(), nn.Tanh())", "nn.Sequential(Mover(), nn.Linear(n, 4))"]


@pytest.mark.parametrize("layers", RAISES + RUNS)
def test_truth_on_a_simulated_gpu(layers):
    raised = run_on_fake_gpu(MODEL.format(layers=layers) + RUN)
    assert (raised is not None) == (layers in RAISES), raised
    if raised is not None:
        assert "device" in str(raised)


@pytest.mark.parametrize("layers", RAISES + RUNS)
def test_the_engine_reports_exactly_the_raising_ones(layers):
    found = loud(MODEL.format(layers=layers))
    assert found == ({(17, "TP202")} if layers in RAISES else set())
