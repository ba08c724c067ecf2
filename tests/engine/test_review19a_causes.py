"""False findings of the s19 fresh precision review (review19a's domains: NLP, speech, RL, recommenders,
time series, tabular, LLM, scientific ML; benchmarks/review/false_finding_causes.md, causes S1..), each as
a regression snippet with a true twin.  Lines count from the snippet; warnings count (assert_findings
keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nfrom transformers import AutoModelForCausalLM\n"

# S1: `from_pretrained` under a default device that is not the CPU (`with torch.device("cuda"):`, also
# beside `torch.autocast` in one `with`) does not load on the CPU: transformers makes the context's device
# the `device_map` (older versions build the layers there): the model's device is not known.
LOAD = """\
    def run(path):
        ids = torch.randint(0, 10, (2, 8))
        DEFAULT
            model = AutoModelForCausalLM.from_pretrained(path)
            return model(ids.cuda())
"""

CASES = {
    "s1_under_torch_device": (LOAD.replace("DEFAULT", 'with torch.device("cuda"):'), set()),
    "s1_under_torch_device_and_autocast": (
        LOAD.replace("DEFAULT", 'with torch.device("cuda"), torch.autocast(device_type="cuda"):'), set()),
    "s1_under_set_default_device": (
        LOAD.replace("DEFAULT", 'torch.set_default_device("cuda")\n        if path:'), set()),
    "s1_with_placing_kwarg_under_torch_device": (
        LOAD.replace("DEFAULT", 'with torch.device("cuda"):').replace("(path)", "(path, load_in_8bit=False)"), set()),
    # true twins: no default device (the CPU), or the CPU made the default
    "s1_no_default_device": (LOAD.replace("DEFAULT", "if path:"), {(5, "TP102")}),
    "s1_under_torch_device_cpu": (LOAD.replace("DEFAULT", 'with torch.device("cpu"):'), {(5, "TP102")}),
}


# S2: a nested function reads its enclosing call's variables (`def to(x): return x.to(device)` inside
# `make(n, device)`): two calls of it with the same arguments differ where that scope does, so what it made
# for an assumed-accelerator `device` is not reused where the caller passed "cpu".
CLOSURE = """\
    def make(n, device):
        a = torch.randn(n, 4)

        def to(x):
            return x.to(device)

        return to(a)


    def run():
        module = nn.Linear(4, 2)
        a = make(3, device=DEV)
        return module(a)
"""

CASES.update({
    "s2_closure_reads_the_callers_cpu_device": (CLOSURE.replace("DEV", '"cpu"'), set()),
    # true twin: the caller passes cuda, the module stays on the CPU
    "s2_closure_reads_the_callers_cuda_device": (CLOSURE.replace("DEV", '"cuda"'), {(13, "TP102")}),
})

# S3: a module whose class registers only a submodule built from a class handed to `__init__`
# (`nn.Sequential(*[layer(**kw)])`) holds what that class holds: nothing, for a parameter-free class.
WRAP = """\
    class MulX(nn.Module):
        def __init__(self, k=1):
            super().__init__()
            self.k = k

        def forward(self, x):
            return x * self.k


    class Scale(nn.Module):
        def __init__(self, k=1):
            super().__init__()
            self.w = nn.Parameter(torch.ones(1) * k)

        def forward(self, x):
            return x * self.w


    class Wrap(nn.Module):
        def __init__(self, layer, **kwargs):
            super().__init__()
            layers = []
            layers.append(layer(**kwargs))
            self.layers = nn.Sequential(*layers)

        def forward(self, x):
            return self.layers(x)


    def run(device):
        layer = Wrap(layer=CLS, k=2)
        return layer(torch.rand(3, 4, device=device))


    run(torch.device("cuda"))
"""

CASES.update({
    "s3_wrapped_parameter_free_class": (WRAP.replace("CLS", "MulX"), set()),
    # true twin: the class handed in holds a parameter, never moved
    "s3_wrapped_class_with_a_parameter": (WRAP.replace("CLS", "Scale"), {(32, "TP102")}),
})

# S4: a `device=None` handed to a helper the analysis cannot follow and bound again from it
# (`dtype, device = resolve(dtype, device)`) is that helper's choice for None (the default device), not
# a configured accelerator.
RESOLVE = """\
    from elsewhere import resolve_types


    def grid(n, DEVICE_PARAM, dtype=None):
        dtype, device = resolve_types(dtype, device)
        return torch.arange(n, dtype=dtype, device=device)


    def run(ARG):
        return grid(4, CALL).numpy()
