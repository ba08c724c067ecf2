"""`t.is_cuda` / `t.is_cpu` inside a module's method, where `t` is on "the module's device": the call
context knows where that is (the instance was moved to `cuda:1`), so the test is decided there and the
branch not taken is dropped.  iSTFTNet's `STFT.inverse` (corpus batch b22) moves its window envelope
with `window_sum.cuda() if magnitude.is_cuda else window_sum`: `.cuda()` is cuda:0 while the module and
its input are on cuda:1; the test was left open, the CPU branch joined the CUDA one, and the mismatch
went unreported.  Each snippet, run on the fake GPU, raises exactly where a finding is expected."""
from .snippets import case_tests

H = "import torch\nimport torch.nn as nn\n"
STFT = """\
    class Stft(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("basis", torch.ones(4))

        def inverse(self, magnitude):
            out = magnitude * self.basis
            window_sum = torch.ones(4)
    {move}
            out /= window_sum
            return out


    {setup}stft = Stft().to({device})
    y = stft.inverse(torch.rand(4, device={device}))
    """
# train.py's device in the process of GPU `rank` (`'cuda:{:d}'.format(rank)`): a CUDA device whose index
# is chosen at run time, so `is_cuda` holds there too
RANK = "rank = 1\n    device = torch.device(f'cuda:{rank}')\n    "
IFEXP = "        window_sum = window_sum.cuda() if magnitude.is_cuda else window_sum"
IF_STMT = "        if magnitude.is_cuda:\n                window_sum = window_sum.cuda()"
IS_CPU = "        window_sum = window_sum if magnitude.is_cpu else window_sum.cuda()"
FOLLOWS = "        window_sum = window_sum.to(out.device) if magnitude.is_cuda else window_sum"
CASES = {
    # the module and its input on the second GPU: `.cuda()` is cuda:0 (line 10: `out /= window_sum`)
    "ifexp-on-cuda1": (STFT.format(setup="", move=IFEXP, device="'cuda:1'"), {(10, "TP101")}),
    "if-statement-on-cuda1": (STFT.format(setup="", move=IF_STMT, device="'cuda:1'"), {(11, "TP101")}),
    "is-cpu-on-cuda1": (STFT.format(setup="", move=IS_CPU, device="'cuda:1'"), {(10, "TP101")}),
    "ifexp-on-a-rank-chosen-gpu": (STFT.format(setup=RANK, move=IFEXP, device="device"), {(10, "TP101")}),
    # on cuda:0 `.cuda()` is where the module is; on the CPU the envelope stays there with it
    "ifexp-on-cuda0": (STFT.format(setup="", move=IFEXP, device="'cuda'"), set()),
    "ifexp-on-cpu": (STFT.format(setup="", move=IFEXP, device="'cpu'"), set()),
    # the fix: the envelope follows the transform's own device
    "follows-on-cuda1": (STFT.format(setup="", move=FOLLOWS, device="'cuda:1'"), set()),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)


def test_only_cuda_has_a_run_time_index():
    """A device whose index the program picks at run time is a CUDA one (`f"cuda:{rank}"`, `.cuda(gpu)`,
    `torch.device(gpu)`), so `is_cuda` holds there; `f"xpu:{rank}"` is some accelerator, its index not known."""
    from torchplace_rules.flow.devices import RUNTIME, runtime_device
    from torchplace_rules.flow.expressions import device_type

    assert runtime_device("cuda:").label == RUNTIME and device_type(runtime_device("cuda:")) == "cuda"
    assert runtime_device("xpu:").label == "target" and device_type(runtime_device("xpu:")) is None
