"""Tensors a module holds that `Module.to()` does not move (issue 10), construct by construct.

`Module._apply` rebinds `self._buffers[name]` to a new tensor: a plain list filled with the
registered buffers (`self.noise.append(getattr(self, pname))`) keeps the tensors as registered,
on the CPU (pytorch/pytorch#29807; the meta-device rows of `test_truth_table.py`).

Each case is a program and the (line, code) findings at information severity and above it must
get; lines count from the first line of the snippet.
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

BUFFER_LIST = """\
class Noise(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.noise = []
        for i in range(n):
            pname = 'noise_{}'.format(i)
            self.register_buffer(pname, torch.zeros(4, 1))
            self.noise.append(getattr(self, pname))
        self.fc = nn.Linear(3, 3)
    def forward(self, x):
        return torch.cat([x, {read}], 1)
m = Noise(3).to('cuda')
y = m(torch.ones(4, 2, device='cuda'))
"""

CASES = {
    # the list holds the buffers as registered: after `.to()` they are still on the CPU
    "list-of-registered-buffers": (BUFFER_LIST.replace("{read}", "self.noise[0]"), {(11, "TP203")}),
    # the name given as an expression, not a variable (pytorch/pytorch#29807)
    "buffer-named-by-an-expression": (BUFFER_LIST.replace("pname, torch", "'noise_{}'.format(i), torch").replace(
        "getattr(self, pname)", "getattr(self, 'noise_{}'.format(i))").replace("{read}", "self.noise[0]"), {(11, "TP203")}),
    # the buffer itself moves with the module
    "the-buffer-read-by-its-name": (BUFFER_LIST.replace("{read}", "getattr(self, 'noise_0')"), set()),
    # getattr with another name reads something else: not known
    "getattr-of-another-name": (BUFFER_LIST.replace("getattr(self, pname)", "getattr(self, 'fc').weight[:, :1]")
                                .replace("{read}", "self.noise[0]"), set()),
    # the list rebuilt from the buffers where it is used holds the moved tensors
    "list-rebuilt-in-forward": (BUFFER_LIST.replace("{read}", "self.noise[0]").replace(
        "    def forward(self, x):\n",
        "    def forward(self, x):\n        self.noise = [getattr(self, 'noise_{}'.format(i)) for i in range(3)]\n"),
        set()),
    # ... or where the module moves (`_apply` overridden)
    "list-rebuilt-in-apply": (BUFFER_LIST.replace("{read}", "self.noise[0]").replace(
        "    def forward(self, x):\n",
        "    def _apply(self, fn):\n        super()._apply(fn)\n"
        "        self.noise = [getattr(self, 'noise_{}'.format(i)) for i in range(3)]\n        return self\n"
        "    def forward(self, x):\n"),
        set()),
    # a getattr in another loop reads whatever that loop's name is
    "getattr-in-another-loop": (BUFFER_LIST.replace(
        "            self.noise.append(getattr(self, pname))\n",
        "        for pname in ('fc',):\n            self.noise.append(getattr(self, pname).weight[:, :1])\n")
        .replace("{read}", "self.noise[0]"), set()),
}

@pytest.mark.parametrize("name", sorted(CASES))
def test_module_state(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
