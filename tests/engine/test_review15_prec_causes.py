"""Session 15 precision work (issue 11): the rank model of ops that return a tuple of tensors
(`torch.return_types`), which replaced a syntactic rule (`_picked_by_plain_indices`) for review14's
DGL beam search, and the general causes of the review's remaining false warnings.

A CPU tensor meets a CUDA tensor in arithmetic only when it is 0-dim, and a 0-dim integral tensor
index is read as a number (`select(item())`): both decisions need the rank.  Each tuple op's ranks are
checked against torch (FakeTensorMode: shapes only) for inputs of rank 0 to 3; the truth rows run the
constructs on a fake GPU and compare with what the engine reports."""
import ast

import pytest
import torch

from torchplace_rules.flow.ranks import tuple_ranks
from torchplace_rules.flow.values import NUMBER, UNKNOWN, TensorV

from .snippets import assert_findings, assert_truth_row

# -- each op's ranks, against torch -------------------------------------------------------------------

TUPLE_OPS = [
    "x.topk(1)", "x.topk(k=1, dim=-1)", "x.sort()", "x.sort(0, descending=True)", "torch.sort(x, 0)",
    "x.max(0)", "x.max(dim=-1)", "x.max(0, keepdim=True)", "x.max(0, True)", "torch.max(x, 0)",
    "torch.min(x, dim=-1)", "x.min(-1)", "x.median(0)", "torch.median(x, dim=0, keepdim=True)",
    "x.kthvalue(1)", "x.kthvalue(1, 0)", "x.kthvalue(1, 0, True)", "x.mode()", "x.mode(0)", "x.aminmax()",
    "x.aminmax(dim=0)", "torch.aminmax(x, dim=-1, keepdim=True)", "torch.std_mean(x)", "torch.std_mean(x, 0)",
    "torch.var_mean(x, (0, 1))", "torch.var_mean(x, 0, keepdim=True)", "torch.std_mean(x, True)",
    "torch.unique(x, return_inverse=True)", "torch.unique(x, return_counts=True)",
    "x.unique(return_inverse=True, return_counts=True)", "torch.unique(x, dim=0, return_inverse=True)",
    "torch.unique_consecutive(x, return_inverse=True, return_counts=True)", "torch.where(x > 0)",
    "x.nonzero(as_tuple=True)", "torch.nonzero(x, as_tuple=True)", "x.split(1)", "x.chunk(2)", "x.unbind()",
    "torch.split(x, 1)", "x.tensor_split(2)",
]
NOT_TUPLES = ["x.max()", "torch.max(x, y)", "x.median()", "torch.unique(x)", "x.nonzero()", "torch.where(x > 0, x, y)",
              "x.max(d)"]


def _shape(expr: str, recv_rank):
    node = ast.parse(expr, mode="eval").body
    method = isinstance(node.func.value, ast.Name) and node.func.value.id == "x"
    first = 0 if method else 1
    args = ([] if method else [TensorV(None, rank=recv_rank)]) + [
        NUMBER if isinstance(a, (ast.Constant, ast.UnaryOp)) else UNKNOWN for a in node.args[first:]]
    return tuple_ranks(node.func.attr, TensorV(None, rank=recv_rank), node, args, first)


def _real(expr: str, rank: int):
    x = torch.zeros((3,) * rank)
    try:
        out = eval(expr, {"torch": torch, "x": x, "y": x, "d": x})  # (`d` unknown: maybe a tensor)
    except (RuntimeError, IndexError):
        return None  # (not valid for this input: nothing to compare)
    return out


@pytest.mark.parametrize("expr", TUPLE_OPS)
@pytest.mark.parametrize("recv_rank", [0, 1, 2, 3, None])
def test_tuple_op_ranks_against_torch(expr, recv_rank):
    shape = _shape(expr, recv_rank)
    assert shape is not None, expr
    entries, open_ended = shape
    for real_rank in ([recv_rank] if recv_rank is not None else [1, 2, 3]):
        out = _real(expr, real_rank)
        if out is None:
            continue
        assert isinstance(out, tuple), expr
        if not open_ended:
            assert len(entries) == len(out) or recv_rank is None, (expr, real_rank)
        for k, item in enumerate(out):
            rank, least, dtype = entries[0] if open_ended else entries[min(k, len(entries) - 1)]
            assert (rank is None or rank == item.dim()) and least <= item.dim(), (expr, real_rank, k, rank, least)
            assert dtype is None or str(item.dtype) == "torch." + dtype, (expr, k)


