"""The root cause of a device error: where the offending tensor was created, moved, dropped or hidden."""
from __future__ import annotations

import runpy

import pytest

from torchplace_probe.kernel_side import simulated_gpu as sg

CASES = {
    "created": ('''\
import torch
model = torch.nn.Linear(3, 2).cuda()
x = torch.randn(
    4, 3)
model(x)
''', {"line": 3, "kind": "created", "operand": "mat1", "device": "cpu"}),
    "move-discarded": ('''\
import torch
model = torch.nn.Linear(3, 2).cuda()
inputs = torch.randn(5, 3)
inputs.cuda()
for row in inputs:
    model(row)
''', {"line": 4, "kind": "move-discarded", "moved_to": "cuda:0", "created": {"line": 3, "kind": "created"}}),
    "two batches from one dataset tensor keep their own moves": ('''\
import torch
data = torch.randn(8, 3)
a, b = data[:4] * 1, data[4:] * 1
a.cuda()
b = b.cuda()
torch.nn.Linear(3, 2).cuda()(a)
''', {"line": 4, "kind": "move-discarded"}),
    "hidden-attribute": ('''\
import torch
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = torch.ones(2)
        self.heads = [
            torch.nn.Linear(2, 2),
        ]
    def forward(self, x):
        return self.heads[0](x) * self.scale
net = Net().cuda()
net(torch.randn(3, 2, device="cuda"))
''', {"line": 6, "kind": "hidden-attribute", "attribute": "heads", "owner": "Net"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_root_cause(tmp_path, name):
    code, expected = CASES[name]
    script = tmp_path / "script.py"
    script.write_text(code)
    with sg.simulation(track_origins=True):
        with pytest.raises(RuntimeError) as info:
            runpy.run_path(str(script))
        cause = sg.root_cause(info.value)
    for key, value in expected.items():
        if key == "created":
            assert {k: cause["created"][k] for k in value} == value
        else:
            assert cause[key] == value, cause
    assert cause["file"] == str(script)
