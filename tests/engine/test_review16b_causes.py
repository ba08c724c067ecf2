"""False findings of the s16 fresh precision review of 11 repositories, review16b's domain
(benchmarks/review/false_finding_causes.md, causes Y1...), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
import ast
import sys

import pytest

from torchplace_rules import check_source
from torchplace_rules.newer_syntax import without_type_params

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

# Y1: PEP 695 type parameters (Python 3.12) on an older interpreter running torchplace.
PEP695 = {
    "type alias": "type Shape = tuple[int, ...]\n",
    "generic type alias": "type Pair[T] = tuple[T, T]\n",
    "generic class": "class Box[T]:\n    pass\n",
    "generic class with a base": "class Pipeline[TIn, TOut](dict):\n    pass\n",
    "bounded generic function": "def first[T: int](xs: list[T]) -> T:\n    return xs[0]\n",
    "type parameters over lines": "class Grid[\n    T,\n    U,\n](dict):\n    pass\n",
}

BUG = """\
def add():
    a = torch.zeros(3, device="cuda")
    b = torch.zeros(3)
    return a + b
"""


@pytest.mark.parametrize("construct", sorted(PEP695))
def test_y1_type_parameters_do_not_hide_the_file(construct):
    """Valid Python 3.12 code is analysed, not reported as TP001; positions below it keep their lines."""
    header = H + PEP695[construct]
    assert_findings(header, BUG, {(4, "TP101")})


@pytest.mark.parametrize("construct", sorted(PEP695))
def test_y1_rewrite_keeps_lines_and_the_columns_after_it(construct):
    if sys.version_info >= (3, 12):
        pytest.skip("the interpreter parses PEP 695 itself")
    text = PEP695[construct] + "x = 1\n"
    rewritten = without_type_params(text)
    ast.parse(rewritten)
    assert rewritten.count("\n") == text.count("\n")
    assert rewritten.splitlines()[-1] == "x = 1"


@pytest.mark.parametrize("text", [
    "def f(:\n    pass\n",                       # a real syntax error
    "class Box[T]:\n    def f(:\n        pass\n",  # newer syntax AND a real error below it
    "type = 3\nx = type(\n",                       # `type` as a name, then an unclosed call
])
def test_y1_real_syntax_errors_stay_tp001(text):
    codes = [f.code for f in check_source(text, "t.py")]
    assert codes == ["TP001"]


def test_y1_type_as_a_name_is_left_alone():
    assert without_type_params("type = 3\nx = type(3)\n") is None


# Y2: a buffer-only module whose forward hands its buffer to a function (or method) that moves it to the input.
FILTER = """\
    import torch.nn.functional as F


    def filter2d(inp, kernel):
        k = kernel.flip((-2, -1))[None, None].to(device=inp.device, dtype=inp.dtype)
        return F.conv2d(inp, k.expand(inp.shape[1], 1, -1, -1), groups=inp.shape[1])


    class BoxBlur(nn.Module):
        def __init__(self, k):
            super().__init__()
            self.register_buffer("kernel", torch.ones(k, k) / (k * k))

        def forward(self, inp):
            return filter2d(inp, self.kernel)


    data = torch.rand(1, 1, 10, 10, device="cuda")
    out = BoxBlur(3)(data)
