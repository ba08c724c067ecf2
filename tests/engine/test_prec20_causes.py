"""False findings of session 20's precision work (benchmarks/review/false_finding_causes.md, "Session 20"),
each as a regression snippet with a true twin; the snippets run on the fake GPU too (PyTorch raises exactly
where findings are expected)."""
from .snippets import case_tests

H = "import torch\nimport torch.nn as nn\n"

# R6 (PhysicsNeMo HEALPixLayer): a wrapper pads the layer class it is handed only when that class is a
# convolution (`layer.__bases__[0] is nn.modules.conv._ConvNd`, `issubclass(layer, ...)`); a class of the
# project whose one base is `nn.Module` never is, so the padding (here of a class the analysis cannot
# read) is not built for it, and the parameter-free layer runs where its input is.
WRAP = """\
    Pad = type("Pad", (nn.Identity,), {})


    class MulX(nn.Module):
        def __init__(self, k=1):
            super().__init__()
            self.k = k

        def forward(self, x):
            return x * self.k


    class MulW(nn.Module):
        def __init__(self, k=1):
            super().__init__()
            self.w = nn.Parameter(torch.ones(1) * k)

        def forward(self, x):
            return x * self.w


    class Wrap(nn.Module):
        def __init__(self, layer, **kwargs):
            super().__init__()
            layers = []
            if TEST:
                layers.append(Pad())
            layers.append(layer(**kwargs))
            self.layers = nn.Sequential(*layers)

        def forward(self, x):
            return self.layers(x)


    def run(device):
        layer = Wrap(layer=CLS)
        return layer(torch.rand(3, 4, 5, 5, device=device))


    run(torch.device("cuda"))
"""
BASES = "layer.__bases__[0] is nn.modules.conv._ConvNd"
SUB = "issubclass(layer, nn.modules.conv._ConvNd)"
TORCH = "nn.Linear, in_features=5, out_features=5"


def _wrap(test: str, cls: str) -> str:
    return WRAP.replace("TEST", test).replace("CLS", cls)


CASES = {
    "r6_bases_of_a_parameter_free_class": (_wrap(BASES, "MulX, k=2"), set()),
    "r6_issubclass_of_a_parameter_free_class": (_wrap(SUB, "MulX, k=2"), set()),
    "r6_bases_is_not_module": (_wrap("layer.__bases__[0] is not nn.Module", "MulX, k=2"), set()),
    # true twins: a torch layer handed in (the test is not decided for torch's classes), a project class
    # holding a parameter (the branch is decided, the layer's weight stays on the CPU)
    "r6_bases_of_a_torch_layer": (_wrap(BASES, TORCH), {(37, "TP102")}),
    "r6_issubclass_of_a_torch_layer": (_wrap(SUB, TORCH), {(37, "TP102")}),
    "r6_bases_of_a_class_with_a_parameter": (_wrap(BASES, "MulW, k=2"), {(37, "TP102")}),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)

