"""A test module that names no accelerator or device runs on the CPU: the device a config holds in
the library code it calls (`policy.to(config.device)`, the config read back from a file the test wrote
with `device="cpu"`) is not the accelerator the analysis otherwise assumes a program targets.  A test
that names CUDA itself keeps the finding (LeRobot's legacy-checkpoint test, review16b cause Y5)."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex

LOADING = """\
    import torch.nn as nn


    def load(path, config=None):
        if config is None:
            config = read_config(path)
        policy = nn.Linear(2, 2)
        policy.to(config.device)
        return policy
"""

ROUNDTRIP = """\
    import torch
    import torch.nn as nn

    from pkg.loading import load


    def test_roundtrip(tmp_path):{gpu}
        saved = {{k: v.clone() for k, v in nn.Linear(2, 2).state_dict().items()}}
        policy = load(tmp_path)
        for key, tensor in policy.state_dict().items():
            assert torch.equal(tensor, saved[key]), key
"""


def _codes(tmp_path: Path, test_name: str, gpu: str) -> list:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "loading.py").write_text(textwrap.dedent(LOADING))
    (tmp_path / "tests").mkdir()
    test = tmp_path / "tests" / test_name
    test.write_text(textwrap.dedent(ROUNDTRIP.format(gpu=gpu)))
    return [f.code for f in check_path(test, Config(), project=ProjectIndex(tmp_path))]


def test_a_test_that_names_no_device_runs_the_model_where_its_config_puts_it(tmp_path):
    assert _codes(tmp_path, "test_roundtrip.py", "") == []


def test_a_test_that_names_cuda_keeps_the_assumed_accelerator(tmp_path):
    assert _codes(tmp_path, "test_roundtrip.py", "\n        torch.cuda.synchronize()") == ["TP101"]


def test_a_script_that_names_no_device_keeps_the_assumed_accelerator(tmp_path):
    """Only a test module is known to run on the CPU: a program (`train.py`) is written for the device
    its config names."""
    assert _codes(tmp_path, "roundtrip.py", "") == ["TP101"]


CHOOSING_LOADER = """\
    import torch
    import torch.nn as nn


    def load(path, config=None):
        device = "cuda" if torch.cuda.device_count() else "cpu"
        return nn.Linear(2, 2).to(device)
"""


def test_a_device_the_library_chooses_by_itself_is_kept_in_a_test_that_names_none(tmp_path):
    """AudioCraft's `AudioSeal.get_pretrained()` picks CUDA when a GPU is there: a test that feeds the
    model a CPU tensor fails on any GPU machine, whatever the test names."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "loading.py").write_text(textwrap.dedent(CHOOSING_LOADER))
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "tests").mkdir()
    test = tmp_path / "tests" / "test_model.py"
    test.write_text(textwrap.dedent("""\
        import torch
        from pkg.loading import load


        def test_model():
            model = load("w.pt")
            assert model(torch.ones(1, 2)).shape == (1, 2)
    """))
    assert [f.code for f in check_path(test, Config(), project=ProjectIndex(tmp_path))] == ["TP102"]


SIBLINGS = """\
    import pytest
    import torch
    import torch.nn as nn

    from pkg.loading import load


    @pytest.fixture{deco}
    def gpu_state():
        torch.cuda.synchronize()
        yield


    def test_on_the_gpu(gpu_state):
        torch.cuda.synchronize()

{mark}
    def test_roundtrip(tmp_path{param}):
        saved = {{k: v.clone() for k, v in nn.Linear(2, 2).state_dict().items()}}
        policy = load(tmp_path)
        for key, tensor in policy.state_dict().items():
            assert torch.equal(tensor, saved[key]), key
"""


def _sibling_codes(tmp_path: Path, deco: str = "", mark: str = "", param: str = "") -> list:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "loading.py").write_text(textwrap.dedent(LOADING))
    (tmp_path / "tests").mkdir()
    test = tmp_path / "tests" / "test_roundtrip.py"
    test.write_text(textwrap.dedent(SIBLINGS.format(deco=deco, mark=mark, param=param)))
    return [f.code for f in check_path(test, Config(), project=ProjectIndex(tmp_path))]


def test_another_test_and_a_fixture_nobody_here_requests_do_not_make_this_test_a_gpu_test(tmp_path):
    """LeRobot's legacy-checkpoint module (s17): other tests of the module request a fixture for an
    accelerator library; the round-trip test requests none of it and runs on the CPU."""
    assert _sibling_codes(tmp_path) == []


def test_a_requested_fixture_that_names_cuda_keeps_the_assumed_accelerator(tmp_path):
    assert _sibling_codes(tmp_path, param=", gpu_state") == ["TP101"]


def test_an_autouse_fixture_that_names_cuda_keeps_the_assumed_accelerator(tmp_path):
    assert _sibling_codes(tmp_path, deco="(autouse=True)") == ["TP101"]


def test_a_usefixtures_mark_keeps_the_assumed_accelerator(tmp_path):
    assert _sibling_codes(tmp_path, mark='    @pytest.mark.usefixtures("gpu_state")') == ["TP101"]


def test_a_device_parameter_of_the_test_keeps_the_assumed_accelerator(tmp_path):
    assert _sibling_codes(tmp_path, mark='    @pytest.mark.parametrize("device", ["cpu", "cuda"])',
                          param=", device") == ["TP101"]
