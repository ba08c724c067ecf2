"""A factory given a tensor's own device (`torch.zeros(n, device=x.device)`) is made wherever `x` is:
where that is the CPU, the cause is x's placement, not a factory that forgot `device=`.  TP202 reports
x's own factory (as for `torch.zeros_like(x)`), or nothing where x came from elsewhere; it no longer
blames the factory that follows it (PyPOTS VaDER's `encode`, whose `X` the analysis took for a CPU
batch, corpus batch b21).  Each snippet, run on the fake GPU, raises exactly where a finding is
expected."""
import textwrap

import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
NETS = """\
    class Cell(nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = nn.Parameter(torch.randn(4, 4))

        def forward(self, x, c):
            return F.linear(c, self.weight) + x


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.cell = Cell()

        def encode(self, x):
            c = torch.zeros(x.shape{device})
            return self.cell(x, c)


    net = Net().cuda()
    out = net.encode({arg})
    """
CASES = {
    # the caller's CPU tensor is the cause: reported at its factory (line 21), not at `c`'s (line 16)
    "follows-a-cpu-argument": (NETS.format(device=", device=x.device", arg="torch.randn(2, 4)"), {(21, "TP202")}),
    "no-device-on-a-cpu-argument": (NETS.format(device="", arg="torch.randn(2, 4)"), {(16, "TP202"), (21, "TP202")}),
    "no-device-on-a-gpu-argument": (NETS.format(device="", arg="torch.randn(2, 4, device='cuda')"), {(16, "TP202")}),
    "follows-a-gpu-argument": (NETS.format(device=", device=x.device", arg="torch.randn(2, 4, device='cuda')"), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    body, expected = CASES[name]
    assert_pytorch_agrees(H, body, expected)


def test_a_random_source_keeps_its_fix_unsafe():
    """The fix TP202 offers at a random factory (`torch.randn`) is unsafe; x's own factory here is module
    code, where no name of `Cell.forward` is in scope: it gets no fix (tests/engine/test_tp202_fix_scope.py)."""
    from torchplace_rules import check_source

    source = H + textwrap.dedent(NETS.format(device=", device=x.device", arg="torch.randn(2, 4)"))
    found = [f for f in check_source(source, "flow.py") if f.code == "TP202"]
    assert len(found) == 1 and found[0].fix is None
    noisy = H + textwrap.dedent("""\
        class Noisy(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                return self.fc(x) + torch.randn(x.shape[0], 4)


        net = Noisy().cuda()
        """)
    found = [f for f in check_source(noisy, "flow.py") if f.code == "TP202"]
    assert len(found) == 1 and found[0].fix is not None and not found[0].fix.is_safe
