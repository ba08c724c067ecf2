"""Lengths of an unknown batch moved with `.to(device)` where PyTorch wants them on the CPU.

A batch item of a loader the analysis cannot see (`for feats, lengths in loader:` over an imported
loader class) moved with `lengths.to(device)` is an object of unknown kind placed on the device
(PlacedV).  Given as `pack_padded_sequence`'s lengths it can only be a tensor (a list of ints has no
`.to()`), so a CUDA `device` there raises "'lengths' argument should be a 1D CPU int64 tensor, but got
1D cuda:0 Long tensor" as a tensor's would (ClovaCall PR #15, corpus batch b21; the tensor case is
tests/engine/test_truth_table.py's pack_padded rows).  FakeTensor cannot run `_pack_padded_sequence`,
so these snippets are checked by the engine only."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nfrom data_loader import AudioLoader\n"
BODY = """\
    device = {device}
    rnn = nn.LSTM(4, 8, batch_first=True).to(device)
    for feats, lengths in AudioLoader(4):
        feats = feats.to(device)
        lengths = {lengths}
        packed = nn.utils.rnn.pack_padded_sequence(feats, {passed}, batch_first=True, enforce_sorted=False)
        rnn(packed)
    """
CASES = {
    "moved-to-cuda": (dict(lengths="lengths.to(device)", passed="lengths", device='"cuda"'), {(6, "TP101")}),
    "moved-to-a-cuda-device": (dict(lengths="lengths.to(device)", passed="lengths", device='torch.device("cuda")'),
                               {(6, "TP101")}),
    "moved-back-to-the-cpu": (dict(lengths="lengths.to(device)", passed="lengths.cpu()", device='"cuda"'), set()),
    "never-moved": (dict(lengths="lengths", passed="lengths", device='"cuda"'), set()),
    "moved-to-the-cpu": (dict(lengths="lengths.to(device)", passed="lengths", device='"cpu"'), set()),
}
# (in a function taking `device`, the engine's policy reads that parameter as an accelerator, tensors alike)


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    fields, expected = CASES[name]
    assert_findings(H, BODY.format(**fields), expected)
