"""False warnings left in the whole review on 482566f (benchmarks/review/false_finding_causes.md,
session 18, causes R1...), each as a construct snippet with a still-reported true twin.  Lines count
from the snippet; warnings count (assert_findings keeps information and above)."""
from .snippets import assert_findings

H = "import sys\nimport torch\nimport torch.nn as nn\n"

# R1: `forward` rebinds its parameter (so W1's rule, which needs a name never rebound, says nothing) but
# first hands it to a helper, which hands it on to a method of the same object that reads it as another
# object (`data.x`): the helper is passed a graph, whose own `to` may move it in place, not a tensor.
HANDED_ON = """\
    class Gdc(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)
            self.data = None

        def reset_data(self, data):
            data.to("cpu")
            self.data = self.preprocessing({handed})
            data.to("cuda")

        def preprocessing(self, data):
            return data.{read}

        def forward(self, graph):
            self.reset_data(graph)
            graph = self.data
            return self.lin(graph.x)
"""


def test_r1_parameter_handed_on_to_a_method_reading_it_as_another_object_is_no_tensor():
    assert_findings(H, HANDED_ON.format(handed="data", read="edge_index.sum()"), set())


def test_r1_handed_on_by_keyword_is_no_tensor():
    body = HANDED_ON.format(handed="data=data", read="edge_index.sum()")
    assert_findings(H, body, set())


def test_r1_twin_a_method_reading_it_only_as_a_tensor_keeps_the_warning():
    assert_findings(H, HANDED_ON.format(handed="data", read="float()"), {(8, "TP201"), (10, "TP201")})


def test_r1_twin_another_value_handed_on_says_nothing_of_the_parameter():
    body = HANDED_ON.format(handed="self.lin", read="edge_index.sum()").replace(
        "def preprocessing(self, data):", "def preprocessing(self, lin):\n            data = lin")
    assert_findings(H, body, {(8, "TP201"), (10, "TP201")})

