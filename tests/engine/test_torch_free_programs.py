"""A program that names no torch but calls what the project's code made (flow/driver._runs_project_code): a
README's usage snippet as a script (gpfm: `model = get_model('GPFM', 0, 1)`, `img = transformer(img)`,
`model(img)`) gets its modules and tensors from the project's modules, so it is analysed like any file of
the project (a script that only calls the project's functions is not: reading every such file costs);
and `module.__dict__["name"]` of a project module is its member `name` (flow/cross_file.module_dict_item).
"""
import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex

MODELS = """\
import torch
import torch.nn as nn


def build(device):
    net = nn.Linear(4, 2)
    net.to(device)
    return net


def image():
    return torch.ones(1, 4)
"""


def _project(tmp_path: Path, script: str, models: str = MODELS) -> list:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "models.py").write_text(models)
    (tmp_path / "example.py").write_text(textwrap.dedent(script))
    return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "example.py", Config(),
                                                                 project=ProjectIndex(tmp_path))]


def test_a_torch_free_script_calling_the_project_is_analysed(tmp_path: Path):
    script = """\
        from models import build, image

        model = build(0)
        feat = model(image())
        """
    assert _project(tmp_path, script) == [(4, "TP102")]


def test_its_main_block_is_read_too(tmp_path: Path):
    script = """\
        from models import build, image

        if __name__ == "__main__":
            model = build(0)
            print(model(image()))
        """
    assert _project(tmp_path, script) == [(5, "TP102")]


def test_a_torch_free_script_placing_both_is_quiet(tmp_path: Path):
    script = """\
        from models import build, image

        model = build("cpu")
        feat = model(image())
        """
    assert _project(tmp_path, script) == []


def test_a_torch_free_library_module_is_not_read(tmp_path: Path):
    """Definitions only: what its functions get is their callers' business (and reading such files costs)."""
    script = """\
        from models import build, image


        def run():
            model = build(0)
            return model(image())
        """
    assert _project(tmp_path, script) == []


def test_a_project_module_dict_item_is_its_member(tmp_path: Path):
    models = MODELS + '\n\ndef get(name, device):\n    import models as registry\n' \
                      '    return registry.__dict__["build"](device)\n'
    script = """\
        import torch
        from models import get

        model = get("GPFM", "cuda")
        feat = model(torch.ones(1, 4))
        """
    assert _project(tmp_path, script, models) == [(5, "TP102")]


def test_a_module_dict_item_of_a_key_not_written_out_is_unknown(tmp_path: Path):
    models = MODELS + '\n\ndef get(name, device):\n    import models as registry\n' \
                      '    return registry.__dict__[name](device)\n'
    script = """\
        import torch
        from models import get

        model = get("build", "cuda")
        feat = model(torch.ones(1, 4))
        """
    assert _project(tmp_path, script, models) == []


def test_a_script_that_only_calls_the_projects_functions_is_not_read(tmp_path: Path):
    script = """\
        from models import build, image

        build(0)
        print(image())
        """
    assert _project(tmp_path, script) == []
