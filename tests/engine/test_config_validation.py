"""Configuration is validated, not trusted: every problem is named with the value used
instead, and everything valid is kept (the API the server shows messages from)."""
from torchplace_rules.config import DEFAULT_DEVICE_NAMES, Config, ConfigError, load_config, load_config_checked
from torchplace_rules.model import Severity

import pytest


def test_every_problem_is_named_and_the_rest_kept():
    config, problems = Config.parse({
        "select": ["TP1", "TP9", "mixed-devices"],
        "ignore": "TP103",
        "severity": {"TP201": "error", "TP999": "hint", "TP301": 3},
        "extra-device-names": ["gpu", "1x"],
        "per-file-ignores": {"tests/*": ["TP104"], "x.py": 5},
        "extend-exclude": 3,
        "max-file-size": -1,
        "colour": "blue",
        "enable": True,  # the editor's switch: accepted here
    })
    assert config.select == {"TP1", "TP101"} and config.ignore == {"TP103"}
    assert config.severity == {"TP201": Severity.ERROR}
    assert config.device_names == DEFAULT_DEVICE_NAMES + ("gpu",)
    assert config.per_file_ignores == {"tests/*": {"TP104"}}
    assert config.extend_exclude == () and config.max_file_size == Config().max_file_size
    text = "\n".join(problems)
    for expected in ("'select': unknown rule code or prefix 'TP9'", "'severity.TP999'", "'severity.TP301'",
                     "'1x' is not a Python name", "'per-file-ignores.x.py'", "'extend-exclude': must be a list of strings",
                     "keeping extend-exclude = []", "'max-file-size': must be a number of bytes > 0, got -1; using",
                     "unknown setting 'colour'"):
        assert expected in text, expected
    assert len(problems) == 8


def test_a_select_with_nothing_valid_falls_back_to_every_rule():
    config, problems = Config.parse({"select": ["TP9"]})
    assert config.select is None and problems[-1] == "'select': no valid rule code left; using every rule"


def test_not_a_table():
    config, problems = Config.parse(3)
    assert config == Config() and problems == ["settings must be a table/object, got a number; using the defaults"]


def test_strict_forms_raise_the_first_problem(tmp_path):
    with pytest.raises(ConfigError, match="unknown rule code"):
        Config.from_dict({"select": ["TP9"]})
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nignore = ["TP201", "nope"]\n')
    with pytest.raises(ConfigError, match=r"pyproject.toml \[tool.torchplace\]: 'ignore'"):
        load_config(tmp_path)


@pytest.mark.parametrize("content, message", [
    ("[tool.torchplace\n", "invalid TOML"),
    ("tool = 3\n", "'tool' must be a table, got a number"),
    ("[tool]\ntorchplace = 3\n", "[tool.torchplace] must be a table, got a number"),
])
def test_broken_pyprojects_are_reported_not_raised(tmp_path, content, message):
    (tmp_path / "pyproject.toml").write_text(content)
    config, problems = load_config_checked(tmp_path / "a.py")
    assert config == Config() and len(problems) == 1 and message in problems[0]
    assert str(tmp_path / "pyproject.toml") in problems[0]


def test_a_parent_config_still_applies_below_a_broken_one(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nignore = ["TP401"]\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text("not toml [")
    config, problems = load_config_checked(tmp_path / "sub" / "a.py")
    assert config.ignore == {"TP401"} and "invalid TOML" in problems[0]


def test_an_oversized_pyproject_is_reported_not_parsed(tmp_path, monkeypatch):
    from torchplace_rules import config as config_module

    monkeypatch.setattr(config_module, "MAX_PYPROJECT_SIZE", 100)
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nextend-exclude = ["' + "x" * 200 + '"]\n')
    config, problems = load_config_checked(tmp_path / "a.py")
    assert config == Config() and "over the size limit of 100 bytes" in problems[0]


def test_a_large_pyproject_is_parsed_once_per_run(tmp_path, monkeypatch):
    from torchplace_rules import config as config_module

    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nignore = ["TP401"]\n')
    calls = []
    real = config_module.toml_module().loads
    monkeypatch.setattr(config_module.toml_module(), "loads", lambda text: calls.append(1) or real(text))
    for sub in range(20):
        (tmp_path / f"d{sub}").mkdir()
        assert load_config_checked(tmp_path / f"d{sub}" / "a.py")[0].ignore == {"TP401"}
    assert len(calls) == 1
