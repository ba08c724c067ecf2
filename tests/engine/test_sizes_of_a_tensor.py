"""A factory given all of another tensor's sizes has that tensor's rank.

`torch.zeros(x.shape)`, `torch.ones(x.size())`, `torch.rand(*x.shape)`, `torch.full(x.shape, v)` and
`torch.randint(1, 21, x.shape)` make a tensor of x's rank (on the CPU without `device=`).  A CPU
tensor meets a CUDA one in arithmetic only when it is 0-dim, so knowing that rank is what proves the
error (alphafold2's `MLM.noise`: `random_tokens = torch.randint(1, NUM_AMINO_ACIDS, seq.shape)` then
`mask & (random_tokens != token_id)`, corpus batch b20).  A size object of a tensor of unknown rank
proves nothing (it may be 0-dim).  Each snippet raises on the fake GPU exactly where a finding is
expected."""
import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\n"
BODY = """\
    x = {x}
    noise = {made}
    y = x + noise
    """
CUDA2 = "torch.ones(3, 4, device='cuda')"
CASES = {
    "zeros-of-shape": (dict(x=CUDA2, made="torch.zeros(x.shape)"), {(3, "TP101")}),
    "ones-of-size": (dict(x=CUDA2, made="torch.ones(x.size())"), {(3, "TP101")}),
    "rand-of-starred-shape": (dict(x=CUDA2, made="torch.rand(*x.shape)"), {(3, "TP101")}),
    "randn-of-size-keyword": (dict(x=CUDA2, made="torch.randn(size=x.shape)"), {(3, "TP101")}),
    "full-of-shape": (dict(x=CUDA2, made="torch.full(x.shape, 2.0)"), {(3, "TP101")}),
    "randint-of-shape": (dict(x=CUDA2, made="torch.randint(1, 21, x.shape)"), {(3, "TP101")}),
    "compared-randint-of-shape": (dict(x=CUDA2, made="torch.randint(1, 21, x.shape) != 0"), {(3, "TP101")}),
    "zeros-of-a-0-dim-shape": (dict(x="torch.ones((), device='cuda')", made="torch.zeros(x.shape)"), set()),
    "on-the-tensors-device": (dict(x=CUDA2, made="torch.zeros(x.shape, device=x.device)"), set()),
    "zeros-like": (dict(x=CUDA2, made="torch.zeros_like(x)"), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    fields, expected = CASES[name]
    assert_findings(H, BODY.format(**fields), expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    fields, expected = CASES[name]
    assert_pytorch_agrees(H, BODY.format(**fields), expected)


def test_unknown_rank_proves_nothing():
    """`x` a parameter nothing calls: its rank (and its sizes' count) is unknown, maybe 0-dim."""
    body = """\
        def f(x):
            x = x.cuda()
            return x + torch.zeros(x.shape)
        """
    assert_findings(H, body, set())


def test_sizes_through_a_call():
    """The rank a caller's tensor has reaches the function it is passed to."""
    body = """\
        def f(seq, mask):
            random_tokens = torch.randint(1, 21, seq.shape)
            return mask & (random_tokens != 0)

        f(torch.zeros(3, 4, device='cuda'), torch.ones(3, 4, device='cuda').bool())
        """
    assert_findings(H, body, {(3, "TP101")})
