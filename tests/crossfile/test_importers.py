"""Who calls a checked file's functions from other project files (its importers), and what they
pass: importers found through package re-exports and in the project's other top-level folders,
module objects built from an imported class, and findings that never depend on the order in
which the files of one run were checked."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _findings(project: Path, name: str, index=None) -> list:
    index = index if index is not None else ProjectIndex(project)
    return [(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=index)]


def _check_in_order(project: Path, names: list) -> dict:
    """Every file checked with one index (as a CLI run does), in the order given."""
    index = ProjectIndex(project)
    return {name: _findings(project, name, index) for name in names}


# -- the order of checks ------------------------------------------------------------------------
ORDER_FILES = {
    "constants.py": """\
        import torch

        DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
    """,
    "ops.py": """\
        import torch
        from constants import DEVICE

        def prepare(x):
            return x.to(DEVICE)

        def combine(a, b):
            return a + b
    """,
    "run.py": """\
        import torch
        from ops import combine, prepare

        def main():
            a = prepare(torch.zeros(3))
            return combine(a, torch.ones(3))
    """,
}


def test_what_an_importer_passes_does_not_depend_on_the_files_checked_before(tmp_path):
    # (sa_convlstm: run.py builds the Trainer, whose __init__ moves the model to trainer.py's imported
    # DEVICE.  The importer's summary read the checked file without its imports, unless a check of the
    # importer had summarised it in full before: the finding came and went with the order of files.)
    project = _project(tmp_path, ORDER_FILES)
    names = sorted(ORDER_FILES)
    forward = _check_in_order(project, names)
    backward = _check_in_order(project, names[::-1])
    alone = {name: _findings(project, name) for name in names}
    assert forward == backward == alone
    assert forward["ops.py"] == [(8, "TP101")]  # `a` comes back from prepare() on DEVICE
