"""False findings left in the whole precision review after session 16 (benchmarks/review/false_finding_causes.md,
session 17), each as a regression snippet with a true twin.  Lines count from the snippet; warnings count
(assert_findings keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport extlib\n"

# Cause T (TorchRL `test_mappo.py:375`): the CPU tensor is made by the code that calls the module's method
# (a test's `vn.update(torch.randn(64, 1) * 3.0 + 2.0)`), not by the module: TP202 is about what the module's
# own code creates.  The test hands the module to a loss it cannot see, which may move it: it may be anywhere.
NORM = """\
    import torch.nn as nn


    class Norm(nn.Module):
        def __init__(self, device=None):
            super().__init__()
            self.register_buffer("mean", torch.zeros(1, device=device))

        def update(self, value):
            batch_mean = BATCH_MEAN
            self.mean.mul_(0.9).add_(batch_mean)


    class Owner(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = Norm()
            self.fc = nn.Linear(1, 1)

        def forward(self, x):
            self.norm.update(MADE_IN_FORWARD)
            return self.fc(x)


    def test_update():
        norm = Norm()
        loss = extlib.Loss(value_norm=norm)
        for _ in range(3):
            norm.update(torch.randn(64, 1) * 3.0 + 2.0)
        x = torch.randn(64, 1)
        norm.update(x)
"""

CASES = {
    "t_the_calling_test_made_the_tensor": (
        NORM.replace("BATCH_MEAN", "value.mean(0)").replace("MADE_IN_FORWARD", "x"), set()),
    # true twin: the method makes the CPU tensor itself
    "t_the_method_makes_the_tensor": (
        NORM.replace("BATCH_MEAN", "torch.randn(1)").replace("MADE_IN_FORWARD", "x"), {(10, "TP202")}),
    # true twin: a module's `forward` makes it and hands it to its submodule's method
    "t_a_module_method_made_the_tensor": (
        NORM.replace("BATCH_MEAN", "value.mean(0)").replace("MADE_IN_FORWARD", "torch.randn(4, 1)"),
        {(21, "TP202")}),
}

# DGL MAG240M `train_multi_gpus.py:307`: `torch.multiprocessing.spawn(train, ...)` returns when every worker has
# finished (`join=True`), so the checkpoint `train` saves exists, on this machine, when `test` loads it.
SPAWN = """\
    import torch.multiprocessing as mp
    import torch.nn as nn


    def train(rank, args):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 4).to(device)
        if rank == 0:
            torch.save(model.state_dict(), args.model_path)


    def test(args):
        model = nn.Linear(4, 4)
        model.load_state_dict(torch.load(args.model_path))


    if __name__ == "__main__":
        args = extlib.parse()
        mp.spawn(train, args=(args,), nprocs=2JOIN)
        test(args)
"""

CASES.update({
    "spawned_workers_wrote_the_checkpoint": (SPAWN.replace("JOIN", ""), set()),
    "spawned_workers_joined_explicitly": (SPAWN.replace("JOIN", ", join=True"), set()),
    # true twins: workers not waited for, a spawned function that writes nothing, an unknown `spawn`
    "spawned_workers_not_joined": (SPAWN.replace("JOIN", ", join=False"), {(14, "TP204")}),
    "spawned_function_writes_nothing": (
        SPAWN.replace("JOIN", "").replace("mp.spawn(train,", "mp.spawn(extlib.work,"), {(14, "TP204")}),
    "spawn_of_another_library": (SPAWN.replace("JOIN", "").replace("import torch.multiprocessing as mp", "import extlib as mp"),
                                 {(14, "TP204")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_review17_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