@pytest.mark.parametrize("expr", NOT_TUPLES)
def test_ops_that_give_one_tensor_are_no_tuples(expr):
    assert _shape(expr, 2) is None
    assert not isinstance(_real(expr, 2), tuple)


def test_return_type_fields_against_torch():
    from torchplace_rules.flow.ranks import RETURN_FIELDS
    x = torch.zeros(3, 3)
    for name, call in [("topk", lambda: x.topk(1)), ("sort", x.sort), ("kthvalue", lambda: x.kthvalue(1)),
                       ("mode", x.mode), ("max", lambda: x.max(0)), ("min", lambda: x.min(0)),
                       ("median", lambda: x.median(0)), ("nanmedian", lambda: x.nanmedian(0)), ("aminmax", x.aminmax)]:
        out = call()
        for k, field in enumerate(RETURN_FIELDS[name]):
            assert getattr(out, field) is out[k], (name, field)


# -- truth rows: a 0-dim CPU item meets a CUDA tensor, a 1-dim one raises ----------------------------

TRUTH = [
    ("max-of-a-vector-over-its-dim-is-0-dim",
     "cpu = torch.randn(5)\nvalue, index = cpu.max(0)\ny = torch.ones(3, device='cuda') * value\n", False, None),
    ("max-of-a-matrix-over-a-dim-is-a-vector",
     "cpu = torch.randn(4, 5)\nvalue, index = cpu.max(1)\ny = torch.ones(4, device='cuda') * value\n", True, "TP101"),
    ("torch-max-with-keepdim-keeps-the-dim",
     "cpu = torch.randn(5)\nvalue = torch.max(cpu, 0, keepdim=True)[0]\ny = torch.ones(5, device='cuda') + value\n",
     True, "TP101"),
    ("topk-keeps-the-rank",
     "cpu = torch.randn(2, 5)\nscores, _ = cpu.topk(2)\ny = torch.ones(2, 2, device='cuda') + scores\n", True, "TP101"),
    ("sort-values-field-keeps-the-rank",
     "cpu = torch.randn(5)\ny = torch.ones(5, device='cuda') + cpu.sort().values\n", True, "TP101"),
    ("std-mean-over-everything-is-0-dim",
     "cpu = torch.randn(4, 5)\nstd, mean = torch.std_mean(cpu)\ny = (torch.ones(5, device='cuda') - mean) / std\n",
     False, None),
    ("std-mean-over-a-dim-drops-it",
     "cpu = torch.randn(4, 5)\nstd, mean = torch.std_mean(cpu, 0)\ny = torch.ones(5, device='cuda') - mean\n",
     True, "TP101"),
    ("kthvalue-of-a-vector-is-0-dim",
     "cpu = torch.randn(5)\nmedian, _ = cpu.kthvalue(3)\ny = torch.ones(5, device='cuda') - median\n", False, None),
]


@pytest.mark.parametrize("name,code,raises,expected", TRUTH, ids=[t[0] for t in TRUTH])
def test_tuple_op_truth_rows(name, code, raises, expected):
    assert_truth_row(name, code, raises, expected)


# -- constructs: an index picked from a tuple op's result --------------------------------------------

