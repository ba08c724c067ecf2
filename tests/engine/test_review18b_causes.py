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


# T2: the load is in `__init__` of a class every construction of which is moved to CUDA in the same
# statement (`Network(p).cuda()`): no machine without CUDA gets past that statement, so `map_location`
# saves none.  (`device=x.device` in `forward` is what gives the file a CPU path.)
BUILT_FOR_CUDA = """\
    class Network(nn.Module):
        def __init__(self, path):
            super().__init__()
            self.conv = nn.Conv2d(3, 1, 1)
            self.load_state_dict({{k: v for k, v in torch.load(path).items()}})

        def forward(self, x):
            return self.conv(x - torch.ones(3, device=x.device).view(1, 3, 1, 1))

    class Detector:
        def __init__(self):
            self.net = {build}
"""


def test_t2_a_class_only_built_onto_cuda_loads_where_cuda_is():
    assert_findings(H, BUILT_FOR_CUDA.format(build='Network("w.pth").cuda().eval()'), set())


def test_t2_twin_a_construction_moved_to_a_chosen_device():
    build = 'Network("w.pth").to("cuda" if torch.cuda.is_available() else "cpu")'
    assert_findings(H, BUILT_FOR_CUDA.format(build=build), {(5, "TP204")})


def test_t2_twin_a_second_construction_without_cuda():
    body = BUILT_FOR_CUDA.format(build='Network("w.pth").cuda().eval()') + "\n    cpu_net = Network('w.pth')\n"
    assert_findings(H, body, {(5, "TP204")})


def test_t2_twin_a_subclass_is_built_elsewhere():
    body = BUILT_FOR_CUDA.format(build='Network("w.pth").cuda().eval()') + "\n    class Big(Network):\n        pass\n"
    assert_findings(H, body, {(5, "TP204")})


def test_t2_twin_the_cuda_call_is_conditional():
    build = 'Network("w.pth").cuda() if torch.cuda.is_available() else Network("w.pth")'
    assert_findings(H, BUILT_FOR_CUDA.format(build=build), {(5, "TP204")})


# T3: a fresh temporary directory from the test file's own `@contextmanager` helper, that the test hands
# to nothing before the load: what the load finds there, this run's code wrote (here a patched default).
TEMP_HELPER = """\
    import contextlib
    import os
    import tempfile
    from unittest.mock import patch

    device = "cuda" if torch.cuda.is_available() else "cpu"

    @contextlib.contextmanager
    def env_with_temp(target):
        d = {made}
        patched = patch(target, return_value=d.name)
        patched.start()
        yield d.name
        patched.stop()

    def test_resume(trainer):
        with env_with_temp("pkg.get_save_dir") as tmp_d:
            {before}trainer.fit()
            ckpt = torch.load(os.path.join(tmp_d, "current.ckpt"))
        return ckpt
"""


def test_t3_a_temporary_directory_told_to_nothing_holds_this_runs_files():
    assert_findings(H, TEMP_HELPER.format(made="tempfile.TemporaryDirectory()", before=""), set())


def test_t3_twin_a_directory_handed_to_a_download_first():
    body = TEMP_HELPER.format(made="tempfile.TemporaryDirectory()", before="fetch_weights(tmp_d)\n            ")
    assert_findings(H, body, {(20, "TP204")})


def test_t3_twin_the_helper_yields_a_lasting_directory():
    assert_findings(H, TEMP_HELPER.format(made="open_store()", before=""), {(19, "TP204")})
