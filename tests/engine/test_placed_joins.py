"""An object placed with `.to(device)` and a tensor computed from it on another path join to an
object on that device.

A batch item of a loader the analysis cannot see, moved with `.to(device)`, is an object of unknown
kind placed on the device (PlacedV: a tensor in tensor ops).  Code that rebinds it to a tensor op's
result on some paths only (`seq_len = lengths` then, in a loop over layers, `seq_len = (seq_len + 2 *
pad - k) / stride + 1`; `if half: x = x.half()`) leaves a value that is on the device on every path;
it was unknown after the join (ClovaCall's `EncoderRNN.get_seq_lens`, corpus batch b21: the CUDA
lengths reach `pack_padded_sequence`, "'lengths' argument should be a 1D CPU int64 tensor").  Joined
with a tensor on another device it stays unknown."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nfrom data_loader import AudioLoader\n"
LOOP = """\
    def seq_lens(lengths, convs):
        seq_len = lengths
        for m in convs:
            seq_len = (seq_len + 2 * m.padding[1] - m.kernel_size[1]) / m.stride[1] + 1
        return seq_len.int()

    device = {device}
    convs = [nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1)]
    rnn = nn.LSTM(4, 8, batch_first=True).to(device)
    for feats, lengths in AudioLoader(4):
        feats, lengths = feats.to(device), lengths.to(device)
        out_lengths = seq_lens(lengths, convs)
        packed = nn.utils.rnn.pack_padded_sequence(feats, {passed}, batch_first=True, enforce_sorted=False)
    """
BRANCH = """\
    device = "cuda"
    for feats in AudioLoader(4):
        feats = feats.to(device)
        if feats.dtype == torch.float64:
            feats = {other}
        y = feats + torch.ones(3, 4)
    """
CASES = {
    "loop-of-arithmetic": (LOOP.format(device='"cuda"', passed="out_lengths"), {(13, "TP101")}),
    "loop-of-arithmetic-moved-back": (LOOP.format(device='"cuda"', passed="out_lengths.cpu()"), set()),
    "loop-of-arithmetic-on-the-cpu": (LOOP.format(device='"cpu"', passed="out_lengths"), set()),
    "branch-of-a-tensor-method": (BRANCH.format(other="feats.float()"), {(6, "TP101")}),
    "branch-of-a-cpu-tensor": (BRANCH.format(other="torch.zeros(3, 4)"), set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
