"""A negated number is still a number (`-1e4`, `-LARGE_NUMBER`, `~mask_bits`): a CPU factory's tensor
times it stays on the CPU and keeps its factory, so TP202 reports the factory when the product meets
the module's input (stlcg's `torch.ones(LHS.shape) * -LARGE_NUMBER`, corpus batch b19).  `not x` is a
bool, no number.  Each snippet, with the module moved and called on the fake GPU, raises exactly where
a finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n\nLARGE_NUMBER = 1E4\nSHIFT = 3\n"
NET = """\
    class Net(nn.Module):
        def forward(self, y):
            rhs = torch.ones(y.shape{device}) {op}
            return torch.stack([y, rhs], dim=-1)
    """
CASES = {
    "times-a-negative-literal": (NET.format(device="", op="* -1e4"), {(3, "TP202")}),
    "times-a-negated-constant": (NET.format(device="", op="* -LARGE_NUMBER"), {(3, "TP202")}),
    "plus-a-negated-int-constant": (NET.format(device="", op="+ -SHIFT"), {(3, "TP202")}),
    "times-a-positive-constant": (NET.format(device="", op="* +LARGE_NUMBER"), {(3, "TP202")}),
    "negative-where-the-input-is": (NET.format(device=", device=y.device", op="* -LARGE_NUMBER"), set()),
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
