"""A factory given one size computed with `-`, `//`, `%`, `**` or `/` makes one dimension.

`torch.zeros(n * (n - 1) // 2)` is 1-D whatever `n` holds: no list, tuple or torch.Size has those
operators, and a factory given one number (or a 0-dim / one-element tensor, a NumPy integer) makes a
1-D tensor; a longer tensor or array is refused ("must be tuple of ints").  `+` and `*` count only
between numbers (`shape * 2`, `[n] + rest` are sizes of several dimensions).  A CPU tensor meets a
CUDA one in arithmetic only when it is 0-dim, so the rank is what proves the error (DIDgen's
`adj_vec = torch.zeros(N * (N - 1) // 2, device=device)`, then `mask = adj_vec == 0` against
`torch.rand(mask.shape) > 0.15`, corpus batch b23).  Each snippet raises on the fake GPU exactly
where a finding is expected."""
from .snippets import assert_findings, assert_pytorch_agrees, case_tests

H = "import torch\n"
BODY = """\
    def f(n, m=()):
        made = torch.zeros({size}, device="cuda")
        return made * torch.rand({size})

    f({passed})
    """
SIZES = {  # size: (expected, what the call passes)
    "n * (n - 1) // 2": ({(3, "TP101")}, "4"),
    "n - 1": ({(3, "TP101")}, "4"),
    "2 * (n - 1)": ({(3, "TP101")}, "4"),
    "-(n // 2) + 5": ({(3, "TP101")}, "4"),
    "n ** 2": ({(3, "TP101")}, "3"),
    "n % 7": ({(3, "TP101")}, "9"),
    "n": (set(), "()"),  # a size object: () makes a 0-dim tensor
    "n * 2": (set(), "()"),  # a tuple repeated
    "n + m": (set(), "()"),  # sizes concatenated
}
test_engine, test_pytorch_agrees = case_tests(
    H, {size: (BODY.format(size=size, passed=passed), expected) for size, (expected, passed) in SIZES.items()})


def test_a_sized_tensor_lends_its_rank():
    """DIDgen's shape: the 1-D tensor's sizes make another 1-D tensor (`torch.rand(mask.shape)`)."""
    body = """\
        def f(n):
            vec = torch.zeros(n * (n - 1) // 2, device="cuda")
            mask = vec == 0
            keep = torch.rand(mask.shape) > 0.15
            return mask * keep
        """
    assert_findings(H, body, {(5, "TP101")})
    assert_pytorch_agrees(H, body, {(5, "TP101")}, run="f(4)\n")
