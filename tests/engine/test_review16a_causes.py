"""False findings of the s16 fresh precision review of 13 repositories, review16a's domain
(benchmarks/review/false_finding_causes.md, causes X1 to X5), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport extlib\n"

# X1: a device-named variable bound to a call of a project function or method whose every `return`
# reads a tensor's own device is that tensor's device, not the program's configured accelerator, even
# where the analysis does not know which tensor (here: one a library function returned).
METHOD = """\
    class Search:
        def device_of(self, enc):
            if isinstance(enc, tuple):
                dev = enc[0].device
            else:
                dev = DEVICE_OF_TUPLE
            return dev

        def start(self, enc, device=None):
            enc = extlib.tile(enc, 3)
            if device is None:
                device = self.device_of(enc)
            self.scores = torch.zeros(4, device=device)


    def run():
        s = Search()
        s.start(torch.zeros(1, 1))
        return torch.ones(4) + s.scores
"""

FUNCTION = """\
    def device_of(x):
        return RETURNED


    def make(x, device=None):
        if device is None:
            device = device_of(extlib.tile(x, 3))
        return torch.zeros(4, device=device)


    def run():
        return torch.ones(4) + make(torch.zeros(1))
"""

CASES = {
    # every binding of the returned local reads a tensor's device
    "x1_method_returns_a_tensor_device": (METHOD.replace("DEVICE_OF_TUPLE", "enc.device"), set()),
    # true twin: one path gives a configuration value (unknown), so `device` is still the target
    "x1_method_may_return_a_setting": (METHOD.replace("DEVICE_OF_TUPLE", "extlib.settings()"), {(19, "TP101")}),
    "x1_function_returns_a_tensor_device": (FUNCTION.replace("RETURNED", "x.device"), set()),
    # true twin (as mmgen's `get_module_device`, a corpus case): one return makes a device
    # (`torch.device("cpu")`) rather than reading a tensor's, so `device` stays the program's target
    "x1_function_may_return_a_made_device": (
        FUNCTION.replace("return RETURNED", "if x.is_cuda:\n            return x.get_device()\n        return torch.device(\"cpu\")"),
        {(14, "TP101")}),
    # true twin: a parameter returned as it came (the caller's choice) is not a tensor's device
    "x1_function_returns_its_parameter": (
        FUNCTION.replace("def device_of(x):", "def device_of(x, d=extlib.settings()):")
        .replace("return RETURNED", "if d is None:\n            d = x.device\n        return d"), {(14, "TP101")}),
}

# X3: TP202 is about tensors the module's own code creates.  A tensor the caller made and passed to a
# method (a test's `torch.randn` reaching `scaler.transform(data)`) is the caller's placement, here of
# a module whose device the analysis does not know (`if cfg.cuda: self.cuda()`).
WORLD = """\
    import torch.nn as nn


    class Scaler(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.register_buffer("mu", torch.zeros(1, n))

        def transform(self, data):
            return TRANSFORMED - self.mu


    class World(nn.Module):
        def __init__(self, cfg):
            super().__init__()
            self.scaler = Scaler(4)
            self.fc = nn.Linear(4, 4)
            if cfg.cuda:
                self.cuda()

        def step(self, x):
            return self.fc(self.scaler.transform(x))


    def test_step(cfg):
        world = World(cfg)
        x = torch.randn(8, 4)
        return world.step(x)
"""

CASES.update({
    "x3_the_caller_made_the_tensor": (WORLD.replace("TRANSFORMED", "data"), set()),
    # true twin: the method makes the CPU tensor itself
    "x3_the_method_makes_the_tensor": (WORLD.replace("TRANSFORMED", "torch.randn(data.shape)"), {(10, "TP202")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_review16a_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
