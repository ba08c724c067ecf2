"""False findings of the s17 fresh precision review (review17a's domains: NLP, speech, RL, recommenders,
time series, tabular, LLM, scientific ML; benchmarks/review/false_finding_causes.md, causes V1..), each as
a regression snippet with a true twin.  Lines count from the snippet; warnings count (assert_findings
keeps information and above).  PyTorch claims are truth rows run on a simulated GPU."""
import pytest

from .snippets import assert_findings, assert_truth_row

H = "import torch\nimport torch.nn as nn\n"

# V1: a factory's sizes never place its result.  `torch.rand(n, 4, device=d)` with `n =
# torch.randint(2, 9, size=(1,))` (a 1-D one-element CPU tensor: PyTorch reads an int argument through
# `__index__`) is on `d`; the table cannot bind a 1-D tensor where it wants an int, and the result was
# taken to follow that tensor, onto the CPU.
SIZED = """\
    def check(device):
        cell = nn.LSTMCell(4, 8).to(device)
        n = torch.randint(low=2, high=9, size=(1,))
        x = MADE
        return cell(x.detach().clone())


    check(torch.device("cuda", 0))
"""

CASES = {
    "v1_size_tensor_with_device": (SIZED.replace("MADE", "torch.rand(n, 4, device=device)"), set()),
    "v1_size_tensor_randint_high": (SIZED.replace("MADE", "torch.randint(0, n, (3, 4), device=device).float()"),
                                    set()),
    "v1_size_tensor_randperm": (SIZED.replace("MADE", "torch.randperm(n, device=device)[:3].float()[:, None].expand(3, 4)"),
                                set()),
    "v1_size_tensor_eye": (SIZED.replace("MADE", "torch.eye(n, 4, device=device)"), set()),
    # true twins: without device= the factory is on the default device (the CPU), whatever its size tensor
    "v1_size_tensor_without_device": (SIZED.replace("MADE", "torch.rand(n, 4)"), {(5, "TP102")}),
    "v1_size_tensor_randint_without_device": (SIZED.replace("MADE", "torch.randint(0, n, (3, 4)).float()"),
                                              {(5, "TP102")}),
}

# V7: a TorchScript-friendly placeholder (`self.table = torch.empty(0, 0)` in `__init__`) that a setup
# method replaces with a buffer (`del self.table; self.register_buffer("table", t)`) before `forward`
# reads it: `.to()` moves that buffer.
PLACEHOLDER = """\
    class Embed(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.emb = nn.Embedding(n, 4)
            self.table = torch.empty(0, 0)
            self.ready = False

        def prepare(self):
            t = torch.zeros(10, 4)
            REGISTERED
            self.ready = True

        def forward(self, z):
            if self.ready:
                return self.table[z] + self.emb(z)
            return self.emb(z)


    m = Embed(10).to("cuda")
    y = m(torch.arange(3, device="cuda"))
"""

CASES.update({
    "v7_placeholder_replaced_by_a_buffer": (PLACEHOLDER.replace("REGISTERED", 'del self.table\n            self.register_buffer("table", t)'), set()),
    # true twin: the method registers another name; `self.table` stays the plain CPU tensor
    "v7_another_name_registered": (PLACEHOLDER.replace("REGISTERED", 'self.register_buffer("cache", t)'), {(5, "TP203")}),
})

# V2: a plain attribute that is on the CPU only for the instances some calls make (the weights of the
# CPU LSTM a test hands the constructor) is evidence only where such an instance may leave the CPU: an
# instance built and never moved meets CPU inputs only.
PROJ = """\
    import torch.nn.functional as F


    class Proj(nn.Module):
        def __init__(self, lstm):
            super().__init__()
            state = lstm.state_dict()
            self.w_ih = state["weight_ih_l0"]

        def forward(self, x):
            return F.linear(x, self.w_ih)


    def test_proj():
        p = Proj(nn.LSTM(4, 8))MOVED
        return p(torch.rand(3, 4DEVICE))
"""

