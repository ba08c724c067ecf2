"""The legacy typed constructors (`torch.FloatTensor([2 * pi])`, `torch.Tensor(n)`, `torch.Tensor()`)
make a CPU tensor where the code calls them: a factory, as `torch.tensor(...)` is, so TP202 reports
one made in a module method that meets the module's tensors (PyPOTS VaDER's
`torch.log(torch.FloatTensor([2 * torch.pi]))` in `forward`, corpus batch b21; etna's empty
`torch.Tensor()`, b19).  They take no `device=`: no fix adds one, and TP301 (create it there with
`device=`) has nothing to say of `torch.FloatTensor(x).cuda()`.  Each snippet, with the module moved
and called on the fake GPU, raises exactly where a finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\nimport torch.nn as nn\n"
NET = """\
    class Net(nn.Module):
        def forward(self, y):
            c = {made}
            return {use}
    """
CASES = {
    "float-tensor-of-data": (NET.format(made="torch.log(torch.FloatTensor([2.0]))", use="y + c"), {(3, "TP202")}),
    "tensor-of-a-size": (NET.format(made="torch.Tensor(4).fill_(1.0)", use="y * c"), {(3, "TP202")}),
    "empty-placeholder": (NET.format(made="torch.Tensor()", use="torch.cat((y, c), dim=0)"), {(3, "TP202")}),
    "moved-where-the-input-is": (NET.format(made="torch.FloatTensor([1.0, 2.0, 3.0, 4.0]).to(y.device)", use="y + c"), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    body, expected = CASES[name]
    assert_pytorch_agrees(H, body, expected, "\nNet().cuda()(torch.ones(2, 4, device='cuda'))\n")


def test_no_fix_and_no_create_then_move_note():
    """No `device=` can be added to a legacy constructor: TP202 offers no fix there, and a legacy
    tensor copied to the GPU (`torch.FloatTensor(x).cuda()`) gets no TP301 note."""
    from torchplace_rules import check_source

    body = NET.format(made="torch.FloatTensor([2.0])", use="y + c") + "t = torch.FloatTensor([1.0]).cuda()\n"
    found = check_source(H + textwrap.dedent(body), "flow.py")
    assert [(f.code, f.fix) for f in found] == [("TP202", None)]
