"""An attribute only `__init__` sets, under a condition (issue 10), construct by construct.

An instance whose `__init__` did not set it has no such attribute, so a read that runs sees what
`__init__` bound (rl-starter's `if self.acmodel.recurrent: self.memories = torch.zeros(...)`).  Not
where something else may have set it: a class attribute, a property, a method `__init__` calls,
`setattr`, a base the analysis cannot see, an attribute nn.Module itself has.

Each case is a program and the (line, code) findings at information severity and above it must
get; lines count from the first line of the snippet.
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

AGENT = """\
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTMCell(4, 4)
    def forward(self, x, memory):
        return self.rnn(x, (memory, memory))
class Agent{bases}:
{extra}
    def __init__(self, recurrent, device):
        self.net = Net()
        self.device = device
        if recurrent:
            self.memories = torch.zeros(2, 4)
        self.net.to(self.device)
    def act(self, obs):
        x = torch.ones(2, 4, device=self.device)
        return self.net(x, self.memories)
agent = Agent(RECURRENT, torch.device("cuda"))  # (a flag nothing here decides)
agent.act(None)
"""


def agent(bases="", extra=""):
    return AGENT.format(bases=bases, extra=textwrap_indent(extra))


def textwrap_indent(extra: str) -> str:
    return "\n".join("    " + line for line in extra.splitlines()) if extra else "    pass"



CASES = {
    # `if recurrent: self.memories = CPU tensor`: where `act` reads it, it is that tensor
    "conditional-init-attribute": (agent(), {(17, "TP102")}),
    # the same, set in a `for` loop that may run no time, or in a `try`
    "init-attribute-set-in-a-loop": (agent().replace(
        "if recurrent:", "for _ in range(recurrent):"),
        {(17, "TP102")}),
    # a class attribute gives the instance without it a value too (`None` is a placeholder: the value)
    "class-attribute-of-that-name": (agent(extra="memories = torch.zeros(2, 4, device='cuda')"), set()),
    # so does a property of that name
    "property-of-that-name": (agent(extra="@property\ndef memories(self):\n    return self._m"), set()),
    # a method `__init__` calls may set it
    "set-by-a-method-init-calls": (agent(extra="def reset(self):\n    self.memories = torch.zeros(2, 4, device='cuda')").replace(
        "        if recurrent:", "        self.reset()\n        if recurrent:"), set()),
    # setattr(self, ...) anywhere in the class may set any name
    "setattr-in-the-class": (agent(extra="def load(self, **kw):\n    for k, v in kw.items():\n        setattr(self, k, v)"),
                             set()),
    # a base the analysis cannot see may define it
    "unknown-base": (agent(bases="(SomeBase)"), set()),
    # the same value on both paths needs nothing new
    "unconditional-init-attribute": (agent().replace(
        "if recurrent:\n            self.memories", "if True:\n            pass\n        self.memories"),
        {(18, "TP102")}),
}

@pytest.mark.parametrize("name", sorted(CASES))
def test_conditional_init_attribute(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
