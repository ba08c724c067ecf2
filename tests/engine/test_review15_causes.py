"""False findings of the s15 precision review of 14 more repositories (review15a; benchmarks/review/
false_finding_causes.md, causes V1 to V3), each as a regression snippet with a true twin.  Lines count
from the snippet; warnings count (assert_findings keeps information and above).  The PyTorch claims have
truth-table rows (tests/engine/test_truth_table.py)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"
CASES = {
    # V1: a plain list of modules that `nn.ModuleList(self.the_list)` also registers (darts' N-BEATS)
    "plain-list-also-wrapped-in-module-list": ("""\
        class Stack(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.blocks_list = [nn.Linear(8, 8) for _ in range(n)]
                self.blocks = nn.ModuleList(self.blocks_list)

            def forward(self, x):
                for block in self.blocks_list:
                    x = block(x)
                return x
        net = Stack(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, set()),
    "appended-list-also-wrapped-in-sequential": ("""\
        class Stack(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.res_blocks_list = []
                for i in range(n):
                    self.res_blocks_list.append(nn.Linear(8, 8))
                self.res_blocks = nn.Sequential(*self.res_blocks_list)

            def forward(self, x):
                for block in self.res_blocks_list:
                    x = block(x)
                return x
        net = Stack(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, set()),
    "plain-list-appended-after-the-wrap": ("""\
        class Stack(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.blocks_list = []
                self.blocks = nn.ModuleList(self.blocks_list)
                for i in range(n):
                    self.blocks_list.append(nn.Linear(8, 8))

            def forward(self, x):
                for block in self.blocks_list:
                    x = block(x)
                return x
        net = Stack(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, {(4, "TP203")}),
    "plain-list-only-a-slice-wrapped": ("""\
        class Stack(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.blocks_list = [nn.Linear(8, 8) for _ in range(n)]
                self.blocks = nn.ModuleList(self.blocks_list[1:])

            def forward(self, x):
                for block in self.blocks_list:
                    x = block(x)
                return x
        net = Stack(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, {(4, "TP203")}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_review15_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