H = "import torch\n"
CONSTRUCTS = {
    # the index of the best of a CUDA vector is 0-dim: read as a number by the CPU table (`select(item())`)
    "index-of-the-max-of-a-vector-indexes-a-cpu-table": ("""\
        def best(scores, table):
            _, at = scores.max(0)
            return table[at]
        best(torch.randn(5, device="cuda"), torch.zeros(5, 3))
        """, set()),
    "index-of-the-max-of-a-vector-by-torch-max": ("""\
        def best(scores, table):
            at = torch.max(scores, dim=0).indices
            return table[at]
        best(torch.randn(5, device="cuda"), torch.zeros(5, 3))
        """, set()),
    # the twin: the indices of the maxima of the rows of a CUDA matrix are 1-D: advanced indexing raises
    "indices-of-the-row-maxima-index-a-cpu-table": ("""\
        def best(scores, table):
            _, at = scores.max(1)
            return table[at]
        best(torch.randn(4, 5, device="cuda"), torch.zeros(5, 3))
        """, {(3, "TP101")}),
    # a beam search (review14's DGL): each pick from the top-k indices of a matrix is 0-dim
    "top-k-index-picked-by-two-ints-indexes-a-cpu-tensor": ("""\
        def beam(scores, done):
            scores = scores.view(scores.size(0), -1)
            _, order = scores.topk(dim=-1, k=3)
            flags = []
            for i in range(scores.size(0)):
                for j in range(3):
                    src = order[i][j] // 3
                    flags.append(done[i][src])
            return flags
        beam(torch.randn(2, 9, device="cuda"), torch.zeros(2, 3))
        """, set()),
    "top-k-row-picked-by-one-int-indexes-a-cpu-tensor": ("""\
        def beam(scores, done):
            scores = scores.view(scores.size(0), -1)
            _, order = scores.topk(dim=-1, k=3)
            flags = []
            for i in range(scores.size(0)):
                src = order[i] // 3
                flags.append(done[i][src])
            return flags
        beam(torch.randn(2, 9, device="cuda"), torch.zeros(2, 3))
        """, {(7, "TP101")}),
    # sorted indices of a vector: one picked by an int is 0-dim
    "sorted-index-picked-by-an-int": ("""\
        def first(scores, table):
            order = torch.sort(scores, descending=True)[1]
            return table[order[0]]
        first(torch.randn(5, device="cuda"), torch.zeros(5, 3))
        """, set()),
}


@pytest.mark.parametrize("name", list(CONSTRUCTS))
def test_tuple_op_constructs(name):
    body, expected = CONSTRUCTS[name]
    assert_findings(H, body, expected)


# -- a method that re-binds a submodule to a moved copy (review14 cause S's second snippet, DeepWalk) -----

SET_DEVICE = """\
    import torch.nn as nn


    class SkipGram(nn.Module):
        def __init__(self, n):
            super().__init__()
            self.emb = nn.Embedding(n, 8)

        def set_device(self, gpu_id):
            self.emb = {rebind}

        def forward(self, nodes):
            return self.emb(nodes).sum(1)


    m = SkipGram(10)
    m.set_device(0)
    m(torch.arange(4, device="cuda"))
    """
METHOD_MOVES = {
    # `self.emb` moved to the GPU by a method: the module is split between devices, not "never moved"
    "a-method-rebinds-a-submodule-to-a-moved-copy": (SET_DEVICE.replace("{rebind}", "self.emb.cuda(gpu_id)"),
                                                     set()),
    "a-method-rebinds-a-submodule-moved-with-to": (SET_DEVICE.replace("{rebind}", "self.emb.to(f'cuda:{gpu_id}')"),
                                                   set()),
    # the twin: a method that re-builds the submodule on the CPU leaves the whole module there
    "a-method-rebuilds-a-submodule-on-the-cpu": (SET_DEVICE.replace("{rebind}", "nn.Embedding(10, 8)"),
                                                {(18, "TP102")}),
}


@pytest.mark.parametrize("name", list(METHOD_MOVES))
def test_a_method_moving_a_submodule(name):
    body, expected = METHOD_MOVES[name]
    assert_findings(H, body, expected)


def _raises_where_reported(body: str, expected: set) -> None:
    """PyTorch (on the fake GPU) raises on the snippet exactly when the engine reports something."""
    import textwrap

    from .fake_gpu import run_on_fake_gpu
    error = run_on_fake_gpu("import torch\n" + textwrap.dedent(body))
    assert (error is not None) == bool(expected), error


@pytest.mark.parametrize("name", list(METHOD_MOVES))
def test_a_method_moving_a_submodule_in_torch(name):
    _raises_where_reported(*METHOD_MOVES[name])


# -- review14 cause Q: a checkpoint an imported helper class writes earlier in the run (TP204) -----------

EARLY_STOPPING = """\
    import torch


    class EarlyStopping:
        def __init__(self, patience=10):
            self.best = None

        def step(self, score, model):
            if self.best is None or score > self.best:
                self.best = score
                self.save_checkpoint(model)

        def save_checkpoint(self, model):
            torch.save(model.state_dict(), "es_checkpoint.pt")
    """
TRAIN = """\
    import torch
    import torch.nn as nn
    from utils import EarlyStopping

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(4, 2).to(device)
    stopper = EarlyStopping(patience=5)
    {loop}
    model.load_state_dict(torch.load("{path}"))
    """


