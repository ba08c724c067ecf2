"""An importer that star-imports the checked file (`from ._utils import *`) calls into it like one that
names what it imports: its functions that call those names are run for what *its* importers pass
them (hop 2), so a device chosen two modules away reaches the helper.  (SpectralNet #4: the trainer
star-imports spectralnet/_utils.py; SpectralNet.fit builds the trainer with the CUDA device.)"""
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

    def _private(x):
        return x
"""

TRAINER = """\
    import torch
    {import_line}

    class Trainer:
        def __init__(self, device):
            self.device = device

        def train(self, X):
            X = {moved}
            return make_batch(X)
"""

CLUSTER = """\
    import torch
    from .trainer import Trainer

    class Net:
        def __init__(self):
            self.device = torch.device("cuda")

        def fit(self, X):
            self.trainer = Trainer(device=self.device)
            return self.trainer.train(X)

    if __name__ == "__main__":
        Net().fit(torch.randn(10, 2))
"""


def _findings(tmp_path: Path, import_line: str, moved: str = "X.to(self.device)") -> list:
    files = {"pkg/__init__.py": "", "pkg/_utils.py": HELPER, "pkg/cluster.py": CLUSTER,
             "pkg/trainer.py": TRAINER.format(import_line=import_line, moved=moved)}
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    target = tmp_path / "pkg/_utils.py"
    return [(f.span.start_line + 1, f.code) for f in check_path(target, Config(), project=ProjectIndex(tmp_path))]


def test_a_relative_star_import_passes_on_what_the_importers_importer_gives(tmp_path):
    assert _findings(tmp_path, "from ._utils import *") == [(5, "TP101")]


def test_an_absolute_star_import_passes_on_what_the_importers_importer_gives(tmp_path):
    assert _findings(tmp_path, "from pkg._utils import *") == [(5, "TP101")]


def test_the_named_import_still_does(tmp_path):
    assert _findings(tmp_path, "from ._utils import make_batch") == [(5, "TP101")]


def test_a_star_importer_that_passes_host_tensors_is_quiet(tmp_path):
    assert _findings(tmp_path, "from ._utils import *", moved="X.float()") == []
