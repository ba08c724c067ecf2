"""False findings of the s18 fresh precision review of 14 repositories, review18b's domain
(benchmarks/review/false_finding_causes.md, causes T1...), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"

# T1: `F.ctc_loss` copies its two length tensors to the CPU and reads them as integers (LossCTC.cpp; the
# truth test `test_ctc_loss_reads_its_lengths_as_numbers`): CPU lengths with CUDA log-probs are the usual call.
CTC = """\
    class Rec(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(8, 5)

        def forward(self, x, gt, seq_len):
            out = self.head(x)
            input_length = out.shape[1] * torch.ones(size=(out.shape[0],), dtype=torch.int32)
            probs = F.log_softmax(out.permute(1, 0, 2), dim=-1)
            return {use}

    model = Rec().cuda()
"""


def test_t1_ctc_loss_takes_cpu_lengths():
    assert_findings(H, CTC.format(use="F.ctc_loss(probs, gt, input_length, seq_len, zero_infinity=True)"), set())


def test_t1_twin_cpu_lengths_in_arithmetic_with_the_output():
    assert_findings(H, CTC.format(use="probs * input_length"), {(8, "TP202")})
