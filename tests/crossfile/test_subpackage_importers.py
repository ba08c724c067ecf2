"""Importers in a subpackage of the checked file's package (pkg/_trainers/trainer.py calling a helper of
pkg/_utils.py) are callers like those beside it or above it: what they pass reaches the helper.
(SpectralNet #4: the trainer in spectralnet/_trainers/ star-imports spectralnet/_utils.py and hands it
CUDA batches; the helper appends CPU rows to them.)"""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex

HELPER = """\
    import torch

    def make_batch(batch_x):
        rows = torch.tensor([[0.5, 0.5]])
        return torch.cat((batch_x, rows))
"""

TRAINER = """\
    import torch
    {import_line}

    class Trainer:
        def __init__(self, device):
            self.device = device

        def train(self, X):
            X = X.to(self.device)
            return make_batch(X)

    if __name__ == "__main__":
        Trainer(torch.device("{device}")).train(torch.randn(10, 2))
"""


def _project(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _layout(tmp_path: Path, helper: str, trainer: str, import_line: str, moved: bool = True) -> Path:
    package = helper.split("/")[0]
    text = TRAINER.format(import_line=import_line, device="cuda")
    if not moved:
        text = text.replace("X = X.to(self.device)", "X = X.float()")
    files = {f"{package}/__init__.py": "", helper: HELPER, trainer: text}
    sub = trainer.rsplit("/", 1)[0]
    if sub != package:
        files[f"{sub}/__init__.py"] = ""
    return _project(tmp_path, files)


def _findings(project: Path, name: str) -> list:
    return [(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=ProjectIndex(project))]


def test_an_absolute_import_from_a_subpackage_is_an_importer(tmp_path):
    project = _layout(tmp_path, "pkg/utils.py", "pkg/trainers/trainer.py", "from pkg.utils import make_batch")
    assert ProjectIndex(project).importers.importers_of(project / "pkg/utils.py") == [project / "pkg/trainers/trainer.py"]
    assert _findings(project, "pkg/utils.py") == [(5, "TP101")]


def test_a_relative_import_from_a_private_subpackage_is_an_importer(tmp_path):
    project = _layout(tmp_path, "pkg/_utils.py", "pkg/_trainers/trainer.py", "from .._utils import make_batch")
    assert _findings(project, "pkg/_utils.py") == [(5, "TP101")]


def test_a_star_import_from_a_subpackage_is_an_importer(tmp_path):
    project = _layout(tmp_path, "pkg/_utils.py", "pkg/_trainers/trainer.py", "from pkg._utils import *")
    assert _findings(project, "pkg/_utils.py") == [(5, "TP101")]


def test_a_subpackage_caller_that_passes_host_tensors_is_quiet(tmp_path):
    project = _layout(tmp_path, "pkg/_utils.py", "pkg/_trainers/trainer.py", "from .._utils import make_batch",
                      moved=False)
    assert _findings(project, "pkg/_utils.py") == []


def test_callers_beside_and_above_are_still_found(tmp_path):
    # (what was read before: the file's folder and those above it)
    project = _layout(tmp_path, "pkg/_utils.py", "pkg/trainer.py", "from pkg._utils import make_batch")
    assert _findings(project, "pkg/_utils.py") == [(5, "TP101")]