CASES.update({
    "v2_cpu_instance_of_a_context_attribute": (PROJ.replace("MOVED", "").replace("DEVICE", ""), set()),
    # true twin: the test moves the instance; `.to()` leaves the LSTM's CPU weights behind
    "v2_moved_instance_of_a_context_attribute": (
        PROJ.replace("MOVED", '.to("cuda")').replace("DEVICE", ', device="cuda"'), {(8, "TP203")}),
})

# V4: a program whose only device is one it pins to the CPU (`device = torch.device("cpu")`, an ONNX
# export script) puts nothing on a GPU: the name `device`, `device=device` and `.to(device)` are no
# accelerator there, so a module of the script gets no "fails once on a GPU" warning.
EXPORT = """\
    class Wrapper(nn.Module):
        def __init__(self, model, sos_id):
            super().__init__()
            self.model = model
            self.sos_id = sos_id

        def forward(self, x):
            sos = torch.full((1,), fill_value=self.sos_id, dtype=x.dtype).expand(x.size(0), 1)
            return self.model(torch.cat([sos, x], dim=1))


    def main(args):
        device = DEVICE
        model = nn.Embedding(10, 4, device=device)
        model.to(device)
        model.load_state_dict(torch.load(args.ckpt, map_location=device))
        model.to("cpu")
        torch.onnx.export(Wrapper(model, 1), (torch.zeros(1, 4, dtype=torch.int64),), "lm.onnx")


    if __name__ == "__main__":
        main(parse())
"""

CASES.update({
    "v4_program_pinned_to_the_cpu": (EXPORT.replace("DEVICE", 'torch.device("cpu")'), set()),
    # true twins: the program may pick a GPU
    "v4_program_may_pick_a_gpu": (
        EXPORT.replace("DEVICE", 'torch.device("cuda" if torch.cuda.is_available() else "cpu")'), {(8, "TP202")}),
    "v4_program_device_from_the_command_line": (EXPORT.replace("DEVICE", "args.device"), {(8, "TP202")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_review17a_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


TRUTH = [
    # a one-element 1-D integer tensor as a size: the result is on device=, not on the size tensor's device
    ("size-tensor-factory-on-device", "n = torch.tensor([3])\nx = torch.ones(3, 4, device='cuda')\n"
     "y = x + torch.rand(n, 4, device='cuda')\n", False, None),
    ("size-tensor-factory-default-cpu", "n = torch.tensor([3])\nx = torch.ones(3, 4, device='cuda')\n"
     "y = x + torch.rand(n, 4)\n", True, "TP101"),
    ("size-tensor-randint-on-device", "n = torch.tensor([3])\nx = torch.ones(3, device='cuda')\n"
     "y = x + torch.randint(0, n, (3,), device='cuda')\n", False, None),
    ("size-tensor-randint-default-cpu", "n = torch.tensor([3])\nx = torch.ones(3, device='cuda')\n"
     "y = x + torch.randint(0, n, (3,))\n", True, "TP101"),
    ("size-tensor-randperm-on-device", "n = torch.tensor([3])\nx = torch.ones(3, device='cuda')\n"
     "y = x + torch.randperm(n, device='cuda')\n", False, None),
    ("size-tensor-eye-on-device", "n = torch.tensor([3])\nx = torch.ones(3, 4, device='cuda')\n"
     "y = x + torch.eye(n, 4, device='cuda')\n", False, None),
    ("size-tensor-eye-default-cpu", "n = torch.tensor([3])\nx = torch.ones(3, 4, device='cuda')\n"
     "y = x + torch.eye(n, 4)\n", True, "TP101"),
]


@pytest.mark.parametrize("name,code,raises,expected", TRUTH, ids=[t[0] for t in TRUTH])
def test_review17a_truth(name, code, raises, expected):
    assert_truth_row(name, code, raises, expected)


@pytest.mark.parametrize("moved,raises", [(False, False), (True, True)])
def test_review17a_truth_plain_weights_of_a_handed_module(moved, raises):
    import textwrap

    from .fake_gpu import run_on_fake_gpu

    body = PROJ.replace("MOVED", '.to("cuda")' if moved else "").replace("DEVICE", ', device="cuda"' if moved else "")
    error = run_on_fake_gpu(H + textwrap.dedent(body) + "test_proj()\n")
    assert (error is not None) == raises, repr(error)