"""

METHOD = """\
    class Smooth(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("weights", torch.ones(3) / 3)

        def forward(self, x):
            return self._apply_weights(x, weights=self.weights)

        def _apply_weights(self, x, weights):
            w = weights.to(x.device)
            return x * w


    y = Smooth()(torch.rand(2, 3, device="cuda"))
"""


@pytest.mark.parametrize("body", [FILTER, METHOD], ids=["function", "method"])
def test_y2_buffer_moved_by_the_function_forward_hands_it_to(body):
    assert_findings(H, body, set())


@pytest.mark.parametrize("body, line", [
    (FILTER.replace(".to(device=inp.device, dtype=inp.dtype)", ""), 19),
    (METHOD.replace("weights.to(x.device)", "weights * 1"), 14),
], ids=["function", "method"])
def test_y2_twin_callee_that_does_not_move_it_is_still_reported(body, line):
    assert_findings(H, body, {(line, "TP102")})


BLUR_PKG = {
    "pkg/__init__.py": "",
    "pkg/filters/__init__.py": "from .blur import BoxBlur\n",
    "pkg/filters/filter.py": (
        "import torch.nn.functional as F\n\n\n"
        "def filter2d(inp, kernel):\n"
        "    k = kernel[None, None].to(device=inp.device, dtype=inp.dtype)\n"
        "    return F.conv2d(inp, k.expand(inp.shape[1], 1, -1, -1), groups=inp.shape[1])\n"),
    "pkg/filters/blur.py": (
        "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\nfrom .filter import filter2d\n\n\n"
        "class BoxBlur(nn.Module):\n"
        "    def __init__(self, k):\n"
        "        super().__init__()\n"
        "        self.register_buffer('kernel', torch.ones(k, k) / (k * k))\n\n"
        "    def forward(self, inp):\n"
        "        return filter2d(inp, self.kernel)\n"),
    "main.py": (
        "import torch\nfrom pkg.filters import BoxBlur\n\n"
        "data = torch.rand(1, 1, 10, 10, device='cuda')\n"
        "out = BoxBlur(3)(data)\n"),
}


@pytest.mark.parametrize("forward, expected", [
    ("filter2d(inp, self.kernel)", []),  # imported deeper than cross-file reads: unknown, no evidence
    ("F.conv2d(inp, self.kernel[None, None])", [(5, "TP102")]),  # used unmoved by a torch function: reported
], ids=["unknown-function", "twin-torch-function"])
def test_y2_buffer_handed_to_a_function_imported_too_deep_to_read(tmp_path, forward, expected):
    from torchplace_rules import Config, check_path
    from torchplace_rules.project_index import ProjectIndex

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in BLUR_PKG.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text.replace("filter2d(inp, self.kernel)\n", forward + "\n")
                                     if name.endswith("blur.py") else text)
    got = [(f.span.start_line + 1, f.code)
           for f in check_path(tmp_path / "main.py", Config(), project=ProjectIndex(tmp_path)) if f.code.startswith("TP1")]
    assert got == expected


# Y3: a buffer-only module built from a tensor argument, through a local name and a base class's __init__.
FROM_REFERENCE = """\
    def normalize(signal, eps):
        return (signal - signal.min()) / (signal.max() - signal.min() + eps)


    class Base(nn.Module):
        def __init__(self, reference_signal, num_bins=8):
            super().__init__()
            signal = reference_signal
            self.register_buffer("signal", normalize(signal, 1e-6))
            self.bins = torch.arange(num_bins, device=self.signal.device)

        def forward(self, other):
            return (self.bins.unsqueeze(-1) - self.signal.unsqueeze(-2)).abs().mean() + other.mean()


    class FromRef(Base):
        def __init__(self, reference_signal, num_bins=8):
            super().__init__(self.arrange(reference_signal), num_bins)

        @staticmethod
        def arrange(t):
            return t.flatten(1)


    pred = torch.rand(2, 3, device="cuda")
    target = torch.rand(2, 3, device="cuda")
    loss = {cls}({target})(pred)
"""


@pytest.mark.parametrize("cls", ["Base", "FromRef"])
def test_y3_buffers_made_from_a_tensor_argument_are_where_it_is(cls):
    assert_findings(H, FROM_REFERENCE.format(cls=cls, target="target"), set())


@pytest.mark.parametrize("cls", ["Base", "FromRef"])
def test_y3_twin_built_from_a_cpu_tensor_is_still_reported(cls):
    assert_findings(H, FROM_REFERENCE.format(cls=cls, target="target.cpu()"), {(27, "TP102")})


# Y8: `torch.load` without map_location in the `else` of `if not torch.cuda.is_available():`.
GUARDED_LOAD = """\
    def load_dict_from_checkpoint(ckpt_path):
        if {test}:
            ckpt_dict = torch.load(ckpt_path, map_location=lambda storage, loc: storage, weights_only=False)
        else:
            ckpt_dict = torch.load(ckpt_path, weights_only=False)
        return ckpt_dict


    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
"""


def test_y8_load_in_the_else_of_a_negated_cuda_test_runs_only_with_cuda():
    assert_findings(H, GUARDED_LOAD.format(test="not torch.cuda.is_available()"), set())


def test_y8_twin_load_in_the_else_of_another_test_runs_on_the_cpu():
    assert_findings(H, GUARDED_LOAD.format(test="ckpt_path.endswith('.pt')"), {(5, "TP204")})


# Y4: `nn.Sequential(*mods)` of modules the analysis cannot see holds weights of unknown placement.
SEQUENTIAL_OF_PARAMETER = """\
    def run(mods, device):
        seq = nn.Sequential({members})
        x = torch.randn(2, 3, device=device)
        return seq(x)
"""


def test_y4_sequential_of_unknown_modules_is_at_an_unknown_place():
    assert_findings(H, SEQUENTIAL_OF_PARAMETER.format(members="*mods"), set())


def test_y4_twin_a_known_cpu_layer_among_them_is_still_reported():
    assert_findings(H, SEQUENTIAL_OF_PARAMETER.format(members="nn.Linear(3, 3), *mods"), {(4, "TP102")})


# Y6: a helper method that only `__init__` calls runs before the module can be moved (TP202).
ROPE = """\
    class Rope(nn.Module):
        def __init__(self, dim, max_len=16):
            super().__init__()
            inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
            self.register_buffer("inv_freq", inv_freq, persistent=False)
            self._precompute(max_len)

        def _precompute(self, n):
            t = torch.arange(n, dtype=self.inv_freq.dtype)
            freqs = torch.outer(t, self.inv_freq)
            self.register_buffer("cos_cached", freqs.cos(), persistent=False)

        def forward(self, q):{extra}
            return q * self.cos_cached[: q.shape[-2]]


    model = Rope(8).cuda()
    y = model(torch.randn(2, 16, 4, device="cuda"))
"""


def test_y6_helper_called_only_from_init_runs_before_any_move():
    assert_findings(H, ROPE.format(extra=""), set())


def test_y6_twin_reset_parameters_is_called_by_pytorch_on_a_gpu_module():
    """Meta-device initialisation (FSDP, Lightning's `empty_init`) calls `reset_parameters` after
    `to_empty(device="cuda")`: only-from-`__init__` in the project does not mean before any move."""
    assert_findings(H, ROPE.format(extra="").replace("_precompute", "reset_parameters"), {(9, "TP202")})


def test_y6_twin_helper_also_called_from_forward_is_reported():
    extra = "\n            if q.shape[-2] > self.cos_cached.shape[0]:\n                self._precompute(q.shape[-2])"
    assert_findings(H, ROPE.format(extra=extra), {(9, "TP202")})


# Y7: modules hidden in a plain list on purpose, put back moved where they are used (TP203).
FROZEN = """\
    class Frozen(nn.Module):
        def __init__(self):
            super().__init__()
            backbone = nn.Linear(4, 4).eval()
            self.backbone = [backbone]  # hidden from DDP and the optimizer

        def forward(self, x):{move}
            with torch.inference_mode():
                return self.backbone[0](x)


    m = Frozen().cuda()
    y = m(torch.randn(2, 4, device="cuda"))
"""


def test_y7_list_whose_module_is_moved_back_where_used_is_deliberate():
    move = "\n            if self.backbone[0].weight.device != x.device:\n                self.backbone[0] = self.backbone[0].to(x.device)"
    assert_findings(H, FROZEN.format(move=move), set())


def test_y7_twin_list_never_moved_is_reported():
    assert_findings(H, FROZEN.format(move=""), {(5, "TP203")})
