"""A CPU tensor made in a submodule's helper method meets what the parent's `forward` passed it.

`self.mlm.noise(seq, mask)` in `forward` runs `MLM.noise` (not a `forward`) with the parent's inputs.
TP202 leaves the arguments of methods other than `forward` to their callers (`from_method_argument`:
a helper may be given CPU test data), and TP101 left a factory made in a module method to TP202, so
nothing was reported.  In a call context that placed the module on an accelerator and called it with
tensors there, those arguments are known: TP101 reports the op (alphafold2's `MLM.noise`, corpus batch
b20).  A plain tensor attribute (TP203's cause) is still reported where it is set, not at each use,
and without such a call nothing is claimed.  Each snippet raises on the fake GPU exactly where a
finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\nimport torch.nn as nn\n"
BODY = """\
    class MLM(nn.Module):
        def __init__(self):
            super().__init__()
            self.to_logits = nn.Linear(4, 4)

        def noise(self, seq, mask):
            random_tokens = {made}
            return torch.where(mask, random_tokens, seq)


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.mlm = MLM()

        def forward(self, seq, mask):
            return self.mlm.noise(seq, mask)
    """
RUN = "\nNet().cuda()(torch.ones(3, 4, device='cuda'), torch.ones(3, 4, device='cuda').bool())\n"
CASES = {
    "cpu-factory": (dict(made="torch.randint(1, 21, (3, 4))"), RUN, {(8, "TP101")}),
    "on-the-inputs-device": (dict(made="torch.randint(1, 21, (3, 4), device=seq.device)"), RUN, set()),
    "module-left-on-the-cpu": (dict(made="torch.randint(1, 21, (3, 4))"),
                               "\nNet()(torch.ones(3, 4), torch.ones(3, 4).bool())\n", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    fields, run, expected = CASES[name]
    assert_findings(H, textwrap.dedent(BODY.format(**fields)) + run, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    fields, run, expected = CASES[name]
    assert_pytorch_agrees(H, BODY.format(**fields), expected, run)


def test_not_without_a_call():
    """No code calls the module: the helper's arguments are whatever a caller would pass."""
    assert_findings(H, BODY.format(made="torch.randint(1, 21, (3, 4))"), set())


def test_plain_attribute_reported_where_set():
    """A plain tensor attribute meeting a helper's argument is TP203's, at the attribute (not TP101 at the use)."""
    body = """\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.lim = torch.full((1, 4), 3.0)

            def shift(self, p):
                return p + self.lim

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()

            def forward(self, x):
                return self.head.shift(x)

        Net().cuda()(torch.ones(3, 4, device='cuda'))
        """
    assert_findings(H, body, {(5, "TP203")})
