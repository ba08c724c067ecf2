"""TP202: a module of a folder of scripts (no `__init__.py`) that only the folder's programs import, in a
folder that names no accelerator or device anywhere, is never put on a GPU by the project (session 18,
cause R3; DGL's CPU-only `examples/pytorch/dgmg/model.py`).  Twins: a program that moves the model, a
sibling file that names a device, a package folder (others may import it), no importer at all."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, Severity, check_path
from torchplace_rules.project_index import ProjectIndex

from crossfile_counting_index import CountingIndex, assert_read_once_per_version

MODEL = """\
    import torch
    import torch.nn as nn


    class Gen(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(4, 8)
            self.lin = nn.Linear(16, 8)

        def forward(self, h, node_type):
            e = self.embed(torch.LongTensor([node_type]))
            return self.lin(torch.cat([e, h], dim=1))
"""

MAIN = """\
    import torch
    from model import Gen

    if __name__ == "__main__":
        model = Gen(){move}
        out = model(torch.randn(1, 8), 2)
"""


def _warnings(tmp_path: Path, files: dict) -> list:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    folder = tmp_path / "examples" / "gen"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return [(f.span.start_line + 1, f.code) for f in check_path(folder / "model.py", Config(), project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_r3_a_module_of_cpu_only_scripts_is_never_on_a_gpu(tmp_path):
    assert _warnings(tmp_path, {"model.py": MODEL, "main.py": MAIN.format(move="")}) == []


def test_r3_twin_the_program_moves_the_model(tmp_path):
    files = {"model.py": MODEL, "main.py": MAIN.format(move=".cuda()")}
    assert _warnings(tmp_path, files) == [(12, "TP202")]


def test_r3_twin_a_sibling_names_a_device(tmp_path):
    files = {"model.py": MODEL, "main.py": MAIN.format(move=""), "utils.py": "def setup(device):\n    return device\n"}
    assert _warnings(tmp_path, files) == [(12, "TP202")]


def test_r3_twin_a_package_folder_may_be_imported_from_elsewhere(tmp_path):
    files = {"model.py": MODEL, "main.py": MAIN.format(move=""), "__init__.py": ""}
    assert _warnings(tmp_path, files) == [(12, "TP202")]


def test_r3_twin_a_module_nobody_imports_is_library_code(tmp_path):
    assert _warnings(tmp_path, {"model.py": MODEL}) == [(12, "TP202")]


def test_r3_a_re_check_reads_no_sibling_again_and_a_changed_sibling_is_seen(tmp_path):
    files = {"model.py": MODEL, "main.py": MAIN.format(move=""), "utils.py": "def setup(n):\n    return n\n"}
    assert _warnings(tmp_path, files) == []
    folder = tmp_path / "examples" / "gen"
    project = CountingIndex(tmp_path)

    def check():
        return [(f.span.start_line + 1, f.code) for f in check_path(folder / "model.py", Config(), project=project)
                if f.severity <= Severity.WARNING]

    assert_read_once_per_version(project, check, [], folder / "utils.py", "def setup(device):\n    return device\n",
                                 [(12, "TP202")])
