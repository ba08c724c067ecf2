"""A CUDA device whose index the program chooses at run time, against one of known index.

`f"cuda:{args.gpu_id}"`, `"cuda:" + str(gpu)`, `torch.device("cuda", local_rank)` and `.cuda(gpu)` (gpu a
number) are cuda:<i> with i chosen at run time; `.cuda()`, `"cuda"` and `torch.device("cuda")` are the
current device, which is cuda:0 where the program never calls `torch.cuda.set_device`.  An op combining
the two raises whenever i is not 0 (the first table runs that under a fake GPU for i = 0 and i = 1), so
the engine reports a TP101 *warning* that names the condition: it cannot know i, but the program offers
it (`--gpu_id 1`), and the code is wrong for every i but one.

A name bound on one path only (`for n, p in model.named_parameters(): if ...: W = p`) keeps that
binding where the paths meet: a read on the path that did not bind it raises NameError or
UnboundLocalError, so every read that runs sees the binding (a `global` or `nonlocal` name sees the
enclosing scope's instead).

A subclass of torch's `Dataset` binds only what its own methods bind (the base binds nothing), so an
attribute `__init__` binds in one branch is what `__getitem__` reads.  `model = self.train()` is the
module itself (nn.Module.train/eval return self).

`types.SimpleNamespace(...)` / `argparse.Namespace(...)` made with keyword arguments holds exactly
those: a test that passes `SimpleNamespace(device="cpu")` runs its callee on the CPU (the callee's
`torch.device(args.device)` is otherwise taken as the accelerator the program targets).
"""
import pytest

from torchplace_rules import Severity, check_source

from .fake_gpu import run_on_fake_gpu
from .snippets import assert_findings, assert_truth_row

H = "import torch\nimport torch.nn as nn\n"

MIXED = """\
gpu = {index}
device = torch.device("cuda:" + str(gpu) if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 4).to(device)
y = model(torch.ones(2, 4).to(device))
z = y - torch.ones(2, 4).cuda()
"""


@pytest.mark.parametrize("index", [0, 1])
def test_pytorch_raises_whenever_the_index_is_not_the_current_device(index):
    error = run_on_fake_gpu(H + MIXED.format(index=index))
    assert (error is not None) == (index != 0), repr(error)


def test_engine_warns_with_the_condition():
    findings = [f for f in check_source(H + MIXED.format(index="int(input())"), "t.py") if f.code == "TP101"]
    assert [(f.span.start_line - 1, f.severity) for f in findings] == [(5, Severity.WARNING)]
    assert "whenever that index is not 0" in findings[0].message
    assert findings[0].fix is not None and findings[0].fix.edits[0].new_text == "torch.ones(2, 4).to(device)"


# `int(x)` / `float(x)` are numbers: `torch.tensor(float(x))` is a 0-dim CPU tensor, which masked_fill
# takes as its value on a CUDA tensor; `.cuda(int(x))` is cuda:<x>
NUMBERS = [
    ("masked-fill-with-a-0-dim-value-from-float", "val = torch.randn(5, device='cuda')\n"
     "y = val.masked_fill(val > 0, torch.tensor(float('inf')))\n", False, None),
    ("dot-cuda-of-int-against-cuda-1", "y = torch.ones(2).cuda(int('0')) + torch.ones(2, device='cuda:1')\n", True, "TP101"),
]


@pytest.mark.parametrize("name,code,raises,expected", NUMBERS, ids=[t[0] for t in NUMBERS])
def test_numbers_from_int_and_float(name, code, raises, expected):
    assert_truth_row(name, code, raises, expected)


