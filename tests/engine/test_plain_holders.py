"""Layers held by a plain object (a project class that is no nn.Module) inside a module.

`nn.Module.__setattr__` registers modules, parameters and buffers only: a plain object stored as a
module attribute is not registered, so `model.to(device)` / `.cuda()` never reaches the layers it
holds.  They stay where its `__init__` built them (the CPU), and calling one with an input on the
model's device raises (corpus b8: zeta_visual_expert_plain_class_layers).  A holder that moves its
layers itself, whose layers the module moves, a class deriving from a base the analysis cannot see
(it may be an nn.Module), or a holder passed on to unknown code, are left alone."""
import pytest
import torch

from .fake_gpu import run_on_fake_gpu
from .test_finding_context import loud

MODEL = """\
import torch
import torch.nn as nn
{extra}

class Holder{base}:
    def __init__(self, dim):
        self.norm = nn.LayerNorm(dim)
{holder}
    def __call__(self, x):
        return self.norm(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.holder = Holder(8)
{net}
    def forward(self, x):
{forward}        return self.holder(self.proj(x))


model = Net().to("cuda")
out = model(torch.randn(2, 8, device="cuda"))
"""
NORM_LINE = 10

CASES = {
    # raises: the LayerNorm stays on the CPU
    "plain": dict(raises=True),
    "plain_with_a_method_called": dict(holder="    def scale(self):\n        return 2.0\n",
                                       forward="        s = self.holder.scale()\n", raises=True),
    # quiet twins
    "holder_moves_in_call": dict(holder="", forward="        self.holder.norm.to(x.device)\n", raises=False),
    "holder_own_to": dict(holder="    def to(self, device):\n        self.norm.to(device)\n        return self\n",
                          net="    def to(self, *args, **kwargs):\n        super().to(*args, **kwargs)\n"
                              "        self.holder.to(*args, **kwargs)\n        return self\n",
                          raises=False),
    "holder_moves_its_layers": dict(holder="    def place(self, device):\n        self.norm = self.norm.to(device)\n",
                                    forward="        self.holder.place(x.device)\n", raises=False),
    "holder_hands_itself_on": dict(extra="def place(obj, device):\n    obj.norm.to(device)\n",
                                   holder="    def place(self, device):\n        place(self, device)\n",
                                   forward="        self.holder.place(x.device)\n", raises=False),
    "holder_is_a_module": dict(base="(nn.Module)", holder="", raises=False),
    "unknown_base": dict(extra="from somewhere import Base\n", base="(Base)", raises=False),
    "passed_on": dict(extra="def place(obj, device):\n    obj.norm.to(device)\n",
                      forward="        place(self.holder, x.device)\n", raises=False),
}


def _source(name: str) -> str:
    spec = dict(extra="", base="", holder="", net="", forward="")
    spec.update({k: v for k, v in CASES[name].items() if k != "raises"})
    source = MODEL.format(**spec)
    if spec["base"] == "(nn.Module)":  # a real submodule: registered, moved with the model
        source = source.replace("        self.norm = nn.LayerNorm(dim)", "        super().__init__()\n        self.norm = nn.LayerNorm(dim)")
    return source


def _runnable(name: str) -> bool:
    return "somewhere" not in _source(name)


def test_module_to_leaves_the_layers_of_a_plain_attribute_where_they_were():
    class Holder:
        def __init__(self):
            self.lin = torch.nn.Linear(2, 2)

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.proj = torch.nn.Linear(2, 2)
            self.holder = Holder()

    m = M().to("meta")
    assert m.proj.weight.device.type == "meta" and m.holder.lin.weight.device.type == "cpu"
    assert "holder" not in dict(m.named_children()) and len(list(m.parameters())) == 2


@pytest.mark.parametrize("name", [n for n in CASES if _runnable(n)])
def test_truth_on_a_simulated_gpu(name):
    raised = run_on_fake_gpu(_source(name))
    assert (raised is not None) == CASES[name]["raises"], raised
    if raised is not None:
        assert "device" in str(raised)


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_reports_exactly_the_raising_ones(name):
    found = {f for f in loud(_source(name)) if f[1] == "TP102"}
    line = _source(name).splitlines().index("        return self.norm(x)") + 1
    assert found == ({(line, "TP102")} if CASES[name]["raises"] else set())
