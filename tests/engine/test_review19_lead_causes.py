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
    # true twins: the weight handed in is on the CPU, or the module makes its own weights (a CPU one meets the
    # input whatever the submodule built on the weight's device holds), or ignores it
    "l2_cpu_weight_kept": (HEAD.replace("KEEP", KEEP_BOTH).replace("WEIGHT", "nn.Linear(3, 4).weight"),
                           {(25, "TP102")}),
    "l2_own_cpu_weight_beside_a_linked_submodule": (HEAD.replace("KEEP", KEEP_TRIGGER).replace("WEIGHT", CUDA_WEIGHT),
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

# L4: a parameter registered only under `if flag:` (`if include_weight: self.weight = nn.Parameter(...)`) is
# not there when the call makes the flag false (`RMSNorm(dim, include_weight=False)`, or a false default):
# the instance holds no state and runs wherever its input is.
NORM = """\
    class Norm(nn.Module):
        def __init__(self, dim, FLAG, eps=1e-6):
            super().__init__()
            self.eps = eps
            REBIND
            if include_weight:
                self.weight = nn.Parameter(torch.ones(dim))
            else:
                self.weight = None

        def forward(self, x):
            out = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
            return out * self.weight if self.weight is not None else out


    def run():
        x = torch.rand(3, 8, device="cuda")
        layer = MAKE
        return layer(x)
"""


def _norm(flag="include_weight=True", make="Norm(8)", rebind="pass"):
    return NORM.replace("FLAG", flag).replace("MAKE", make).replace("REBIND", rebind)


CASES.update({
    "l4_flag_passed_false": (_norm(make="Norm(8, include_weight=False)"), set()),
    "l4_flag_passed_false_by_position": (_norm(make="Norm(8, False)"), set()),
    "l4_flag_false_by_default": (_norm(flag="include_weight=False"), set()),
    # true twins: the flag is true (by default or passed), or `__init__` rebinds it
    "l4_flag_true_by_default": (_norm(), {(19, "TP102")}),
    "l4_flag_passed_true": (_norm(make="Norm(8, include_weight=True)"), {(19, "TP102")}),
    "l4_flag_rebound": (_norm(make="Norm(8, include_weight=False)",
                              rebind="include_weight = include_weight or dim > 4"), {(19, "TP102")}),
})

# L5: `torch.device("cuda:0")` makes a device: the program's only device choice is that constant, so it has no
# CPU path (the `.device` of a tensor, read, is what makes code device-agnostic; the constructor was taken for it).
# A checkpoint loaded after `model.to(device)` there is only ever loaded on a machine with that GPU.
RESUME = """\
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("--netG", default="")
    opt = parser.parse_args()
    device = DEVICE
    netG = nn.Linear(4, 4).to(device)
    if opt.netG != "":
        netG.load_state_dict(torch.load(opt.netG))
"""

CASES.update({
    "l5_constructed_cuda_device_only": (RESUME.replace("DEVICE", 'torch.device("cuda:0")'), set()),
    # true twins: a CPU fallback, or a device read from data or options
    "l5_cuda_or_cpu": (RESUME.replace("DEVICE", 'torch.device("cuda:0" if torch.cuda.is_available() else "cpu")'),
                       {(9, "TP204")}),
    "l5_device_option": (RESUME.replace('parser.add_argument("--netG", default="")',
                                        'parser.add_argument("--netG", default="")\n'
                                        '    parser.add_argument("--device", default="cuda:0")').replace(
        "DEVICE", "torch.device(opt.device)"), {(10, "TP204")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_lead_review19_causes(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
