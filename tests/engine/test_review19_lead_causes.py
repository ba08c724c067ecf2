"""False findings of the s19 lead's fresh precision review (opacus, fairscale, tnt;
benchmarks/review/false_finding_causes.md, causes L2..), each as a regression snippet with a true twin.
Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
import pytest

from .snippets import assert_findings

# L2: a module whose `__init__` keeps a weight it is handed (`self.proj_weight = weight`: assigning an
# nn.Parameter registers it) or builds a submodule whose parameter is made on that weight's device
# (`nn.Parameter(torch.rand(1, device=weight.device))`) lives where the weight is, not on the CPU.
H = "import torch\nimport torch.nn as nn\n"
HEAD = """\
    class Trigger(nn.Module):
        def __init__(self, linked):
            super().__init__()
            self.trigger = nn.Parameter(torch.rand(1, dtype=linked.dtype, device=linked.device))

        def forward(self):
            return self.trigger


    class Head(nn.Module):
        def __init__(self, weight, scale=1.0):
            super().__init__()
            KEEP
            self.scale = scale

        def forward(self, x):
            return torch.matmul(x, self.proj.t()) * self.trigger()


    def run():
        weight = WEIGHT
        x = torch.rand(5, 3, device="cuda")
        k = Head(weight)
        return k(x)
"""
KEEP_BOTH = "self.proj = weight\n            self.trigger = Trigger(self.proj)"
KEEP_TRIGGER = "self.proj = nn.Parameter(torch.rand(4, 3))\n            self.trigger = Trigger(weight)"
KEEP_OWN = "self.proj = nn.Parameter(torch.rand(4, 3))\n            self.trigger = Trigger(self.proj)"
CUDA_WEIGHT = "nn.Linear(3, 4).cuda().weight"

CASES = {
    "l2_weight_kept_and_linked": (HEAD.replace("KEEP", KEEP_BOTH).replace("WEIGHT", CUDA_WEIGHT), set()),
    "l2_submodule_made_on_weight_device": (HEAD.replace("KEEP", KEEP_TRIGGER).replace("WEIGHT", CUDA_WEIGHT), set()),
    # true twins: the weight handed in is on the CPU, or the module makes its own weights and ignores it
    "l2_cpu_weight_kept": (HEAD.replace("KEEP", KEEP_BOTH).replace("WEIGHT", "nn.Linear(3, 4).weight"),
                           {(25, "TP102")}),
    "l2_own_weights_only": (HEAD.replace("KEEP", KEEP_OWN).replace("WEIGHT", CUDA_WEIGHT).replace(
        "k = Head(weight)", "k = Head(None)"), {(25, "TP102")}),
}

# L3: a callable the analysis cannot see (a test's parameter, `pipe_class`) handed a module returns what may
# be a wrapper of it that moves its inputs to the module's device itself (DataParallel, a pipeline): calling
# the moved result with a CPU tensor is not proven to raise.
WRAP = """\
    class Identity(nn.Module):
        def forward(self, x):
            return x


    def run(pipe_class, make):
        model = nn.Sequential(Identity(), nn.Linear(42, 2))
        model = MAKE.cuda()
        x = torch.rand(42)
        return model(x)
"""

CASES.update({
    "l3_unknown_wrapper_of_a_module": (WRAP.replace("MAKE", "pipe_class(model, [1, 1], chunks=2)"), set()),
    "l3_unknown_wrapper_by_keyword": (WRAP.replace("MAKE", "pipe_class(module=model)"), set()),
    # true twin: an unknown factory handed no module makes the model itself
    "l3_unknown_factory": (WRAP.replace("MAKE", "make(42, 2)"), {(10, "TP102")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_lead_review19_causes(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
