"""`torchplace check` on Jupyter notebooks: named or found, cells as one program,
positions as `nb.ipynb:cell N:line:col`, fixes written into the cells only."""
import json

import pytest

from torchplace_rules.cli import main

CELLS = [
    {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [],
     "source": ["import torch\n", "device = torch.device('cuda')\n", "files = !ls\n"]},
    {"cell_type": "markdown", "metadata": {}, "source": ["Moving the data"]},
    {"cell_type": "code", "execution_count": 2, "metadata": {"tags": ["keep"]},
     "outputs": [{"output_type": "stream", "name": "stdout", "text": ["café ☕\n"]}],
     "source": ["x = torch.zeros(3)\n", "%time y = 1\n", "x.to(device)\n", "torch.ones?"]},
]


def notebook(cells=CELLS, language="python"):
    return {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": language, "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def nb(tmp_path):
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(notebook(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def check(capsys, *args):
    code = main(["check", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_named_notebook_reports_the_bug_in_its_cell(nb, capsys):
    code, out, err = check(capsys, str(nb))
    assert code == 1, err
    assert f"{nb}:cell 3:3:1: TP201" in out
    assert "  | x.to(device)" in out  # the cell's own line
    assert "TP001" not in out  # `files = !ls`, `%time`, `torch.ones?` are IPython, not errors


def test_folders_include_notebooks(nb, capsys):
    code, out, _ = check(capsys, str(nb.parent))
    assert code == 1 and "nb.ipynb:cell 3:3:1: TP201" in out


def test_json_and_sarif_carry_the_cell(nb, capsys):
    _, out, _ = check(capsys, "--format", "json", str(nb))
    [item] = json.loads(out)
    assert (item["cell"], item["line"], item["column"], item["code"]) == (3, 3, 1, "TP201")
    assert item["fix"]["edits"][0]["cell"] == 3
    _, out, _ = check(capsys, "--format", "sarif", str(nb))
    [result] = json.loads(out)["runs"][0]["results"]
    location = result["locations"][0]
    assert location["properties"]["cell"] == 3
    assert location["physicalLocation"]["region"]["startLine"] == 3


def test_fix_edits_only_the_cell_and_keeps_the_layout(nb, capsys):
    before = nb.read_text(encoding="utf-8")
    code, out, _ = check(capsys, "--fix", str(nb))
    after = nb.read_text(encoding="utf-8")
    assert code == 0 and "Fixed 1 (0 remaining)" in out
    assert after == before.replace('"x.to(device)\\n"', '"x = x.to(device)\\n"')
    assert "café ☕" in after  # outputs kept, not escaped


def test_diff_shows_the_cell_and_changes_nothing(nb, capsys):
    before = nb.read_text(encoding="utf-8")
    code, out, _ = check(capsys, "--diff", str(nb))
    assert code == 1
    assert f"--- a/{nb}:cell 3" in out and "-x.to(device)" in out and "+x = x.to(device)" in out
    assert nb.read_text(encoding="utf-8") == before


def test_a_broken_cell_does_not_silence_the_others(tmp_path, capsys):
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": src}
             for src in ("import torch\ndevice = torch.device('cuda')\n", "def broken(:\n", "x = torch.zeros(3)\nx.to(device)\n")]
    path = tmp_path / "b.ipynb"
    path.write_text(json.dumps(notebook(cells)))
    _, out, _ = check(capsys, "--format", "json", str(path))
    found = {(i["cell"], i["code"]) for i in json.loads(out)}
    assert found == {(2, "TP001"), (3, "TP201")}


def test_other_languages_and_invalid_json_are_skipped_with_a_message(tmp_path, capsys):
    (tmp_path / "r.ipynb").write_text(json.dumps(notebook(language="R")))
    (tmp_path / "bad.ipynb").write_text("{not json")
    code, out, err = check(capsys, str(tmp_path))
    assert code == 0
    assert "r.ipynb: not a Python notebook" in err and "bad.ipynb: not a notebook: not valid JSON" in err
