"""TP204: a checkpoint another method of the same object wrote before every call of the loading
method (session 18, cause R2; PatchTST/Informer2020 `exp.train(setting)` then `exp.predict(setting,
True)` from a driver script in another file): read in the process that wrote it, no finding.  One
call of the loader that no such write precedes keeps it."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, Severity, check_path
from torchplace_rules.project_index import ProjectIndex

EXP = """\
    import os

    import torch
    from torch import nn


    class EarlyStopping:
        def __call__(self, val_loss, model, path):
            torch.save(model.state_dict(), path + "/" + "checkpoint.pth")


    class Exp:
        def __init__(self, args):
            self.args = args
            self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            self.model = nn.Linear(4, 2).to(self.device)

        def train(self, setting):
            path = os.path.join(self.args.checkpoints, setting)
            early_stopping = EarlyStopping()
            for epoch in range(3):
                early_stopping(1.0, self.model, path)

        def predict(self, setting, load=False):
            if load:
                path = os.path.join(self.args.checkpoints, setting)
                self.model.load_state_dict(torch.load(path + "/" + "checkpoint.pth"))
"""

RUN = """\
    import argparse

    from exp.exp_main import Exp

    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoints", default="./checkpoints/")
    parser.add_argument("--itr", type=int, default=2)
    args = parser.parse_args()

    for ii in range(args.itr):
        setting = "run_" + str(ii)
        exp = Exp(args)
        exp.train({trained})
        exp.predict(setting, True)
"""


def _warnings(tmp_path: Path, run: str) -> list:
    (tmp_path / ".git").mkdir()
    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "__init__.py").write_text("")
    (tmp_path / "exp" / "exp_main.py").write_text(textwrap.dedent(EXP))
    (tmp_path / "run.py").write_text(textwrap.dedent(run))
    return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "exp" / "exp_main.py", Config(),
                                                                project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_r2_every_call_of_the_loader_follows_the_writer_on_the_same_object(tmp_path):
    assert _warnings(tmp_path, RUN.format(trained="setting")) == []


def test_r2_twin_the_writer_was_given_another_setting(tmp_path):
    assert _warnings(tmp_path, RUN.format(trained="'other'")) == [(27, "TP204")]


def test_r2_twin_a_call_of_the_loader_without_training_first(tmp_path):
    run = RUN.format(trained="setting") + "exp = Exp(args)\nexp.predict('run_0', True)\n"
    assert _warnings(tmp_path, run) == [(27, "TP204")]


def test_r2_twin_the_setting_rebound_between_the_calls(tmp_path):
    run = RUN.format(trained="setting").replace("    exp.predict(", "    setting = setting + '_eval'\n    exp.predict(")
    assert _warnings(tmp_path, run) == [(27, "TP204")]


def test_r2_twin_the_writer_called_on_another_object(tmp_path):
    run = RUN.format(trained="setting").replace("exp.train(", "Exp(args).train(")
    assert _warnings(tmp_path, run) == [(27, "TP204")]


def test_r2_twin_no_caller_in_the_project(tmp_path):
    assert _warnings(tmp_path, "import exp.exp_main\n") == [(27, "TP204")]
