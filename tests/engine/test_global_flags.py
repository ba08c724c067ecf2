"""Flags a function reads from module level (recall16b, s16; netdissect's `if settings.GPU:`): a literal
`True`/`False`/int bound once at module level decides a function's `if` as it decides module code's,
unless something may rebind it (a `global` statement, a later module-level binding, an importer's
`mod.FLAG = ...`, a local of the same name).  A literal `if True:` / `if False:` is decided too.
Lines count from the snippet; the cross-file tests write a small project."""
import textwrap
from pathlib import Path

import pytest

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex

from .snippets import assert_findings

H = "import numpy as np\nimport torch\nimport torch.nn as nn\n"

MOVED_UNDER_FLAG = """\
    GPU = True

    def run():
        model = nn.Linear(3, 3)
        if GPU:
            model = model.cuda()
        return model(torch.zeros(2, 3))
    """

CASES = {
    "module-level True flag decides a function's if": (MOVED_UNDER_FLAG, {(7, "TP102")}),
    "negated flag": (MOVED_UNDER_FLAG.replace("GPU = True", "CPU_ONLY = False").replace("if GPU:", "if not CPU_ONLY:"),
                     {(7, "TP102")}),
    "int flag": (MOVED_UNDER_FLAG.replace("GPU = True", "GPU = 1"), {(7, "TP102")}),
    "int flag compared": (MOVED_UNDER_FLAG.replace("GPU = True", "GPU_MODE = 1").replace("if GPU:", "if GPU_MODE == 1:"),
                          {(7, "TP102")}),
    "flag in a method": ("""\
        USE_CUDA = True

        class Runner:
            def extract(self):
                x = torch.zeros(2, 3)
                if USE_CUDA:
                    x = x.cuda()
                return np.isnan(x.max())
        """, {(8, "TP104")}),
    # twins: something may rebind the flag, or the name is not the global
    "a global statement may rebind it": (MOVED_UNDER_FLAG + """\

        def set_gpu(mode):
            global GPU
            GPU = mode
        """, set()),
    "module code binds it again": (MOVED_UNDER_FLAG + """\

        GPU = torch.cuda.device_count() > 1
        """, set()),
    "a parameter of the same name": (MOVED_UNDER_FLAG.replace("def run():", "def run(GPU):"), set()),
    "a local of the same name": (MOVED_UNDER_FLAG.replace("model = nn.Linear(3, 3)", "model = nn.Linear(3, 3)\n        GPU = len(model.weight) > 4"),
                                 set()),
    "flag False: the branch is not run": (MOVED_UNDER_FLAG.replace("GPU = True", "GPU = False"), set()),
    # literal tests
    "literal if True": ("""\
        def run():
            x = torch.zeros(2, 3)
            if True:
                x = x.cuda()
            return x.numpy()
        """, {(5, "TP104")}),
    "literal if False skips its body": ("""\
        def run():
            x = torch.zeros(2, 3, device="cuda")
            if False:
                x = x.cpu()
            return x.numpy()
        """, {(5, "TP104")}),
    "literal if 0 with an else": ("""\
        def run():
            x = torch.zeros(2, 3)
            if 0:
                pass
            else:
                x = x.cuda()
            return x.numpy()
        """, {(7, "TP104")}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_flag(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def _found(project: Path, name: str) -> set:
    return {(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=ProjectIndex(project))
            if f.severity <= 2}


SETTINGS = "GPU = True\nBATCH_SIZE = 4\n"
FEATURES = """\
    import numpy as np
    import torch

    import settings


    def extract(batch):
        x = torch.from_numpy(batch)
        if settings.GPU:
            x = x.cuda()
        while np.isnan(x.max()):
            x = x * 0
        return x
"""


def test_a_settings_module_flag_decides_a_function_if(tmp_path):
    project = _project(tmp_path, {"settings.py": SETTINGS, "features.py": FEATURES})
    assert _found(project, "features.py") == {(11, "TP104")}


def test_an_importer_that_rebinds_the_flag_leaves_it_undecided(tmp_path):
    main = "import settings\nimport features\n\nsettings.GPU = False\nfeatures.extract(None)\n"
    project = _project(tmp_path, {"settings.py": SETTINGS, "features.py": FEATURES, "main.py": main})
    assert _found(project, "features.py") == set()


def test_the_checked_file_rebinding_the_flag_leaves_it_undecided(tmp_path):
    rebinding = FEATURES + "\n\n    def configure(gpu):\n        settings.GPU = gpu\n"
    project = _project(tmp_path, {"settings.py": SETTINGS, "features.py": rebinding})
    assert _found(project, "features.py") == set()


def test_a_settings_module_with_a_global_statement_leaves_it_undecided(tmp_path):
    settings = SETTINGS + "\n\ndef use_cpu():\n    global GPU\n    GPU = False\n"
    project = _project(tmp_path, {"settings.py": settings, "features.py": FEATURES})
    assert _found(project, "features.py") == set()


def test_an_importer_that_rebinds_a_flag_of_the_checked_file(tmp_path):
    own = "import torch\nimport torch.nn as nn\n\n" + textwrap.dedent(MOVED_UNDER_FLAG)
    main = "import runner\n\nrunner.GPU = False\nrunner.run()\n"
    assert _found(_project(tmp_path, {"runner.py": own}), "runner.py") == {(10, "TP102")}
    assert _found(_project(tmp_path, {"runner.py": own, "main.py": main}), "runner.py") == set()
