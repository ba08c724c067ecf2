"""TP203's severity says what the analysis saw.  A plain CPU tensor attribute that the flow sees meet
the module's tensors (the module moved and called, or its `forward` run in a context) is a warning;
one that only the text of `forward` puts next to them (no call seen, an op the analysis does not model)
is a hint worded "may": an index, a 0-dim value, or a value some other code moves or replaces is fine
there, and fresh reviews found most such reports false (benchmarks/review/false_finding_causes.md, s15)."""
import textwrap

from torchplace_rules import Config, check_source
from torchplace_rules.model import Severity

SCALE = """\
import torch
import torch.nn as nn


class Scale(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.weights = torch.tensor([0.5, 2.0])

    def forward(self, x):
        return self.fc(x) * self.weights
"""


def tp203(source: str) -> list:
    return [(f.span.start_line + 1, f.severity, f.message) for f in
            check_source(textwrap.dedent(source), "scale.py", Config(select=frozenset({"TP203"})))]


def test_meeting_the_modules_own_tensors_in_forward_gives_a_warning():
    [(line, severity, _)] = tp203(SCALE)  # (`self.fc(x)` is where the module is, whoever calls it)
    assert (line, severity) == (9, Severity.WARNING)


def test_only_the_text_of_forward_gives_a_hint_that_says_may():
    # `prepare` is another library's: where its result is, and so whether the product fails, is not known
    source = SCALE.replace("import torch\n", "import torch\nfrom somelib import prepare\n", 1)
    [(line, severity, message)] = tp203(source.replace("self.fc(x) * self.weights", "prepare(x) * self.weights"))
    assert (line, severity) == (10, Severity.HINT)
    assert "may fail" in message


def test_the_module_moved_and_called_gives_a_warning():
    driver = 'model = Scale().cuda()\ny = model(torch.ones(3, 2, device="cuda"))\n'
    [(line, severity, message)] = tp203(SCALE + driver)
    assert (line, severity) == (9, Severity.WARNING)
    assert "fails on a GPU" in message


def test_failing_where_it_is_handed_on_gives_a_warning():
    source = SCALE.replace("self.fc(x) * self.weights", "scaled(self.fc(x), self.weights)") + """
def scaled(x, w):
    return x * w


model = Scale().cuda()
y = model(torch.ones(3, 2, device="cuda"))
"""
    [(line, severity, _)] = tp203(source)
    assert (line, severity) == (9, Severity.WARNING)