def _tp204(tmp_path, train: str):
    import textwrap

    from torchplace_rules import Config, Severity, check_path
    from torchplace_rules.project_index import ProjectIndex
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "utils.py").write_text(textwrap.dedent(EARLY_STOPPING))
    (tmp_path / "train.py").write_text(textwrap.dedent(train))
    return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "train.py", Config(),
                                                                project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_a_checkpoint_an_imported_helper_wrote_earlier_in_the_run_is_quiet(tmp_path):
    loop = "for epoch in range(3):\n        stopper.step(float(epoch), model)"
    assert _tp204(tmp_path, TRAIN.replace("{loop}", loop).replace("{path}", "es_checkpoint.pt")) == []


def test_a_checkpoint_loaded_before_the_helper_runs_is_reported(tmp_path):
    # the twin: nothing calls the writer before the load
    assert _tp204(tmp_path, TRAIN.replace("{loop}", "").replace("{path}", "es_checkpoint.pt")) == [(9, "TP204")]


def test_another_file_than_the_helper_writes_is_reported(tmp_path):
    loop = "for epoch in range(3):\n        stopper.step(float(epoch), model)"
    assert _tp204(tmp_path, TRAIN.replace("{loop}", loop).replace("{path}", "pretrained.pt")) == [(10, "TP204")]


# -- review14 cause Q: the path handed to a helper of the file that writes it (DGL rgcn link.py) -----------

HANDED = """\
    import torch
    import torch.nn as nn


    def train(model, epochs, {param}):
        for epoch in range(epochs):
            torch.save({"state_dict": model.state_dict(), "epoch": epoch}, {written})


    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(4, 2).to(device)
    model_state_file = "model_state.pth"
    train(model, 3, model_state_file)
    checkpoint = torch.load(model_state_file)
    model.load_state_dict(checkpoint["state_dict"])
    """


def _loud(source: str) -> set:
    import textwrap

    from torchplace_rules import Severity, check_source
    return {(f.span.start_line + 1, f.code) for f in check_source(textwrap.dedent(source), "link.py")
            if f.severity <= Severity.WARNING}


def test_a_path_handed_to_a_helper_that_writes_it_is_the_runs_checkpoint():
    assert _loud(HANDED.replace("{param}", "state_file").replace("{written}", "state_file")) == set()


def test_a_path_handed_to_a_helper_that_writes_another_file_is_reported():
    # the twin: the helper takes the path but writes a file of its own
    assert _loud(HANDED.replace("{param}", "state_file").replace("{written}", '"other.pth"')) == {(14, "TP204")}


# -- review14 cause R, DeepWalk: a plain attribute in arithmetic with a local CPU vector, moved after ------

DEEPWALK = """\
    import torch.nn as nn


    class DeepWalk(nn.Module):
        def __init__(self, n, walk_length):
            super().__init__()
            self.walk_length = walk_length
            self.emb = nn.Embedding(n, 8)
            self.idx_list = torch.LongTensor([j for j in range(walk_length)])

        def forward(self, walk):
            batch_size = len(walk)
            device = walk.device
            emb = self.emb(walk).view(-1, 8)
            offset = torch.arange({size}) * self.walk_length
            offset = offset.unsqueeze(1)
            idx = offset + self.idx_list.unsqueeze(0)
            idx = idx.view(-1).to(device)
            pos = emb.index_select(0, idx)
            neg = idx.unsqueeze(1) + torch.zeros(len(idx), 2, device=device)
            return pos.sum() + neg.sum()


    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = DeepWalk(10, 4).to(device)
    model(torch.randint(0, 10, (3, 4), device=device))
    """
DEEPWALK_CASES = {
    # `torch.arange(n)` with no device is a CPU vector: the sum with the attribute is on the CPU (or raises),
    # then moved; the re-bound `idx` (on the device) is another value
    "attribute-added-to-a-local-cpu-vector-then-moved": (DEEPWALK.replace("{size}", "batch_size"), set()),
    # the twin: the offsets are made on the input's device, so the CPU attribute meets them
    "attribute-added-to-a-device-vector": (DEEPWALK.replace("{size}", "batch_size, device=device"), {(9, "TP203")}),
}


@pytest.mark.parametrize("name", list(DEEPWALK_CASES))
def test_attribute_in_arithmetic_with_a_local_cpu_vector(name):
    body, expected = DEEPWALK_CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", list(DEEPWALK_CASES))
