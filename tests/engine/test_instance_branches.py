"""A constructor argument that makes one instance keep a plain tensor where the class registers it
on another branch.

`if requires_grad: self.beta = Parameter(...)` / `else: self.beta = Variable(torch.zeros(1))`: the
class scan sees a parameter, but `Layer(requires_grad=False)` keeps a plain CPU tensor, which
`Module.to()` leaves on the CPU (pytorch-AGNN's first `GraphAttentionLayer`, corpus batch b23).
The run of `__init__` for that construction decided the branch; the flow now reads the attribute as
that instance holds it: TP203 is proven (a warning) where the instance moved to the GPU meets it.
A default construction (the parameter branch), or a flag nobody decides, says nothing more than the
class text (a hint at most)."""
from .snippets import assert_findings, assert_pytorch_agrees, case_tests

H = "import torch\nimport torch.nn as nn\nfrom torch.autograd import Variable\n"
BODY = """\
    class Layer(nn.Module):
        def __init__(self, requires_grad=True):
            super().__init__()
            if requires_grad:
                self.beta = nn.Parameter(torch.ones(1))
            else:
                self.beta = {plain}

        def forward(self, x):
            return self.beta * torch.mm(x, x.t())

    class Net(nn.Module):
        def __init__(self, flag):
            super().__init__()
            self.att = Layer({passed})

        def forward(self, x):
            return self.att(x)

    def main(flag):
        net = Net(flag).to("cuda")
        return net(torch.ones(3, 3, device="cuda"))
    {run}"""
CASES = {
    "plain-branch": (dict(plain="torch.zeros(1)", passed="requires_grad=False", run="main(None)"), {(7, "TP203")}),
    "variable-wrapper": (dict(plain="Variable(torch.zeros(1), requires_grad=False)", passed="False", run="main(None)"),
                         {(7, "TP203")}),
    "parameter-branch": (dict(plain="torch.zeros(1)", passed="requires_grad=True", run="main(None)"), set()),
    "default-construction": (dict(plain="torch.zeros(1)", passed="", run="main(None)"), set()),
    # (nothing runs it: PyTorch raises for False only, see below)
    "undecided-flag": (dict(plain="torch.zeros(1)", passed="requires_grad=flag", run=""), set()),
}
test_engine, test_pytorch_agrees = case_tests(H, {name: (BODY.format(**fields), expected)
                                                  for name, (fields, expected) in CASES.items()})


def test_undecided_flag_raises_for_one_value():
    """The flag nobody decides: PyTorch raises for False only, so nothing is proven."""
    body = BODY.format(plain="torch.zeros(1)", passed="requires_grad=flag", run="")
    assert_pytorch_agrees(H, body, {(7, "TP203")}, run="main(False)\n")
    assert_pytorch_agrees(H, body, set(), run="main(True)\n")


def test_parameter_built_from_the_plain_tensor():
    """`self.beta = t` then `if learn: self.beta = nn.Parameter(self.beta)`, built with `learn=False`:
    the instance keeps the plain tensor."""
    body = """\
        class Layer(nn.Module):
            def __init__(self, learn=True):
                super().__init__()
                self.beta = torch.zeros(3)
                if learn:
                    self.beta = nn.Parameter(self.beta)

            def forward(self, x):
                return self.beta * x

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = Layer(learn=False)

            def forward(self, x):
                return self.layer(x)

        net = Net().to("cuda")
        net(torch.ones(3, device="cuda"))
        """
    assert_findings(H, body, {(4, "TP203")})
    assert_pytorch_agrees(H, body, {(4, "TP203")})
