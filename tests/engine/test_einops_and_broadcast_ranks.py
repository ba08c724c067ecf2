"""Ranks through einops patterns and broadcasting methods.

A CPU tensor meets a CUDA one in arithmetic only when it is 0-dim, so an error needs a rank (or a
least rank).  `einops.rearrange(x, "b n ... -> (b n) ...")` (also `repeat`, `reduce`) gives one
dimension per axis, group or number right of `->` and any number for `...`; `x.masked_fill(m, v)`,
`x.mul(y)` and the other broadcasting methods of `ranks.SAME_RANK` never have fewer dimensions than
x.  Both chains feed `torch.randint(1, 21, seq.shape)` in alphafold2's `MLM.noise` (corpus batch b20).
einops is not installed here: its patterns are the library's documented grammar; the broadcasting
snippets raise on the fake GPU exactly where a finding is expected."""
import pytest

from torchplace_rules.flow.ranks import einops_rank

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\nfrom einops import rearrange, reduce, repeat\n"
EINOPS = """\
    x = torch.ones(2, 3, 4, device='cuda')
    y = {op}
    z = y + torch.zeros(y.shape)
    """
EINOPS_CASES = {
    "rearrange-open-ended": ("rearrange(x, 'b n ... -> (b n) ...')", {(3, "TP101")}),
    "rearrange-exact": ("rearrange(x, 'b n d -> b (n d)')", {(3, "TP101")}),
    "repeat-new-axis": ("repeat(x, 'b n d -> b n d r', r=2)", {(3, "TP101")}),
    "reduce-to-nothing": ("reduce(x, 'b n d -> ', 'sum')", set()),
    "only-ellipsis": ("rearrange(x, '... -> ...')", set()),
}


@pytest.mark.parametrize("name", sorted(EINOPS_CASES))
def test_einops(name):
    op, expected = EINOPS_CASES[name]
    assert_findings(H, EINOPS.format(op=op), expected)


@pytest.mark.parametrize("pattern, ranks", [
    ("b n ... -> (b n) ...", (None, 1)), ("b (h w) c -> b c h w", (4, 4)), ("b h w -> b () h w", (4, 4)),
    ("b n d -> ", (0, 0)), ("... d -> ...", (None, 0)), ("b n d -> b n d 3", (4, 4)), ("b n", (None, 0)),
    ("b n -> b (n", (None, 0)), ("b n -> b n)", (None, 0)),
])
def test_einops_pattern_ranks(pattern, ranks):
    import ast
    call = ast.parse(f"rearrange(x, {pattern!r})").body[0].value
    assert einops_rank(call) == ranks


B = "import torch\n"
BROADCAST = """\
    x = torch.ones(3, 4, device='cuda')
    mask = torch.ones(3, 4, device='cuda').bool()
    y = {op}
    z = y + torch.zeros(y.shape)
    """
BROADCAST_CASES = {
    "masked-fill": ("x.masked_fill(mask, 0.0)", {(4, "TP101")}),
    "mul-by-a-tensor": ("x.mul(torch.ones((), device='cuda'))", {(4, "TP101")}),
    "of-a-0-dim-receiver": ("torch.ones((), device='cuda').mul(torch.ones((), device='cuda'))", set()),
}


@pytest.mark.parametrize("name", sorted(BROADCAST_CASES))
def test_broadcast_engine(name):
    op, expected = BROADCAST_CASES[name]
    assert_findings(B, BROADCAST.format(op=op), expected)


@pytest.mark.parametrize("name", sorted(BROADCAST_CASES))
def test_broadcast_pytorch_agrees(name):
    op, expected = BROADCAST_CASES[name]
    assert_pytorch_agrees(B, BROADCAST.format(op=op), expected)