"""

CASES.update({
    "s4_none_device_resolved_by_a_helper": (
        RESOLVE.replace("DEVICE_PARAM", "device=None").replace("ARG", "").replace(", CALL", ""), set()),
    # true twin: the device is a parameter the caller must pass (an assumed accelerator)
    "s4_device_parameter_resolved_by_a_helper": (
        RESOLVE.replace("DEVICE_PARAM", "device").replace("ARG", "device").replace("CALL", "device=device"),
        {(10, "TP104")}),
})

# S5: an nn layer's `device` handed by position (`nn.Linear(k, n, False, device, torch.half)`).
POSITIONAL = """\
    def bench(m, k, n, device):
        lin = torch.nn.Linear(k, n, False, DEV, torch.half)
        a = torch.randn((m, k), dtype=torch.half, device=device)
        return a @ lin.weight.T


    bench(2, 4, 4, torch.device("cuda"))
"""

CASES.update({
    "s5_linear_device_by_position": (POSITIONAL.replace("DEV", "device"), set()),
    # true twin: None at that position (the default device, the CPU)
    "s5_linear_none_by_position": (POSITIONAL.replace("DEV", "None"), {(4, "TP101")}),
})

# S6: CPU tensors the calling code made and handed to a module whose class overrides `to()` (which may move
# what it holds: `new._stats[key].to(device)`) are not "created inside" the module's method that meets them.
STATS = """\
    class Stats:
        def __init__(self, mean, std):
            self.mean = mean
            self.std = std

        def to(self, device):
            self.mean = self.mean.to(device)
            self.std = self.std.to(device)
            return self


    class Sim(nn.Module):
        def __init__(self, stats):
            super().__init__()
            self.lin = nn.Linear(3, 3)
            self._stats = stats
    OVERRIDE
        def decode(self, x):
            s = self._stats["acc"]
            return self.lin(x) * s.std + s.mean

        def rollout(self, x):
            return self.decode(x)


    def run(device):
        stats = {"acc": Stats(torch.DoubleTensor([0.0, 0.0, 0.0]), torch.DoubleTensor([1.0, 1.0, 1.0]))}
        model = Sim(stats)
        model.to(device)
        return model.rollout(torch.randn(2, 3, device=device))


    run(torch.device("cuda"))
"""
TO_OVERRIDE = """
        def to(self, device):
            new = super().to(device)
            for key in self._stats:
                new._stats[key].to(device)
            return new
"""

CASES.update({
    "s6_stats_moved_by_the_modules_to": (STATS.replace("    OVERRIDE\n", TO_OVERRIDE), set()),
    # true twin: no override of `to()`: the stats stay on the CPU
    "s6_stats_without_an_override": (STATS.replace("    OVERRIDE\n", ""), {(26, "TP202")}),
})

# S7: a program that moves its model to a fixed CUDA device (`device = torch.device("cuda:0")`,
# `model.to(device)`) or loads inside `for i in range(torch.cuda.device_count())` runs only with a CUDA GPU:
# `torch.load` without `map_location` there is no CPU machine's failure.
FIXED = """\
    import sys

    path = sys.argv[1]
    device = DEVICE
    model = nn.Linear(4, 4)
    model.load_state_dict(torch.load(path))
    model = model.to(device)
"""
LOOP = """\
    import sys

    device = "cuda" if torch.cuda.is_available() else "cpu"
    models = {}
    ngpu = COUNT
    for rank in range(ngpu):
        m = nn.Linear(4, 4)
        m.load_state_dict(torch.load(sys.argv[1]))
        m.to(device=rank)
        models[rank] = m
    x = torch.zeros(2, 4, device=device)
"""

CASES.update({
    "s7_fixed_cuda_device_after_the_load": (FIXED.replace("DEVICE", 'torch.device("cuda:0")'), set()),
    "s7_fixed_cuda_string_after_the_load": (FIXED.replace("DEVICE", '"cuda"'), set()),
    "s7_load_in_a_loop_over_cuda_devices": (LOOP.replace("COUNT", "torch.cuda.device_count()"), set()),
    # true twins: a device with a CPU fallback; a loop over a number that is not the GPU count
    "s7_device_with_a_cpu_path": (
        FIXED.replace("DEVICE", '"cuda" if torch.cuda.is_available() else "cpu"'), {(6, "TP204")}),
    "s7_load_in_a_loop_over_a_number": (LOOP.replace("COUNT", "int(sys.argv[2])"), {(8, "TP204")}),
})

@pytest.mark.parametrize("name", sorted(CASES))
def test_review19a_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
