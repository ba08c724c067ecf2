"""TP204 across files: a `torch.load` helper in a file that picks no device, run by a program that
does (CMT's utils._load, Beta-CROWN's load_model), and entries read from a loaded checkpoint
(`torch.load(p)["state_dict"]`) unless the project writes its checkpoints from the CPU (BasicSR's
save_network stores `param.cpu()` under "params": review cause 15)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, Severity, check_path
from torchplace_rules.project_index import ProjectIndex


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def _warnings(project: Path, name: str):
    return [(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=ProjectIndex(project))
            if f.severity <= Severity.WARNING]


UTILS = """\
    import torch


    def _load(checkpoint_path):
        checkpoint = torch.load(checkpoint_path)
        return checkpoint


    def load_checkpoint(path, model):
        checkpoint = _load(path)
        model.load_state_dict(checkpoint["state_dict"])
        return model
"""

DEMO = """\
    import argparse

    import torch
    from torch import nn

    from utils import load_checkpoint

    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="./checkpoint/best.pth")
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = load_checkpoint(args.ckpt, nn.Linear(4, 2))
    net = net.to(device).eval()
"""


def test_a_load_helper_is_run_by_a_program_with_a_cpu_path(tmp_path):
    project = _project(tmp_path, {"utils.py": UTILS, "demo.py": DEMO})
    assert _warnings(project, "utils.py") == [(5, "TP204")]


def test_a_load_helper_of_a_cuda_only_program_is_quiet(tmp_path):
    demo = DEMO.replace('device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n', "") \
        .replace("net.to(device)", "net.cuda()")
    project = _project(tmp_path, {"utils.py": UTILS, "demo.py": demo})
    assert _warnings(project, "utils.py") == []


def test_a_load_helper_of_a_program_that_writes_checkpoints_is_quiet(tmp_path):
    demo = DEMO + "    torch.save(net.state_dict(), args.ckpt)\n"
    project = _project(tmp_path, {"utils.py": UTILS, "demo.py": demo})
    assert _warnings(project, "utils.py") == []


def test_a_load_helper_nobody_calls_from_a_device_choosing_program_is_quiet(tmp_path):
    demo = DEMO.replace("from utils import load_checkpoint", "from utils import _load as load_weights") \
        .replace("net = load_checkpoint(args.ckpt, nn.Linear(4, 2))", "net = nn.Linear(4, 2)")
    project = _project(tmp_path, {"utils.py": UTILS, "demo.py": demo})
    assert _warnings(project, "utils.py") == []


ALIGNMENT = """\
    import torch
    from torch import nn


    def init_alignment_model(model_path, device="cuda"):
        model = nn.Linear(4, 2)
        model.load_state_dict(torch.load(model_path)["state_dict"], strict=True)
        model.eval()
        return model.to(device)
"""

SAVER = """\
    import torch


    def save_network(net, path, param_key="state_dict"):
        state_dict = net.state_dict()
        for key, param in state_dict.items():
            state_dict[key] = param.cpu()
        torch.save({param_key: state_dict}, path)
"""


def test_an_entry_of_a_loaded_checkpoint_is_weights(tmp_path):
    project = _project(tmp_path, {"alignment.py": ALIGNMENT})
    assert _warnings(project, "alignment.py") == [(7, "TP204")]


def test_an_entry_of_a_checkpoint_the_project_writes_from_the_cpu_is_quiet(tmp_path):
    project = _project(tmp_path, {"alignment.py": ALIGNMENT, "models/base_model.py": SAVER})
    assert _warnings(project, "alignment.py") == []


def test_a_checkpoint_loaded_whole_is_reported_whatever_the_project_writes(tmp_path):
    # (unchanged: the CPU writer must be linked to the reader for the whole object, review cause 15)
    whole = ALIGNMENT.replace('torch.load(model_path)["state_dict"]', "torch.load(model_path)")
    project = _project(tmp_path, {"alignment.py": whole, "models/base_model.py": SAVER})
    assert _warnings(project, "alignment.py") == [(7, "TP204")]


def test_the_cpu_writer_is_found_from_the_project_root_when_the_index_serves_any_project(tmp_path):
    # `torchplace check` gives its workers an index with no root: the project is found from the file
    project = _project(tmp_path, {"inference/alignment.py": ALIGNMENT, "models/base_model.py": SAVER})
    found = check_path(project / "inference/alignment.py", Config(), project=ProjectIndex())
    assert [f.code for f in found if f.severity <= Severity.WARNING] == []


SETUP = """\
    import torch


    def default_setup(args):
        if not args.no_cuda and torch.cuda.is_available():
            args.device = "cuda"
        else:
            args.device = "cpu"
"""

DEMO_WITH_SETUP = """\
    import argparse

    from torch import nn

    from utils import load_checkpoint
    from setup import default_setup

    parser = argparse.ArgumentParser()
    parser.add_argument("--ckpt", default="./checkpoint/best.pth")
    args = parser.parse_args()
    default_setup(args)

    net = load_checkpoint(args.ckpt, nn.Linear(4, 2)).to(args.device)
"""


def test_a_load_helper_is_run_by_a_program_whose_device_a_project_helper_chooses(tmp_path):
    # SegmenTron's demo.py: `default_setup(args)` sets `args.device` to "cuda" or "cpu"
    project = _project(tmp_path, {"utils.py": UTILS, "setup.py": SETUP, "demo.py": DEMO_WITH_SETUP})
    assert _warnings(project, "utils.py") == [(5, "TP204")]


def test_a_device_helper_the_program_does_not_call_chooses_nothing(tmp_path):
    demo = DEMO_WITH_SETUP.replace("default_setup(args)\n", "")
    project = _project(tmp_path, {"utils.py": UTILS, "setup.py": SETUP, "demo.py": demo})
    assert _warnings(project, "utils.py") == []


def test_a_device_helper_without_a_cpu_path_is_quiet(tmp_path):
    setup = """\
        def default_setup(args):
            args.device = "cuda"
    """
    project = _project(tmp_path, {"utils.py": UTILS, "setup.py": setup, "demo.py": DEMO_WITH_SETUP})
    assert _warnings(project, "utils.py") == []


def test_a_called_helper_that_writes_a_checkpoint_is_quiet(tmp_path):
    setup = SETUP + "        torch.save({}, args.ckpt)\n"
    project = _project(tmp_path, {"utils.py": UTILS, "setup.py": setup, "demo.py": DEMO_WITH_SETUP})
    assert _warnings(project, "utils.py") == []
