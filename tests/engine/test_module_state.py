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

# A plain attribute passed to another module or a helper function fails there, where the flow sees it
# meet the module's tensors: an error at that line (TP203 reports the attribute where it is set).
PASSED_ON = """\
def shift(x, pad):
    return torch.cat([pad, x], 0)
class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x, bias):
        return self.fc(x) + bias
class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = torch.zeros(2, 4)
        self.inner = Inner()
    def forward(self, x):
        return {use}
m = Outer().to('cuda')
y = m(torch.ones(2, 4, device='cuda'))
"""

CASES.update({
    "plain-attribute-passed-to-a-submodule": (PASSED_ON.replace("{use}", "self.inner(x, self.bias)"),
                                              {(8, "TP101"), (12, "TP203")}),
    "plain-attribute-passed-to-a-helper": (PASSED_ON.replace("{use}", "shift(self.inner.fc(x), self.bias)"),
                                           {(2, "TP101"), (12, "TP203")}),
    # used in the module's own method: reported once, where it is set
    "plain-attribute-used-by-its-module": (PASSED_ON.replace("{use}", "self.inner.fc(x) + self.bias"), {(12, "TP203")}),
    # moved where it is passed: nothing
    "plain-attribute-moved-where-passed": (PASSED_ON.replace("{use}", "self.inner(x, self.bias.to(x.device))"), set()),
    # a 0-dim CPU attribute in arithmetic: PyTorch allows it
    "zero-dim-plain-attribute-passed-on": (PASSED_ON.replace("torch.zeros(2, 4)", "torch.tensor(0.5)")
                                           .replace("{use}", "self.inner(x, self.bias)"), set()),
})

# An override of `to()` that moves some attributes itself and hands on to nn.Module's moves only those
# (sac's DeterministicPolicy: `noise` stays on the CPU).
OVERRIDE = """\
class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 3)
        self.noise = torch.zeros(3)
        self.scale = torch.ones(3)
    def forward(self, x):
        return self.fc(x) * self.scale + self.noise{clamp}
    def to(self, device):
        self.scale = self.scale.to(device)
{more}        return super().to(device)
m = Policy().to('cuda')
y = m(torch.ones(2, 3, device='cuda'))
"""

CASES.update({
    "to-override-moves-other-attributes": (OVERRIDE.replace("{clamp}", "").replace("{more}", ""), {(5, "TP203")}),
    # the same attribute through an element-wise op of it (`self.noise.clamp(...)`)
    "unmoved-attribute-clamped": (OVERRIDE.replace("{clamp}", ".clamp(-1, 1)").replace("{more}", ""), {(5, "TP203")}),
    # the override moves it too
    "to-override-moves-it": (OVERRIDE.replace("{clamp}", "").replace(
        "{more}", "        self.noise = self.noise.to(device)\n"), set()),
    # an override that does anything else may move anything
    "to-override-with-other-work": (OVERRIDE.replace("{clamp}", "").replace(
        "{more}", "        self.move_rest(device)\n"), set()),
    # `_apply` is called by every move: it may move anything
    "apply-override": (OVERRIDE.replace("{clamp}", "").replace("def to(self, device)", "def _apply(self, fn)")
                       .replace("self.scale.to(device)", "fn(self.scale)").replace("{more}", "")
                       .replace("super().to(device)", "super()._apply(fn)"), set()),
})


# ... also through the members of module containers: `for attn, ffn in self.layers` over
# `layers.append(nn.ModuleList([Attention(), FFN()]))` (torchgeo's CROMA), and a lambda in the
# deepest method (`map(lambda t: t.view(...), (q, k, v))`)
LAYERS = """\
class Att(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
    def forward(self, x, bias):
        q, k = map(lambda t: t.view(2, 4, 4), self.fc(x).chunk(2, dim=-1))
        return q + bias
class Stack(nn.Module):
    def __init__(self, depth):
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([Att(), nn.Linear(4, 4)]))
    def forward(self, x, bias):
        {loop}
        return x
class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.stack = Stack(2)
    def forward(self, x, bias):
        return self.stack(x, bias)
class Top(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = torch.zeros(1, 4, 4)
        self.enc = Encoder()
    def forward(self, x):
        return self.enc(x, self.bias)
model = Top().to('cuda')
y = model(torch.ones(2, 4, 8, device='cuda'))
"""

CASES.update({
    "pairs-of-an-appended-module-list": (LAYERS.replace(
        "{loop}", "for attn, ffn in self.layers:\n            x = ffn(attn(x, bias))"), {(7, "TP101"), (27, "TP203")}),
    "member-of-an-appended-module-list": (LAYERS.replace(
        "{loop}", "for pair in self.layers:\n            x = pair[1](pair[0](x, bias))"), {(7, "TP101"), (27, "TP203")}),
    # the bias moved where the stack is called: nothing
    # (TP203 at 27 is a hint: the bias is moved before any op meets it, so nothing fails)
    "moved-before-the-module-list": (LAYERS.replace("self.stack(x, bias)", "self.stack(x, bias.to(x.device))").replace(
        "{loop}", "for attn, ffn in self.layers:\n            x = ffn(attn(x, bias))"), set()),
})


# A plain attribute made by a legacy constructor (`torch.Tensor(n)`: n elements, one dimension, never
# 0-dim) meets the module's output in a method other than `forward` (sac's DeterministicPolicy.sample)
SAMPLED = """\
class Policy(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.mean = nn.Linear(n, n)
        self.noise = {make}
    def forward(self, state):
        return self.mean(state)
    def sample(self, state):
        mean = self.forward(state)
        return mean + self.noise
policy = Policy(4).to('cuda')
y = policy.sample(torch.ones(1, 4, device='cuda'))
"""

CASES.update({
    "legacy-constructor-attribute-in-another-method": (SAMPLED.replace("{make}", "torch.Tensor(n)"), {(5, "TP203")}),
    "legacy-constructor-sizes-attribute": (SAMPLED.replace("{make}", "torch.FloatTensor(1, n)"), {(5, "TP203")}),
    # one tensor as data keeps its rank, which may be 0: arithmetic takes a 0-dim CPU tensor
    "legacy-constructor-of-a-zero-dim-tensor": (SAMPLED.replace("{make}", "torch.Tensor(torch.tensor(0.1))"), set()),
})

@pytest.mark.parametrize("name", sorted(CASES))
def test_module_state(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
