"""A CPU tensor `forward` makes keeps its factory through the function form of an op that keeps its
shape (`torch.roll(x, 1)`, as `x.roll(1)`) and through `torch.zeros_like(x)`: TP202 reports the factory,
whose fix moves both.  Each snippet, with the module moved and called on the fake GPU, raises exactly
where a finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"
NET = """\
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, s):
            x = torch.zeros(s.shape[0], 4{device})
            {use}
            return self.fc(y)
    """
CASES = {
    "rolled-by-the-function": (NET.format(device="", use="y = torch.roll(x, shifts=1, dims=1)"), {(7, "TP202")}),
    "rolled-by-the-method": (NET.format(device="", use="y = x.roll(1, 1)"), {(7, "TP202")}),
    "zeros-like-it": (NET.format(device="", use="y = torch.zeros_like(x)"), {(7, "TP202")}),
    "rolled-where-the-input-is": (NET.format(device=", device=s.device", use="y = torch.roll(x, 1, 1)"), set()),
    "zeros-like-where-the-input-is": (NET.format(device=", device=s.device", use="y = torch.zeros_like(x)"), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    run = "\nNet().cuda()(torch.ones(2, 4, device='cuda'))\n"
    error = run_on_fake_gpu(H + textwrap.dedent(body) + run)
    assert (error is not None) == bool(expected), repr(error)
