"""Recall causes found on the corpus's misses (session s16, recall16a): constructs the analysis missed.

- `forward`'s optional state (`h=None`): analysed as an entry point, the default path is the one a caller
  that passes nothing takes, so `if h is None: h = torch.zeros(...)` is a CPU tensor there (an RNN's
  initial hidden state) — before, the parameter was unknown and the join with the CPU tensor lost it.
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
