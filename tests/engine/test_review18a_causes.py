"""False findings of the s18 fresh precision review (review18a's domains: NLP, speech, RL, recommenders,
time series, tabular, LLM, scientific ML; benchmarks/review/false_finding_causes.md, causes U1..), each as
a regression snippet with a true twin.  Lines count from the snippet; warnings count (assert_findings
keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

# U1: `.to()` of a wrapper moves the module it wraps in place (`DataParallel(m).to(d)` moves m's
# parameters), also where the wrapper took the module's name on one branch (`if gpus: self.model =
# DataParallel(self.model)`) and the join of the two was moved: the caller's module is no longer on the CPU.
TRAINER = """\
    class Trainer:
        def __init__(self, model, device, gpus):
            self.model = model
            if gpus:
                self.model = WRAP
            MOVE


    def main(device, gpus):
        model = nn.Linear(4, 2)
        trainer = Trainer(model, device, gpus)
        return model(torch.zeros(3, 4, device=device))


    main("cuda", [0, 1])
"""
DP = "nn.DataParallel(self.model, device_ids=gpus)"

CASES = {
    "u1_wrapper_on_one_branch_moved": (TRAINER.replace("WRAP", DP).replace("MOVE", "self.model.to(device)"), set()),
    "u1_rebound_wrapper_moved": (
        TRAINER.replace("WRAP", DP).replace("MOVE", "self.model = nn.DataParallel(self.model)\n"
                                            "            self.model.to(device)"), set()),
    # true twins: nothing moves the wrapper (or the module)
    "u1_wrapper_on_one_branch_not_moved": (TRAINER.replace("WRAP", DP).replace("MOVE", "self.device = device"),
                                           {(12, "TP102")}),
    "u1_rebound_wrapper_not_moved": (
        TRAINER.replace("WRAP", DP).replace("MOVE", "self.model = nn.DataParallel(self.model)"), {(12, "TP102")}),
}

# U2: a name unpacked from a comprehension of tensors' devices (`(device,) = tuple(set(x.device for x in
# xs))`) is one of those tensors' devices, not a configured accelerator: a buffer made there holds CPU
# samples when the samples are CPU tensors.
COLLATE = """\
    def collate(samples):
        DEVICE
        result = torch.empty(len(samples), 4, device=device)
        t = samples[0]
        result[0][tuple(slice(0, k) for k in t.shape)] = t
        return result


    def main(seqs):
        out = []
        for s in seqs:
            out.append(torch.tensor([1, 2]))
        return collate(out)
"""

CASES.update({
    "u2_unpacked_set_of_devices": (COLLATE.replace("DEVICE", "(device,) = tuple(set(x.device for x in samples))"), set()),
    "u2_unpacked_set_comprehension": (COLLATE.replace("DEVICE", "(device,) = {x.device for x in samples}"), set()),
    # true twin: the device comes from the configuration (a parameter named `device` nobody passes)
    "u2_unpacked_configured_device": (
        COLLATE.replace("def collate(samples):", "def collate(samples, devices):")
        .replace("DEVICE", "(device,) = tuple(set(d for d in devices))").replace("collate(out)", 'collate(out, ["cuda"])'),
        {(5, "TP101")}),
})

# U3: a module made inside a `with` of a context manager handed a device (`with init_on_device(device=
# torch.device("cuda")):`, which patches `nn.Module.register_parameter` to put parameters there) is not
# known to be on the CPU.
MANAGER = """\
    from contextlib import contextmanager


    @contextmanager
    def init_on(device):
        old = nn.Module.register_parameter

        def register(module, name, param):
            old(module, name, param)
            if param is not None:
                param.data = param.data.to(device)

        nn.Module.register_parameter = register
        try:
            yield
        finally:
            nn.Module.register_parameter = old


    def test_mlp():
        x = torch.randn(3, 4, device="cuda")
        with init_on(ARG):
            mlp = nn.Linear(4, 4)
        return mlp(x)
"""

CASES.update({
    "u3_manager_handed_a_device": (MANAGER.replace("ARG", 'device=torch.device("cuda")'), set()),
    "u3_manager_handed_a_device_name": (MANAGER.replace("ARG", "dev").replace(
        '        x = torch.randn(3, 4, device="cuda")', '        dev = torch.device("cuda")\n'
        '        x = torch.randn(3, 4, device=dev)'), set()),
    # true twins: the manager is handed no device; torch's own `torch.cuda.device(0)` places nothing
    "u3_manager_handed_no_device": (MANAGER.replace("ARG", "None"), {(24, "TP102")}),
    "u3_torch_cuda_device_index": (MANAGER.replace("init_on(ARG)", "torch.cuda.device(0)"), {(24, "TP102")}),
})

# U4: FSDP2's `fully_shard(model, mesh=...)` moves the module's parameters and buffers in place to the
# mesh's device (torch 2.13 `_fsdp_init._move_states_to_device`), as `parallelize_module` and
# `distribute_module` make them DTensors on the mesh: afterwards the module's device is not known.
SHARD = """\
    from torch.distributed.fsdp import fully_shard
    from torch.distributed.tensor.parallel import parallelize_module


    def run(mesh, plan):
        inputs = torch.randn(8, 8, device="cuda")
        model = nn.Linear(8, 8)
        SHARD
        return model(inputs)
"""

CASES.update({
    "u4_fully_shard": (SHARD.replace("SHARD", "fully_shard(model, mesh=mesh)"), set()),
    "u4_parallelize_module": (SHARD.replace("SHARD", "parallelize_module(model, mesh, plan)"), set()),
    # true twin: a torch.distributed call that places nothing
    "u4_barrier_moves_nothing": (SHARD.replace("SHARD", "torch.distributed.barrier()"), {(9, "TP102")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_review18a_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
