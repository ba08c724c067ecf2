"""PyTorch's argument parser reads NumPy's names as its own (`axis` for `dim`, `keepdims` for
`keepdim`, `x`/`a`/`x1` for `input`, `x2` for `other`): `torch.cat([a, b], axis=0)` is checked as
`dim=0` would be.  And `torch.nn.utils.rnn.pad_sequence` gives a tensor where its sequences are.
Each snippet runs on the fake GPU: it raises exactly where an error is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import torch\nfrom torch.nn.utils.rnn import pad_sequence\n"
DEVICE = 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
CASES = {
    "cat-with-axis": ("""\
        a = torch.rand(2, 3, device=device)
        c = torch.cat([torch.rand(2, 3), a], axis=0)
        """, {(2, "TP101")}),
    "cat-with-axis-moved": ("""\
        a = torch.rand(2, 3, device=device)
        c = torch.cat([torch.rand(2, 3, device=device), a], axis=0)
        """, set()),
    "sum-with-axis-and-keepdims": ("""\
        a = torch.rand(2, 3, device=device)
        s = a.sum(axis=1, keepdims=True) + torch.rand(2, 1)
        """, {(2, "TP101")}),
    "padded-cpu-sequences-into-a-model": ("""\
        model = torch.nn.Linear(4, 4).to(device)
        x = pad_sequence([torch.rand(3, 4), torch.rand(2, 4)], batch_first=True)
        y = model(x)
        """, {(3, "TP102")}),
    "padded-moved-sequences-into-a-model": ("""\
        model = torch.nn.Linear(4, 4).to(device)
        x = pad_sequence([torch.rand(3, 4, device=device), torch.rand(2, 4, device=device)], batch_first=True)
        y = model(x)
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H + DEVICE, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    error = run_on_fake_gpu(H + DEVICE + textwrap.dedent(body))
    assert (error is not None) == bool(expected), repr(error)
