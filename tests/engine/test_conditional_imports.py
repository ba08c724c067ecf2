"""An import made on one path only (`if <flag the file cannot decide>: import torch`) keeps its binding where
the paths meet, as tensors, modules and devices do: where the other path reaches a read of the name, the read
raises NameError (etna's `if SETTINGS.torch_required:` imports, corpus batch b19).  (A name the other path
binds to None was kept before.)  Each snippet run, moved and called on the fake GPU,
raises exactly where a finding is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import os\n"
NET = """\
    if os.environ.get("WITH_TORCH", "1") == "1":
        import torch
        import torch.nn as nn
    {other}

    class Net(nn.Module):
        def forward(self, y):
            pad = torch.zeros(y.shape[0], 1{device})
            return torch.cat((pad, y), dim=1)
    """
CASES = {
    "imported-under-an-undecided-test": (NET.format(other="", device=""), {(8, "TP202")}),
    "imported-under-a-test-made-where-the-input-is": (NET.format(other="", device=", device=y.device"), set()),
}
ENGINE_ONLY = {
    # the other path binds the names to None (kept as before): a read of None's attributes raises, so where
    # the class and its method run the names are torch's
    "none-on-the-other-path": (NET.format(other="else:\n        torch = nn = None", device=""), {(9, "TP202")}),
}


@pytest.mark.parametrize("name", sorted(CASES) + sorted(ENGINE_ONLY))
def test_engine(name):
    body, expected = {**CASES, **ENGINE_ONLY}[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    run = "\nNet().cuda()(torch.ones(2, 4, device='cuda'))\n"
    error = run_on_fake_gpu(H + textwrap.dedent(body) + run)
    assert (error is not None) == bool(expected), repr(error)
