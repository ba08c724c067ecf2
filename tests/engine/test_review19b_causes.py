"""False findings of the s19 fresh precision review of 18 repositories, review19b's domain
(benchmarks/review/false_finding_causes.md, causes N1...), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
from .snippets import assert_findings

H = "import numpy as np\nimport torch\nimport torch.nn as nn\n"

# N1: the output of a module whose class the code does not know is taken for a tensor on the module's
# device; a string key into a part of it (`extra["preds"]`) is one no tensor takes (torch 2.13 raises,
# `test_a_tensor_takes_no_string_key`), so that part is some other object (a dict of NumPy arrays).
UNKNOWN_MODEL = """\
    def evaluate(model, loader, device):
        for data in loader:
            data = data.to(device)
            logits, extra = model(data)
            preds = extra[{key}]
            return np.array(preds)

    def main(model, loader):
        device = torch.device("cuda")
        model.to(device)
        evaluate(model, loader, device)
"""


def test_n1_a_string_key_into_an_unknown_model_output_is_no_tensor():
    assert_findings(H, UNKNOWN_MODEL.format(key='"preds"'), set())


def test_n1_a_string_held_in_a_name_is_a_key_too():
    body = UNKNOWN_MODEL.replace("extra[{key}]", "extra[key]").replace("for data in loader:",
                                                                       "key = \"preds\"\n        for data in loader:")
    assert_findings(H, body, set())


def test_n1_twin_an_integer_index_keeps_the_tensor():
    assert_findings(H, UNKNOWN_MODEL.format(key="0"), {(6, "TP104")})


def test_n1_twin_a_whole_output_read_by_string_key_stays_a_tensor():
    # (a whole output may be a mapping of tensors on the model's device: a ModelOutput's `out["logits"]`)
    body = UNKNOWN_MODEL.replace("logits, extra = model(data)", "extra = model(data)")
    assert_findings(H, body.format(key='"logits"'), {(6, "TP104")})


def test_n1_twin_a_known_output_read_by_string_key_stays_what_it_holds():
    body = """\
        model = nn.Linear(3, 2).cuda()
        out = {"preds": model(torch.ones(4, 3, device="cuda"))}
        arr = np.array(out["preds"])
    """
    assert_findings(H, body, {(3, "TP104")})


# N4: `torch.device("cuda:0")` calls the class `torch.device`; it was read as a tensor's `.device` (code
# that follows its data, with a CPU path), so a CUDA-only trainer seemed to have one.
CUDA_TRAINER = """\
    device = torch.device({device})
    model = nn.Linear(3, 2)
    model.to(device)
    resume = None
    if resume is not None:
        checkpoint = torch.load(resume)
        model.load_state_dict(checkpoint["model"])
"""


def test_n4_torch_device_of_an_accelerator_literal_is_no_cpu_path():
    assert_findings(H, CUDA_TRAINER.format(device='"cuda:0"'), set())


def test_n4_torch_device_with_an_index_is_no_cpu_path_either():
    assert_findings(H, CUDA_TRAINER.format(device='"cuda", 0'), set())


def test_n4_twin_a_device_chosen_at_run_time_is_reported():
    device = '"cuda:0" if torch.cuda.is_available() else "cpu"'
    assert_findings(H, CUDA_TRAINER.format(device=device), {(6, "TP204")})


def test_n4_twin_a_tensor_device_read_is_still_a_cpu_path():
    # (without the move before the load: a `.to()` of a fixed CUDA device there alone makes the load GPU-only, s19 S7)
    body = CUDA_TRAINER.format(device='"cuda:0"').replace("    model.to(device)\n", "") + \
        "    def follow(x):\n        return torch.ones(2, device=x.device)\n"
    assert_findings(H, body, {(5, "TP204")})


# N2: a loader in a library module that reads `w.device` elsewhere (device-agnostic on its own), called
# only by programs that put everything on CUDA with no CPU path: the load runs only where a GPU is.
LIBRARY = """\
import torch


def orthogonal(w):
    return w - torch.eye(w.shape[0], device=w.device)


def noise(n, device="cuda"):
    return torch.randn(n, 8, device=device)


def load_weights(model, root):
    model.load_state_dict(torch.load(root + "/G.pth"))
"""
CUDA_PROGRAM = """\
import torch
import utils

device = "cuda"
model = torch.nn.Linear(3, 2).to(device)
utils.load_weights(model, "weights")
"""
CPU_PATH_PROGRAM = CUDA_PROGRAM.replace('"cuda"', '"cuda" if torch.cuda.is_available() else "cpu"')


def _library_project(tmp_path, programs: dict):
    from torchplace_rules import Config, Severity, check_path
    from torchplace_rules.project_index import ProjectIndex
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "utils.py").write_text(LIBRARY)
    for name, text in programs.items():
        (tmp_path / name).write_text(text)
    return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "utils.py", Config(),
                                                                project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_n2_a_library_loader_called_only_by_cuda_only_programs_is_quiet(tmp_path):
    programs = {"train.py": CUDA_PROGRAM, "sample.py": CUDA_PROGRAM.replace(".to(device)", ".cuda()")}
    assert _library_project(tmp_path, programs) == []


def test_n2_twin_one_caller_with_a_cpu_path_is_reported(tmp_path):
    assert _library_project(tmp_path, {"train.py": CUDA_PROGRAM, "eval.py": CPU_PATH_PROGRAM}) == [(13, "TP204")]


def test_n2_twin_no_importer_calls_the_loader(tmp_path):
    other = CUDA_PROGRAM.replace('utils.load_weights(model, "weights")', "utils.orthogonal(model.weight)")
    assert _library_project(tmp_path, {"train.py": other}) == [(13, "TP204")]


# N3: the checkpoint path comes from a path lambda of the script, called with the epoch by the run's own
# `torch.save` and with the best epoch by the load after the loop: one template, written by this run.
PATH_LAMBDA = """\
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(3, 2).to(device)
    ckpt = lambda epoch: f"./saved_checkpoints/run-{{epoch}}.pth"
    other = lambda epoch: f"./pretrained/model-{{epoch}}.pth"
    best = 0
    for epoch in range(10):
        {save}
    model.load_state_dict(torch.load({load}(best)))
"""


def test_n3_a_path_lambda_saved_earlier_in_the_run_is_this_runs_file():
    body = PATH_LAMBDA.format(save="torch.save(model.state_dict(), ckpt(epoch))", load="ckpt")
    assert_findings(H, body, set())


def test_n3_twin_another_lambda_is_another_file():
    body = PATH_LAMBDA.format(save="torch.save(model.state_dict(), ckpt(epoch))", load="other")
    assert_findings(H, body, {(8, "TP204")})


def test_n3_twin_nothing_saved_before_the_load():
    body = PATH_LAMBDA.format(save="pass", load="ckpt")
    assert_findings(H, body, {(8, "TP204")})
