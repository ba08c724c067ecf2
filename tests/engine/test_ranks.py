"""Ranks the analysis infers (flow/ranks.py), checked against torch, and what they decide.

A CPU operand in arithmetic with a CUDA tensor is an error only when it cannot be 0-dim (a 0-dim
CPU tensor is accepted there); these rules prove "not 0-dim" from the code.  Each rule is checked
against the rank torch really gives, for receivers of several ranks; then construct by construct
in the flow (error where the CPU operand is proven not 0-dim, nothing above a hint otherwise).
"""
import ast

import pytest
import torch

from torchplace_rules.flow.ranks import method_rank, subscript_rank
from torchplace_rules.flow.values import NUMBER, UNKNOWN, SeqV, TensorV

from .snippets import assert_findings

METHODS = ["x.unsqueeze(0)", "x.unsqueeze(-1)", "x.view(-1)", "x.view(1, 1, -1)", "x.reshape((1, -1))",
           "x.repeat(2, 1)", "x.repeat(1, 1, 1, 1)", "x.expand(3, 1, -1)", "x.flatten()", "x.flatten(1)",
           "x.clone()", "x.transpose(0, -1)", "x.expand_as(y)", "x.float()", "x.view_as(y)"]
SUBSCRIPTS = ["x[None]", "x[None, :, None]", "x[..., None]", "x[:, 0]", "x[0]", "x[0, :]", "x[i]", "x[:1]",
              "x[idx]", "x[idx, :]", "x[mask]"]


def _tensor(rank: int) -> torch.Tensor:
    return torch.zeros((2,) * rank)


def _bounds_hold(rank, least, real: int) -> bool:
    return (rank is None or rank == real) and least <= real


@pytest.mark.parametrize("expr", METHODS)
@pytest.mark.parametrize("recv_rank", [2, 3, None])
def test_method_rank_against_torch(expr, recv_rank):
    node = ast.parse(expr, mode="eval").body
    y = _tensor(3)
    for real_rank in ([recv_rank] if recv_rank is not None else [2, 3, 4]):
        x = _tensor(real_rank)
        try:
            real = eval(expr, {"x": x, "y": y}).dim()
        except RuntimeError:
            continue  # not valid for this receiver: nothing to compare
        args = [TensorV(None, rank=3) if isinstance(a, ast.Name) else NUMBER for a in node.args]
        rank, least = method_rank(node.func.attr, TensorV(None, rank=recv_rank), node, args)
        assert _bounds_hold(rank, least, real), (expr, real_rank, rank, least, real)


@pytest.mark.parametrize("expr", SUBSCRIPTS)
@pytest.mark.parametrize("base_rank", [2, 3, None])
def test_subscript_rank_against_torch(expr, base_rank):
    node = ast.parse(expr, mode="eval").body
    env = {"i": 1, "idx": torch.tensor([0, 1]), "mask": None}
    values = {"i": NUMBER, "idx": TensorV(None, rank=1), "mask": TensorV(None)}
    for real_rank in ([base_rank] if base_rank is not None else [2, 3, 4]):
        x = _tensor(real_rank)
        env["x"], env["mask"] = x, x > 0
        real = eval(expr, env).dim()
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        part_values = [values.get(p.id, UNKNOWN) if isinstance(p, ast.Name) else UNKNOWN for p in parts]
        value = SeqV(tuple(part_values)) if isinstance(node.slice, ast.Tuple) else part_values[0]
        rank, least = subscript_rank(TensorV(None, rank=base_rank), node.slice, value)
        assert _bounds_hold(rank, least, real), (expr, real_rank, rank, least, real)


