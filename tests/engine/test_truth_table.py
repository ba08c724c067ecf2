"""PyTorch's real device semantics, as tests: what must and must not be reported.

Each case runs under a fake GPU (real PyTorch device checks) to prove the
claim, and through the engine to prove it reports accordingly.
"""
import pytest

from torchplace_rules import Severity, check_source

from .fake_gpu import run_on_fake_gpu

HEADER = "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda')\n"

# (id, code, raises on a GPU?, expected error code or None)
CASES = [
    ("module-to-alone-is-in-place", "m = nn.Linear(3, 2)\nm.to(device)\ny = m(torch.ones(1, 3, device=device))\n", False, None),
    ("module-cuda-alone", "m = nn.Linear(3, 2)\nm.cuda()\ny = m(torch.ones(1, 3).to(device))\n", False, None),
    ("inplace-add-keeps-device", "a = torch.ones(3, device=device)\nb = torch.ones(3, device=device)\na += b\nc = a * b\n", False, None),
    ("inplace-add-mixed-raises", "a = torch.ones(3, device=device)\nb = torch.ones(3)\na += b\n", True, "TP101"),
    ("zero-dim-cpu-times-cuda", "x = torch.ones(3, device=device)\ny = x * torch.tensor(2.0)\n", False, None),
    ("zero-dim-cpu-first", "x = torch.ones(3, device=device)\ny = torch.tensor(2.0) + x\n", False, None),
    ("cpu-reduction-is-0dim", "x = torch.ones(3, device=device)\ns = torch.ones(3).sum()\ny = x * s\n", False, None),
    ("new-zeros-follows", "x = torch.ones(3, device=device)\ny = x + x.new_zeros(3)\n", False, None),
    ("zeros-like-follows", "x = torch.ones(3, device=device)\ny = x + torch.zeros_like(x)\n", False, None),
    ("device-from-tensor", "x = torch.ones(3, device=device)\ny = x + torch.ones(3, device=x.device)\n", False, None),
    ("set-default-device", "torch.set_default_device('cuda')\nx = torch.ones(3)\ny = x + torch.ones(3, device=device)\ntorch.set_default_device('cpu')\n", False, None),
    ("buffer-moves-with-module",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer('s', torch.ones(3))\n"
     "    def forward(self, x):\n        return x * self.s\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n", False, None),
    ("plain-attr-does-not-move",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.s = torch.ones(3)\n"
     "    def forward(self, x):\n        return x * self.s\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n", True, "TP203"),
    ("cpu-plus-cuda-raises", "a = torch.ones(3, device=device)\nb = torch.ones(3)\nc = a + b\n", True, "TP101"),
    ("cat-mixed-raises", "a = torch.ones(3, device=device)\nc = torch.cat([a, torch.ones(3)])\n", True, "TP101"),
    ("matmul-mixed-raises", "a = torch.ones(3, 3, device=device)\nc = torch.matmul(a, torch.ones(3, 3))\n", True, "TP101"),
    ("compare-mixed-raises", "a = torch.ones(3, device=device)\nc = a == torch.ones(3)\n", True, "TP101"),
    ("cpu-input-to-cuda-linear", "m = nn.Linear(3, 2).to(device)\ny = m(torch.ones(1, 3))\n", True, "TP102"),
    ("cuda-input-to-cpu-linear", "m = nn.Linear(3, 2)\ny = m(torch.ones(1, 3, device=device))\n", True, "TP102"),
    ("paramless-module-any-device", "act = nn.ReLU().to(device)\ny = act(torch.ones(3))\n", False, None),
    ("tensor-to-discarded", "x = torch.ones(3)\nx.to(device)\ny = x + torch.ones(3, device=device)\n", True, "TP201"),
    ("tensor-to-assigned", "x = torch.ones(3)\nx = x.to(device)\ny = x + torch.ones(3, device=device)\n", False, None),
    ("index-select-cpu-index-raises", "x = torch.ones(4, device=device)\ny = x.index_select(0, torch.arange(2))\n", True, "TP101"),
]
# Advanced indexing with CPU indices is allowed on CUDA, but FakeTensorMode in a
# CPU build cannot run it; the engine side is still checked.
ENGINE_ONLY = [
    ("cpu-index-into-cuda", "x = torch.ones(4, device=device)\ny = x[torch.arange(2)]\n", None),
]


@pytest.mark.parametrize("name,code,raises,expected", CASES, ids=[c[0] for c in CASES])
def test_semantics(name, code, raises, expected):
    source = HEADER + code
    error = run_on_fake_gpu(source)
    assert (error is not None) == raises, f"PyTorch disagrees with the table for {name}: {error!r}"
    loud = [f for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]
    if expected is None:
        assert loud == [], [f"{f.code} {f.message}" for f in loud]
    else:
        assert expected in [f.code for f in loud], [f"{f.code} {f.message}" for f in loud]


@pytest.mark.parametrize("name,code,expected", ENGINE_ONLY, ids=[c[0] for c in ENGINE_ONLY])
def test_engine_only(name, code, expected):
    loud = [f for f in check_source(HEADER + code, "t.py") if f.severity <= Severity.WARNING]
    assert [f.code for f in loud] == ([] if expected is None else [expected])
