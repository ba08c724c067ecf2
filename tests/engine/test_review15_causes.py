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
    "list-of-named-blocks-also-wrapped-in-module-list": ("""\
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)

            def forward(self, x):
                return self.fc(x)
        class TCN(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.res_blocks_list = []
                for i in range(n):
                    res_block = Block()
                    self.res_blocks_list.append(res_block)
                self.res_blocks = nn.ModuleList(self.res_blocks_list)

            def forward(self, x):
                for block in self.res_blocks_list:
                    x = block(x)
                return x
        net = TCN(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, set()),
    "list-of-named-blocks-registered-nowhere": ("""\
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(8, 8)

            def forward(self, x):
                return self.fc(x)
        class TCN(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.res_blocks_list = []
                for i in range(n):
                    res_block = Block()
                    self.res_blocks_list.append(res_block)

            def forward(self, x):
                for block in self.res_blocks_list:
                    x = block(x)
                return x
        net = TCN(3).cuda()
        net(torch.randn(2, 8, device="cuda"))
        """, {(11, "TP203")}),
    # V2: a plain tensor attribute used only as an index among others (SchNetPack's RealSphericalHarmonics)
    "attribute-only-an-index-among-others": ("""\
        class SH(nn.Module):
            def __init__(self, lmax: int):
                super().__init__()
                self.lmax = lmax
                self.register_buffer("c", torch.ones(lmax + 1, 2 * lmax + 1))
                ls = torch.arange(0, lmax + 1)
                self.lidx = torch.repeat_interleave(ls, 2 * ls + 1)
                self.midx = torch.cat([torch.arange(-l, l + 1) for l in ls])

            def forward(self, d):
                pi = d[:, None, None] * self.c
                a = pi[:, 0, self.midx + self.lmax]
                return pi[:, self.lidx, abs(self.midx)] * a
        sh = SH(2).to("cuda")
        sh(torch.ones(4, device="cuda"))
        """, set()),
    "attribute-an-index-and-an-operand": ("""\
        class SH(nn.Module):
            def __init__(self, lmax: int):
                super().__init__()
                self.register_buffer("c", torch.ones(lmax + 1, 2 * lmax + 1))
                self.midx = torch.arange(0, 2 * lmax + 1)

            def forward(self, d):
                pi = d[:, None, None] * self.c
                return pi[:, 0, self.midx] * self.midx
        sh = SH(2).to("cuda")
        sh(torch.ones(4, device="cuda"))
        """, {(5, "TP203")}),
    "attribute-index-shifted-by-a-tensor-attribute": ("""\
        class SH(nn.Module):
            def __init__(self, lmax: int):
                super().__init__()
                self.register_buffer("c", torch.ones(lmax + 1, 2 * lmax + 1))
                self.register_buffer("shift", torch.ones(2 * lmax + 1, dtype=torch.long))
                self.midx = torch.arange(0, 2 * lmax + 1)

            def forward(self, d):
                pi = d[:, None, None] * self.c
                return pi[:, 0, self.midx + self.shift]
        sh = SH(2).to("cuda")
        sh(torch.ones(4, device="cuda"))
        """, {(6, "TP203")}),
    # V3: the attribute re-bound, converted and moved to the input's device, before any use (metric-learning's PNP test)
    "attribute-converted-and-moved-before-use": ("""\
        class Ranker(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.mask = torch.ones(n, n)

            def forward(self, batch):
                dtype, device = batch.dtype, batch.device
                self.mask = self.mask.type(dtype).to(device)
                return (batch @ batch.T) * self.mask
        r = Ranker(4).to("cuda")
        r(torch.ones(4, 3, device="cuda"))
        """, set()),
    "attribute-converted-not-moved-before-use": ("""\
        class Ranker(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.mask = torch.ones(n, n)

            def forward(self, batch):
                dtype = batch.dtype
                mask = self.mask.type(dtype)
                return (batch @ batch.T) * mask
        r = Ranker(4).to("cuda")
        r(torch.ones(4, 3, device="cuda"))
        """, {(4, "TP203")}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_review15_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected, hints_of=("TP203",))  # (TP203 from forward's text alone is a hint)
