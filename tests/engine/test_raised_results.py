"""The result of an op proven to raise has no device: what uses it is never reached.  Before, the
raising op gave an unknown value, and the next op took its other operand's device alone, so
`(x - mean.cuda()) / std.cuda()` with `x` on cuda:3 was reported at `-` and then again where a module
on cuda:3 took the result ("its input is on cuda:0"), a finding on a line PyTorch never reaches
(RobustBench's `DMPreActResNet.forward` once its `x.is_cuda` branch is decided, corpus batch b22).
Each snippet, run on the fake GPU, raises (at the first op) exactly where a finding is expected."""
from .snippets import case_tests

H = "import torch\nimport torch.nn as nn\n"
CASES = {
    "module-given-the-result": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.mean = torch.zeros(3, 1, 1)
                self.std = torch.ones(3, 1, 1)
                self.conv = nn.Conv2d(3, 4, 3)

            def forward(self, x):
                out = (x - self.mean.cuda()) / self.std.cuda()
                return self.conv(out)


        model = Net().to(torch.device("cuda:3"))
        model(torch.rand(2, 3, 8, 8, device=torch.device("cuda:3")))
        """, {(9, "TP101")}),
    "named-result-in-a-later-op": ("""\
        x = torch.rand(4, device="cuda:3")
        m = torch.zeros(4, device="cuda")
        s = torch.ones(4, device="cuda")
        out = (x - m) / s
        w = torch.ones(4, device="cuda:3")
        print(out * w)
        """, {(4, "TP101")}),
    # the same ops on one device: nothing raises, nothing is reported
    "one-device": ("""\
        x = torch.rand(4, device="cuda:3")
        m = torch.zeros(4, device="cuda:3")
        s = torch.ones(4, device="cuda:3")
        out = (x - m) / s
        w = torch.ones(4, device="cuda:3")
        print(out * w)
        """, set()),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
