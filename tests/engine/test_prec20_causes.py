"""False findings of session 20's precision work (benchmarks/review/false_finding_causes.md, "Session 20"),
each as a regression snippet with a true twin; the snippets run on the fake GPU too (PyTorch raises exactly
where findings are expected)."""
import pytest

from .snippets import assert_findings, case_tests

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


# R7 (torchao `test_nf4_tensor.py`, apex `test_dist_adam.py`): a `torch.load` of an in-memory stream this
# run filled with `torch.save`: one a helper of the file (a function, or a method of the test class)
# makes with `io.BytesIO()`, saves into and returns, or `io.BytesIO(data)` over the bytes `getvalue()`
# took from such a stream (also through a list handed round by `broadcast_object_list`).  An empty
# stream holds only what this run wrote, on this machine.  Twins: bytes the function was handed, a
# stream a helper makes from bytes it was handed, a name also bound to bytes read from a file.
STREAM = """\
    import io

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


    def to_buffer(state):
        buffer = io.BytesIO()
        torch.save(state, buffer)
        buffer.seek(0)
        return buffer


    def from_bytes(data):
        return io.BytesIO(data)


    class TestLoad:
        def save_to_buffer(self, state):
            buffer = io.BytesIO()
            torch.save(state, buffer)
            buffer.seek(0)
            return buffer

        def test_load(self, data, path, rank):
            model = nn.Linear(2, 2).to(device)
            BODY
"""
STREAM_BODIES = {
    "r7_stream_of_a_method_of_the_test_class": (
        "saved = self.save_to_buffer(model.state_dict())\n"
        "model.load_state_dict(torch.load(saved))", set()),
    "r7_stream_of_a_function_of_the_file": (
        "saved = to_buffer(model.state_dict())\n"
        "model.load_state_dict(torch.load(saved))", set()),
    "r7_bytes_of_a_saved_stream_broadcast": (
        "state = None\n"
        "if rank == 0:\n"
        "    stream = io.BytesIO()\n"
        "    torch.save(model.state_dict(), stream)\n"
        "    state = stream.getvalue()\n"
        "state = [state]\n"
        "torch.distributed.broadcast_object_list(state, src=0)\n"
        "state = state[0]\n"
        "model.load_state_dict(torch.load(io.BytesIO(state)))", set()),
    # true twins
    "r7_bytes_handed_in": ("model.load_state_dict(torch.load(io.BytesIO(data)))", {(26, "TP204")}),
    "r7_stream_of_bytes_handed_in": ("model.load_state_dict(torch.load(from_bytes(data)))", {(26, "TP204")}),
    "r7_bytes_also_read_from_a_file": (
        "stream = io.BytesIO()\n"
        "torch.save(model.state_dict(), stream)\n"
        "data = stream.getvalue()\n"
        "if rank:\n"
        "    data = open(path, 'rb').read()\n"
        "model.load_state_dict(torch.load(io.BytesIO(data)))", {(31, "TP204")}),
}


@pytest.mark.parametrize("name", sorted(STREAM_BODIES))
def test_prec20_byte_streams(name):
    body, expected = STREAM_BODIES[name]
    assert_findings(H, STREAM.replace("BODY", body.replace("\n", "\n" + " " * 12)), expected)


# R8 (CLAM `utils/core_utils.py`): the loop of the loader calls a function of the file, which calls an
# early-stopping object the loader built (its `__call__`), which hands the path on to a method that does
# `torch.save`; with each callee's parameters replaced by what its caller passed, the saved path is the
# loaded one: the file may be this run's.  Twins: the chain saves another name, the object handed down
# is of a class that saves nothing, the call comes after the load.
CHAIN = """\
    import os

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


    class Stopper:
        def __init__(self, patience=20):
            self.patience = patience

        def __call__(self, loss, model, ckpt_name="checkpoint.pt"):
            self.save_checkpoint(model, ckpt_name)

        def save_checkpoint(self, model, ckpt_name):
            torch.save(model.state_dict(), ckpt_name)


    class Quiet:
        def __call__(self, loss, model, ckpt_name="checkpoint.pt"):
            return loss


    def validate(cur, model, stopper, results_dir):
        loss = 0.0
        stopper(loss, model, ckpt_name=os.path.join(results_dir, "s_{}_SAVED.pt".format(cur)))


    def train(cur, args):
        model = nn.Linear(2, 2).to(device)
        stopper = KIND(patience=20)
        BEFORE
        model.load_state_dict(torch.load(os.path.join(args.results_dir, "s_{}_checkpoint.pt".format(cur))))
        AFTER
"""
LOOP = "for epoch in range(args.max_epochs):\n            validate(cur, model, stopper, args.results_dir)"


def _chain(kind: str = "Stopper", saved: str = "checkpoint", before: str = LOOP, after: str = "pass") -> str:
    return CHAIN.replace("KIND", kind).replace("SAVED", saved).replace("BEFORE", before).replace("AFTER", after)


CHAIN_CASES = {
    "r8_saved_through_an_object_and_its_method": (_chain(), set()),
    # true twins
    "r8_the_chain_saves_another_name": (_chain(saved="best"), {(32, "TP204")}),
    "r8_the_object_saves_nothing": (_chain(kind="Quiet"), {(32, "TP204")}),
    "r8_the_chain_runs_after_the_load": (_chain(before="pass", after=LOOP), {(31, "TP204")}),
}


@pytest.mark.parametrize("name", sorted(CHAIN_CASES))
def test_prec20_callee_chain(name):
    body, expected = CHAIN_CASES[name]
    assert_findings(H, body, expected)
