"""Recall causes found on the corpus's misses (session s17, recall17b): constructs the analysis missed.

- A None placeholder (`self.hidden = None` in `__init__`) that the class's other methods fill only with
  CPU factory calls (`def init_hidden(self, n): self.hidden = torch.zeros(...)`): read by another method,
  or through an object holding the instance, it is that CPU tensor (flow/placeholders.py).  Before, the
  None said nothing (QMIX's agents: marl_qmix).
- An object kept in another object's attribute after this code called its methods
  (`rk.load_model(device); self.ranking_model = rk`): it holds what those methods bound (`rk.model` moved
  to the device), as an object passed to a call or returned already did (rxn_yield_context).
- `device == None` / `device != None` is decided as `device is None` is (a `device=None` default).

Each snippet runs under a fake GPU (torch's FakeTensorMode) to prove the claim, and through the engine.
"""
import pytest

from torchplace_rules import check_source
from torchplace_rules.model import Severity

from .fake_gpu import run_on_fake_gpu


def loud(source: str) -> list:
    return [(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]


PLACEHOLDER = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRUCell(4, 4)

    def forward(self, x, h):
        return self.rnn(x, h)


class Policy:
    def __init__(self, device):
        self.net = Net().to(device)
        self.hidden = None

    def init_hidden(self, n):
        self.hidden = torch.zeros((n, 3, 4))


class Agent:
    def __init__(self, device):
        self.device = device
        self.policy = Policy(device)

    def act(self, obs, i):
        h = self.policy.hidden[:, i, :]
        x = torch.ones(obs, 4).to(self.device)
        return self.policy.net(x, h)
"""
RUN_AGENT = """
agent = Agent(torch.device("cuda"))
agent.policy.init_hidden(2)
agent.act(2, 0)
"""


def test_placeholder_filled_with_a_cpu_factory_is_that_tensor_through_a_held_object():
    assert run_on_fake_gpu(PLACEHOLDER + RUN_AGENT) is not None
    assert loud(PLACEHOLDER) == [(31, "TP102")]


def test_placeholder_read_by_a_method_of_its_own_class():
    source = PLACEHOLDER.split("\n\nclass Agent:")[0] + """

    def act(self, x, i):
        return self.net(x.to("cuda"), self.hidden[:, i, :])
"""
    assert run_on_fake_gpu(source + '\np = Policy("cuda")\np.init_hidden(2)\np.act(torch.ones(2, 4), 0)\n') is not None
    assert loud(source) == [(24, "TP102")]


@pytest.mark.parametrize("fill", [
    "self.hidden = torch.zeros((n, 3, 4), device=self.net.rnn.weight_ih.device)",  # made where the net is
    "self.hidden = torch.zeros_like(self.net.rnn.weight_ih)[:n].view(n, 3, -1)",  # no factory of its own
])
def test_placeholder_filled_where_the_module_is_is_quiet(fill):
    source = PLACEHOLDER.replace("self.hidden = torch.zeros((n, 3, 4))", fill)
    assert loud(source) == []


def test_placeholder_moved_by_another_method_is_not_read_as_cpu():
    source = PLACEHOLDER.replace("""        self.hidden = torch.zeros((n, 3, 4))
""", """        self.hidden = torch.zeros((n, 3, 4))

    def to(self, device):
        self.hidden = self.hidden.to(device)
""")
    assert loud(source) == []


def test_placeholder_bound_from_outside_the_class_is_not_read_as_cpu():
    source = PLACEHOLDER + """

def reset(agent, device):
    agent.policy.hidden = torch.zeros((1, 3, 4), device=device)
"""
    assert loud(source) == []


def test_placeholder_filled_from_data_is_not_read_as_cpu():
    # torch.tensor(x) keeps a tensor `x` where it is: no CPU factory
    source = PLACEHOLDER.replace("def init_hidden(self, n):\n        self.hidden = torch.zeros((n, 3, 4))",
                                 "def init_hidden(self, h):\n        self.hidden = torch.tensor(h)")
    assert loud(source) == []


HELD_OBJECT = """\
import torch
import torch.nn as nn


class Ranker:
    def __init__(self):
        self.model = None
        self.device = None

    def load_model(self, device):
        self.device = device
        self.model = nn.Linear(8, 2)
        self.model.to(device)

    def predict_scores(self, fp):
        return self.model(fp)


class Predictor:
    def __init__(self):
        self.device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        self.load_ranking_model()

    def load_ranking_model(self):
        rk = Ranker()
        rk.load_model(device=self.device)
        self.ranking_model = rk

    def recommend(self, n):
        fp = torch.ones(n, 8)
        return self.ranking_model.predict_scores(fp)
"""


def test_object_stored_in_an_attribute_keeps_what_its_methods_bound():
    assert run_on_fake_gpu(HELD_OBJECT + "\nPredictor().recommend(3)\n") is not None
    assert loud(HELD_OBJECT) == [(16, "TP102")]


def test_object_stored_in_an_attribute_with_the_input_moved_is_quiet():
    source = HELD_OBJECT.replace("fp = torch.ones(n, 8)", "fp = torch.ones(n, 8).to(self.device)")
    assert run_on_fake_gpu(source + "\nPredictor().recommend(3)\n") is None
    assert loud(source) == []


EQ_NONE = """\
import torch
import torch.nn as nn


class Predictor:
    def __init__(self, device=None):
        if device == None:
            device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")
        else:
            device = torch.device(device)
        self.net = nn.Linear(4, 2).to(device)

    def predict(self, n):
        return self.net(torch.ones(n, 4))


def main():
    p = Predictor()
    return p.predict(3)
"""


def test_equal_to_none_is_decided_as_is_none():
    assert run_on_fake_gpu(EQ_NONE + "\nmain()\n") is not None
    assert (14, "TP102") in loud(EQ_NONE)


def test_not_equal_to_none_is_decided_as_is_not_none():
    source = EQ_NONE.replace("if device == None:", "if device != None:").replace(
        'device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")\n        else:\n'
        '            device = torch.device(device)',
        'device = torch.device(device)\n        else:\n'
        '            device = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")')
    assert run_on_fake_gpu(source + "\nmain()\n") is not None
    assert (14, "TP102") in loud(source)


def test_equal_to_none_with_a_cpu_caller_is_quiet():
    source = EQ_NONE.replace("p = Predictor()", 'p = Predictor("cpu")')
    assert run_on_fake_gpu(source + "\nmain()\n") is None
    assert (14, "TP102") not in loud(source)


def test_placeholder_bound_by_a_later_edit_elsewhere_in_the_file_is_seen_by_a_kept_analysis():
    # the class scan read the rest of the file (stores of the attribute outside the class): an edit
    # there must not reuse the scan
    from torchplace_rules.analysis_memo import AnalysisMemo
    memo = AnalysisMemo()
    found = lambda text: [(f.span.start_line + 1, f.code) for f in check_source(text, "t.py", memo=memo)
                          if f.severity <= Severity.WARNING]
    assert found(PLACEHOLDER) == [(31, "TP102")]
    edited = PLACEHOLDER + "\n\ndef reset(agent, device):\n    agent.policy.hidden = torch.zeros((1, 3, 4), device=device)\n"
    assert found(edited) == loud(edited) == []
    assert found(PLACEHOLDER) == [(31, "TP102")]


def test_placeholder_of_a_class_of_another_file(tmp_path):
    # the class is read through its file's summary: its module's names say what `torch.zeros` is
    from torchplace_rules import Config, check_path
    from torchplace_rules.project_index import ProjectIndex
    policy, agent = PLACEHOLDER.split("\n\nclass Agent:")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "policy.py").write_text(policy + "\n")
    (tmp_path / "agent.py").write_text("import torch\nfrom policy import Policy\n\n\nclass Agent:" + agent)
    found = [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "agent.py", Config(), project=ProjectIndex(tmp_path))
             if f.severity <= Severity.WARNING]
    assert found == [(13, "TP102")]