def test_attribute_in_arithmetic_with_a_local_cpu_vector_in_torch(name):
    _raises_where_reported(*DEEPWALK_CASES[name])


def test_a_cpu_vector_times_a_cuda_0_dim_tensor_raises():
    # the arithmetic of a CPU vector is on the CPU or raises: a CUDA operand, even 0-dim, is refused
    from .fake_gpu import run_on_fake_gpu
    assert run_on_fake_gpu("import torch\ny = torch.arange(4) * torch.tensor(3, device='cuda')\n") is not None
    assert run_on_fake_gpu("import torch\ny = torch.arange(4) * torch.ones(4, device='cuda')\n") is not None


# -- review14 cause 5 (MAG240M): a load after an unconditional `.cuda()` never runs without a GPU -----------

AFTER_CUDA = """\
    import argparse
    import torch
    import torch.nn as nn

    parser = argparse.ArgumentParser()
    parser.add_argument("--model-path", default="model.pt")
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    device = torch.device(args.device if torch.cuda.is_available() else "cpu")


    def test(path):
        {make}
        state_dict = torch.load(path)
        model.load_state_dict(state_dict)
        return model
    """
AFTER_CUDA_CASES = {
    "load-after-an-unconditional-cuda-call": (AFTER_CUDA.replace("{make}", "model = nn.Linear(4, 2).cuda()"), set()),
    # twins: the `.cuda()` may not run (a guard, a conditional expression): a CPU machine reaches the load
    "load-after-a-guarded-cuda-call": (AFTER_CUDA.replace(
        "{make}", "model = nn.Linear(4, 2)\n        if torch.cuda.is_available():\n            model = model.cuda()"),
        {(16, "TP204")}),
    # a torch.nn module built without what gives it tensors moves nothing: `.cuda()` runs without a GPU too
    "load-after-the-cuda-call-of-a-stateless-loss": (AFTER_CUDA.replace(
        "{make}", "criterion = nn.CrossEntropyLoss().cuda()\n        model = nn.Linear(4, 2)"), {(15, "TP204")}),
    "load-after-the-cuda-call-of-a-weighted-loss": (AFTER_CUDA.replace(
        "{make}", "criterion = nn.CrossEntropyLoss(weight=torch.ones(2)).cuda()\n        model = nn.Linear(4, 2)"),
        set()),
    "load-after-a-conditional-cuda-expression": (AFTER_CUDA.replace(
        "{make}", "model = nn.Linear(4, 2).cuda() if torch.cuda.is_available() else nn.Linear(4, 2)"), {(14, "TP204")}),
}


@pytest.mark.parametrize("name", list(AFTER_CUDA_CASES))
def test_a_load_after_an_unconditional_cuda_call(name):
    body, expected = AFTER_CUDA_CASES[name]
    assert _loud(body) == expected


def test_cuda_raises_without_a_cuda_gpu():
    # torch 2.13's CPU build (this test environment): `.cuda()` of a module or a tensor raises
    if torch.cuda.is_available():
        pytest.skip("a CUDA machine")
    with pytest.raises((AssertionError, RuntimeError)):
        nn_linear = torch.nn.Linear(2, 2)
        nn_linear.cuda()
    with pytest.raises((AssertionError, RuntimeError)):
        torch.zeros(2).cuda()


def test_cuda_of_a_module_without_tensors_runs_without_a_gpu():
    # `Module.cuda()` moves the module's parameters and buffers: a loss or an activation has none, so it runs
    # on torch 2.13's CPU build (the `.cuda(args.gpu)` of test_finding_context's c05 twin)
    assert isinstance(torch.nn.CrossEntropyLoss().cuda(None), torch.nn.CrossEntropyLoss)
    assert isinstance(torch.nn.ReLU().cuda(), torch.nn.ReLU)


def test_a_path_handed_to_a_download_is_reported():
    # fastMRI's run_pretrained_unet_inference (a true finding of the review): `download_model(url, fname)`
    # writes the file with `open(fname, "wb")`, but what it holds was saved elsewhere
    download = HANDED.replace('''def train(model, epochs, {param}):
        for epoch in range(epochs):
            torch.save({"state_dict": model.state_dict(), "epoch": epoch}, {written})''', '''def train(model, epochs, fname):
        with open(fname, "wb") as fh:
            fh.write(b"downloaded")''')
    assert _loud(download) == {(14, "TP204")}
