"""Recall causes found on the corpus's misses (session s16, recall16a): constructs the analysis missed.

- `forward`'s optional state (`h=None`): analysed as an entry point, the default path is the one a caller
  that passes nothing takes, so `if h is None: h = torch.zeros(...)` is a CPU tensor there (an RNN's
  initial hidden state) — before, the parameter was unknown and the join with the CPU tensor lost it.
- A plain tensor attribute that `__init__` makes a Parameter only under a flag defaulting to False
  (`if learn_logvar: self.logvar = nn.Parameter(self.logvar)`): a default construction keeps it plain.
- A factory's size given by keyword (`torch.full(size=(n,), fill_value=v)`) has that rank (not 0-dim).
"""
import textwrap

from torchplace_rules import Config, check_source
from torchplace_rules.model import Severity


def found(source: str, code: str) -> list:
    return [(f.span.start_line + 1, f.severity) for f in
            check_source(textwrap.dedent(source), "m.py", Config(select=frozenset({code})))]


RNN = """\
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 8, batch_first=True)

    def forward(self, x, h=None):
        if h is None:
            h = torch.zeros(1, x.size(0), 8)
        out, h = self.gru(x, h)
        return out
"""


def test_forward_optional_state_made_on_the_cpu_is_reported_without_a_caller():
    assert found(RNN, "TP202") == [(12, Severity.WARNING)]


def test_forward_optional_state_made_where_the_input_is_is_quiet():
    assert found(RNN.replace("8)\n", "8, device=x.device)\n"), "TP202") == []


def test_forward_optional_state_made_in_a_helper_method_is_reported():
    source = RNN.replace("""        if h is None:
            h = torch.zeros(1, x.size(0), 8)
""", "        h = self._state(x, h)\n") + """
    def _state(self, x, h):
        if h is None:
            h = torch.zeros(1, x.size(0), 8)
        return h
"""
    assert found(source, "TP202") == [(17, Severity.WARNING)]


def test_forward_optional_argument_a_caller_passes_is_that_callers_value():
    # the call context binds what the call passes: a hidden state made where the input is
    source = RNN + """

def run():
    enc = Encoder().cuda()
    x = torch.ones(2, 3, 4, device="cuda")
    return enc(x, torch.zeros(1, 2, 8, device="cuda"))
"""
    assert found(source.replace("8)\n", "8, device=x.device)\n", 1), "TP202") == []


LOGVAR = """\
import torch
import torch.nn as nn


class Diffusion(nn.Module):
    def __init__(self, unet, learn_logvar=False):
        super().__init__()
        self.model = unet
        self.learn_logvar = learn_logvar
        self.logvar = torch.full(fill_value=0.0, size=(1000,))
        if self.learn_logvar:
            self.logvar = nn.Parameter(self.logvar, requires_grad=True)

    def forward(self, x):
        t = torch.randint(0, 1000, (x.shape[0],), device=x.device)
        return self.model(x) * self.logvar[t]
"""


def test_a_parameter_only_under_a_flag_that_defaults_false_stays_a_plain_attribute():
    assert found(LOGVAR, "TP203") == [(10, Severity.WARNING)]


def test_the_flag_tested_as_an_argument_of_init():
    assert found(LOGVAR.replace("if self.learn_logvar:", "if learn_logvar:"), "TP203") == [(10, Severity.WARNING)]


def test_a_flag_that_defaults_true_registers_it():
    assert found(LOGVAR.replace("learn_logvar=False", "learn_logvar=True"), "TP203") == []


def test_a_flag_without_a_default_is_the_callers_choice():
    assert found(LOGVAR.replace("learn_logvar=False", "learn_logvar"), "TP203") == []


def test_a_flag_changed_in_init_is_not_known_false():
    source = LOGVAR.replace("        self.learn_logvar = learn_logvar\n",
                            "        self.learn_logvar = learn_logvar\n        self.learn_logvar = True\n")
    assert found(source, "TP203") == []


def test_an_unconditional_parameter_registers_it():
    source = LOGVAR.replace("        if self.learn_logvar:\n            self.logvar", "        self.logvar")
    assert found(source, "TP203") == []


def test_a_buffer_on_the_other_branch_registers_it():
    source = LOGVAR.replace("requires_grad=True)\n", "requires_grad=True)\n        else:\n"
                            "            self.register_buffer('logvar', self.logvar)\n")
    assert found(source, "TP203") == []


def test_a_factory_sized_by_keyword_has_that_rank():
    # `torch.full(size=(n,), fill_value=v)` is a vector: no 0-dim exemption
    source = LOGVAR.replace("        if self.learn_logvar:\n            self.logvar = nn.Parameter(self.logvar, requires_grad=True)\n", "")
    assert found(source, "TP203") == [(10, Severity.WARNING)]
    assert found(source.replace("torch.full(fill_value=0.0, size=(1000,))", "torch.full(size=(), fill_value=0.0)")
                 .replace("self.logvar[t]", "self.logvar"), "TP203") == []


def test_forward_optional_state_annotated_a_tensor_keeps_its_tensor_meaning():
    # `mask: Optional[torch.Tensor] = None` is a tensor on the module's device where it is used unguarded
    # (test_device_flow's optional mask); the default path is read only for parameters not annotated so
    source = RNN.replace("def forward(self, x, h=None):", "def forward(self, x, h: Optional[torch.Tensor] = None):")
    source = source.replace("import torch\n", "from typing import Optional\n\nimport torch\n", 1)
    assert found(source, "TP202") == []