H = "import torch\nimport numpy as np\n"
FLOW = {
    # the CPU operand is proven not 0-dim: an error
    "unsqueezed-numpy-weights": ("""\
        def weigh(w, labels):
            weights = torch.tensor(np.asarray(w)).float().unsqueeze(0)
            return weights.repeat(labels.shape[0], 1) * labels
        weigh(np.load("w.npy"), torch.ones(4, 3, device="cuda"))
        """, {(3, "TP101")}),
    "indexed-with-slices": ("""\
        def score(out, mask):
            return out[0, :, :] * mask
        score(torch.ones(2, 3, 3), torch.ones(3, 3, device="cuda"))
        """, {(2, "TP101")}),
    "arange-expanded": ("""\
        def decay(length, d):
            r = torch.arange(length)[None, :, None].expand(4, length, 1)
            return d ** (r - r.transpose(-1, -2))
        decay(5, torch.ones(4, 1, 1, device="cuda"))
        """, {(3, "TP101")}),
    "attribute-divided-by-a-number": ("""\
        class K(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lim = torch.full((1, 1, 1), 7)

            def shift(self, p):
                return p + self.lim // 2

        class D(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.p = torch.nn.Parameter(torch.zeros(3, 3, 3))
                self.k = K()

            def forward(self, x):
                return self.k.shift(self.p)

        D().cuda()(torch.ones(3, device="cuda"))
        """, {(4, "TP203")}),
    # batched and matrix products take operands of one rank only and give that rank
    "bmm-of-cpu-tensors-is-3-d": ("""\
        def energy(q, k, mask):
            return torch.bmm(q, k) + mask
        energy(torch.randn(2, 3, 4).view(2, 3, -1), torch.randn(2, 4, 3), torch.ones(2, 3, 3, device="cuda"))
        """, {(2, "TP101")}),
    "mm-method-of-cpu-tensors-is-2-d": ("""\
        def project(a, b, bias):
            return bias + a.mm(b)
        project(torch.tensor(np.ones((2, 3))), torch.tensor(np.ones((3, 4))), torch.ones(2, 4, device="cuda"))
        """, {(2, "TP101")}),
    # true twins: the CPU operand may be 0-dim (PyTorch accepts it), or is moved
    "bmm-moved-before-use": ("""\
        def energy(q, k, mask):
            return torch.bmm(q, k).to(mask.device) + mask
        energy(torch.randn(2, 3, 4), torch.randn(2, 4, 3), torch.ones(2, 3, 3, device="cuda"))
        """, set()),
    "unknown-rank-stays-a-hint": ("""\
        def weigh(w, labels):
            weights = torch.tensor(np.asarray(w)).float()
            return weights * labels
        weigh(np.load("w.npy"), torch.ones(4, 3, device="cuda"))
        """, set()),
    "matmul-of-vectors-may-be-0-dim": ("""\
        def dot(a, b, c):
            return (a.view(-1) @ b.view(-1)) * c
        dot(torch.ones(3), torch.ones(3), torch.ones(4, device="cuda"))
        """, set()),
    "indexed-down-to-a-scalar": ("""\
        def pick(t, x):
            return t[0, 1] * x
        pick(torch.ones(2, 2), torch.ones(3, device="cuda"))
        """, set()),
    "moved-before-use": ("""\
        def score(out, mask):
            return out[0, :, :].to(mask.device) * mask
        score(torch.ones(2, 3, 3), torch.ones(3, 3, device="cuda"))
        """, set()),
}


@pytest.mark.parametrize("call,shapes", [("torch.bmm(a, b)", ((2, 3, 4), (2, 4, 5))), ("a.bmm(b)", ((2, 3, 4), (2, 4, 5))),
                                         ("torch.mm(a, b)", ((3, 4), (4, 5))), ("a.mm(b)", ((3, 4), (4, 5))),
                                         ("torch.outer(a, b)", ((3,), (4,))), ("torch.ger(a, b)", ((3,), (4,)))])
def test_fixed_rank_products_against_torch(call, shapes):
    """FIXED_RANK: the result has the rank the table says, and operands of any other rank raise."""
    from torchplace_rules.flow.ranks import FIXED_RANK
    name = call.split("(")[0].split(".")[-1]
    a, b = torch.zeros(shapes[0]), torch.zeros(shapes[1])
    assert eval(call).dim() == FIXED_RANK[name]
    with pytest.raises(RuntimeError):
        a, b = torch.zeros(shapes[0][1:] or (2, 2)), torch.zeros(shapes[1][1:] or (2, 2))
        eval(call)


@pytest.mark.parametrize("name", list(FLOW))
def test_rank_decides_certainty(name):
    body, expected = FLOW[name]
    assert_findings(H, body, expected)