CASES = {
    # -- cuda:<i> against the current device: a warning --------------------------------------
    "string-concatenation-against-dot-cuda": ("""\
        def run(gpu_id, x):
            device = torch.device("cuda:" + str(gpu_id))
            return x.to(device) + torch.ones(2).cuda()
        """, {(3, "TP101"), (3, "TP301")}),
    "torch-device-with-a-run-time-index": ("""\
        def run(local_rank):
            dev = torch.device("cuda", local_rank)
            return torch.ones(2, device=dev) + torch.zeros(2, device="cuda")
        """, {(3, "TP101")}),
    "dot-cuda-of-a-number-against-a-literal-index": ("""\
        gpu = int(input())
        y = torch.ones(2).cuda(gpu) + torch.zeros(2, device="cuda:1")
        """, {(2, "TP101")}),
    # -- quiet ---------------------------------------------------------------------------------
    "set-device-picks-the-current-device": ("""\
        def run(gpu_id, x):
            torch.cuda.set_device(gpu_id)
            device = torch.device("cuda:" + str(gpu_id))
            return x.to(device) + torch.ones(2, device="cuda")
        """, set()),
    "both-on-the-run-time-device": ("""\
        def run(gpu_id, x):
            device = f"cuda:{gpu_id}"
            return x.to(device) + torch.ones(2, device=device)
        """, set()),
    # `.cuda(args.gpu)` is not the current device (it was taken as cuda:0: a false error against cuda:1)
    "dot-cuda-of-an-unknown-index-is-some-accelerator": ("""\
        def run(args):
            return torch.ones(2).cuda(args.gpu) + torch.zeros(2, device="cuda:1")
        """, {(2, "TP301")}),
    # -- names bound on one path only ------------------------------------------------------------
    "parameter-picked-in-a-loop": ("""\
        model = nn.Linear(4, 4).to("cuda")
        for n, p in model.named_parameters():
            if "weight" in n:
                W = p
        z = W - torch.ones(4, 4)
        """, {(5, "TP101")}),
    "bound-in-one-branch": ("""\
        def f(flag):
            if flag:
                x = torch.zeros(4)
            return x + torch.ones(4, device="cuda")
        """, {(4, "TP101")}),
    "global-keeps-the-module-binding": ("""\
        W = torch.ones(4, device="cuda")
        def f(flag):
            global W
            if flag:
                W = torch.zeros(4)
            return W + torch.ones(4, device="cuda")
        """, set()),
    "nonlocal-keeps-the-enclosing-binding": ("""\
        def outer(flag):
            W = torch.ones(4, device="cuda")
            def inner():
                nonlocal W
                if flag:
                    W = torch.zeros(4)
                return W + torch.ones(4, device="cuda")
            return inner()
        """, set()),
    # -- a namespace made with keyword arguments holds exactly those (a test's stand-in for `args`) --
    "namespace-device-from-the-caller": ("""\
        from types import SimpleNamespace
        def evaluate(classifier, x, args):
            device = torch.device(args.device)
            return x.to(device) @ classifier
        evaluate(torch.eye(2), torch.ones(2, 2), SimpleNamespace(device="cpu", rank=0))
        """, set()),
    "namespace-device-cuda-from-the-caller": ("""\
        import argparse
        def evaluate(classifier, x, args):
            device = torch.device(args.device)
            return x.to(device) @ classifier
        evaluate(torch.eye(2), torch.ones(2, 2), argparse.Namespace(device="cuda"))
        """, {(4, "TP101")}),
    # -- nn.Module.train()/eval() return the module itself ------------------------------------------
    "train-returns-the-module": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 2)

            def forward(self, x):
                return self.lin(x)

            def fit(self):
                model = self.train()
                return model(torch.zeros(3, 4))

        net = Net().to("cuda")
        net.fit()
        """, {(11, "TP202")}),
    # -- torch's Dataset base binds no instance attribute: `__init__`'s branch is what `__getitem__` sees --
    "dataset-attributes-bound-in-an-init-branch": ("""\
        from torch.utils.data import Dataset, DataLoader

        class Rays(Dataset):
            def __init__(self, kind="train", device="cuda"):
                if kind == "train":
                    self.projs = torch.ones(4, 8, device=device)
                    self.coords = torch.zeros(8, 2)

            def __len__(self):
                return 4

            def __getitem__(self, index):
                valid = (self.projs[index] > 0).flatten()
                return self.coords[valid]

        for batch in DataLoader(Rays(), batch_size=1):
            print(batch)
        """, {(14, "TP101")}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_runtime_index_and_one_path_names(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


# NumPy's makers take `dtype` by position too: `np.ones(n, np.float32)` is float32, not float64 (TP302)
NUMPY_POSITIONAL = [("np.ones(4, np.float32)", False), ("np.zeros(4, int)", False),
                    ("np.full((2, 2), 1.0, np.float32)", False), ("np.array([1.0], 'float32')", False),
                    ("np.ones(4)", True), ("np.empty(3, np.float64)", True)]


@pytest.mark.parametrize("expr,float64", NUMPY_POSITIONAL, ids=[e for e, _ in NUMPY_POSITIONAL])
def test_numpy_dtype_by_position(expr, float64):
    import numpy as np

    assert (eval(expr, {"np": np}).dtype == np.float64) == float64
    source = f"import numpy as np\nimport torch\nx = torch.from_numpy({expr}).to(torch.device('cuda'))\n"
    assert [f.code for f in check_source(source, "t.py") if f.code == "TP302"] == (["TP302"] if float64 else [])


# After an index hazard (cuda:<i> against cuda:0) the result is on the one device both are where the op
# does not raise (i = 0): later ops that meet it keep being checked (recall16b, s16; neural-collapse's
# `WH = torch.mm(W, H.cuda())` then `WH - sub`, `sub` made with `.cuda()`).  Each such line is one the
# fix of the first must also move.
AFTER_HAZARD = """\
gpu = int(input())
device = torch.device("cuda:" + str(gpu))
W = torch.ones(3, 4, device=device)
WH = torch.mm(W, torch.ones(4, 3, device="cuda"))
sub = torch.eye(3, device="cuda")
res = torch.norm(WH - sub)
"""


def test_an_op_after_an_index_hazard_is_checked_too():
    assert_findings(H, AFTER_HAZARD, {(4, "TP101"), (6, "TP101")})


def test_an_op_after_an_index_hazard_with_a_tensor_on_the_same_index_is_quiet():
    assert_findings(H, AFTER_HAZARD.replace('sub = torch.eye(3, device="cuda")', "sub = torch.eye(3, device=device)"), {(4, "TP101")})


def test_the_fixed_program_runs_on_any_index():
    fixed = AFTER_HAZARD.replace("gpu = int(input())", "gpu = 1").replace('device="cuda"', "device=device")
    assert run_on_fake_gpu(H + fixed) is None
    assert run_on_fake_gpu(H + AFTER_HAZARD.replace("gpu = int(input())", "gpu = 1")) is not None
