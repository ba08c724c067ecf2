"""A list display's items follow in-place changes: `append(x)` adds x as the last item (alphafold2's
`mds_torch` history, corpus batch b20: a CPU first item stacked with an appended CUDA one), while
`pop`, `remove`, `clear`, `sort`, `reverse`, `del lst[i]` and `lst[i] = v` leave the items unknown
(before, the display's items outlived them and a list that no longer held its CPU item was reported).
Each snippet runs on the fake GPU and raises exactly where a finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import torch\n\nd = torch.rand(2, 5, device='cuda')\n"
CASES = {
    "append-after-a-cpu-item": ("his = [torch.zeros(2)]\nhis.append(d.sum(1))\nout = torch.stack(his)\n", {(3, "TP101")}),
    "appends-to-an-empty-list": ("his = []\nhis.append(d.sum(1))\nhis.append(torch.zeros(2))\nout = torch.stack(his)\n",
                                 {(4, "TP101")}),
    "append-where-the-first-is": ("his = [torch.zeros(2, device=d.device)]\nhis.append(d.sum(1))\nout = torch.stack(his)\n",
                                  set()),
    "append-on-one-path-only": ("his = [torch.zeros(2)]\nif d.sum() > 0:\n    his.append(d.sum(1))\nout = torch.stack(his)\n",
                                set()),
    "pop-the-cpu-item": ("his = [torch.zeros(2), d.sum(1)]\nhis.pop(0)\nout = torch.stack(his)\n", set()),
    "remove-the-cpu-item": ("z = torch.zeros(2)\nhis = [z, d.sum(1)]\nhis.remove(z)\nout = torch.stack(his)\n", set()),
    "del-the-cpu-item": ("his = [torch.zeros(2), d.sum(1)]\ndel his[0]\nout = torch.stack(his)\n", set()),
    "replace-the-cpu-item": ("his = [torch.zeros(2), d.sum(1)]\nhis[0] = d.sum(1)\nout = torch.stack(his)\n", set()),
    "replace-with-a-cpu-item": ("his = [d.sum(1), d.sum(1)]\nhis[0] = torch.zeros(2)\nout = torch.stack(his)\n", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(n for n in CASES if n not in ("append-on-one-path-only", "replace-with-a-cpu-item")))
def test_pytorch_agrees(name):
    """(The one-path append and the replaced item raise on some runs only, or always where the engine cannot
    prove which item is where: no finding is claimed, and `torch.stack` of a CPU and a CUDA item raising is
    shown by the first cases.)"""
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    error = run_on_fake_gpu(H + textwrap.dedent(body))
    assert (error is not None) == bool(expected), repr(error)
