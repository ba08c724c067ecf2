"""A module container built empty and filled in `__init__` (`self.experts = nn.ModuleList()`, then
`expert = MLP(...)` and `self.experts.append(expert)` in a loop) holds parameters only if what is put
in it does.  Megatron-LM's `SequentialMLP` fills one with `MLP`s whose layers come from classes a
spec object carries (they make their weights on the current CUDA device): the analysis sees no state
in them, so the model is not "never moved off the CPU" (review16a cause X2).  Anything the scan cannot
read keeps the container holding state: an unknown element, another method filling it, an index."""
from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"
EXPERTS = """\
    class MLP(nn.Module):
        def __init__(self, submodules, size):
            super().__init__()
            self.fc1 = submodules.linear_fc1(size, size)

        def forward(self, x):
            return self.fc1(x)


    class Experts(nn.Module):
        def __init__(self, n, spec):
            super().__init__()
            self.experts = nn.ModuleList()
            for _ in range(n):
                expert = {expert}
                self.experts.append(expert)
    {more}
        def forward(self, x):
            return self.experts[0](x)


    def run(spec):
        model = Experts(2, spec)
        x = torch.rand(2, 4, device="cuda")
        return model(x)
    """


def test_a_container_filled_with_modules_that_hold_nothing_seen_is_not_on_the_cpu():
    assert_findings(H, EXPERTS.format(expert="MLP(spec.submodules, 4)", more=""), set())


def test_a_container_filled_with_layers_with_weights_is_on_the_cpu():
    assert_findings(H, EXPERTS.format(expert="nn.Linear(4, 4)", more=""), {(25, "TP102")})


def test_an_element_the_analysis_cannot_read_counts_as_holding_weights():
    assert_findings(H, EXPERTS.format(expert="make_expert(spec)", more=""), {(25, "TP102")})


def test_a_container_another_method_fills_counts_as_holding_weights():
    more = """
        def grow(self):
            self.experts.append(nn.Linear(4, 4))
    """
    assert_findings(H, EXPERTS.format(expert="MLP(spec.submodules, 4)", more=more), {(28, "TP102")})


def test_a_container_extended_with_a_layer_list_holds_weights():
    body = EXPERTS.format(expert="MLP(spec.submodules, 4)", more="").replace(
        "self.experts.append(expert)", "self.experts.extend([expert, nn.Linear(4, 4)])")
    assert_findings(H, body, {(25, "TP102")})
