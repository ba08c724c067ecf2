"""`torchplace check DIR` names the project: a file with no project marker (pyproject.toml, setup.py,
setup.cfg, .git) at or above it takes the deepest named folder that holds it as its project root
(session 19; 95 of the review's archives have no marker).  The cross-file facts that need the root
(who imports the checked file: R2, context/earlier_method.py) then see the project's driver script.
A marker at or above the file still wins; a file named alone gets no root from it."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from torchplace_rules.cli import main
from torchplace_rules.project_index import ProjectIndex

from test_earlier_method_writes import EXP, RUN


def _tree(folder: Path, trained: str = "setting") -> Path:
    """The PatchTST shape (test_earlier_method_writes) without a marker: exp/exp_main.py loads the
    checkpoint `train` wrote; run.py, beside exp/, calls `exp.train(...)` then `exp.predict(setting, True)`."""
    (folder / "exp").mkdir(parents=True)
    (folder / "exp" / "__init__.py").write_text("")
    (folder / "exp" / "exp_main.py").write_text(textwrap.dedent(EXP))
    (folder / "run.py").write_text(textwrap.dedent(RUN.format(trained=trained)))
    return folder


def _warnings(capsys, jobs: str, *paths) -> list:
    main(["check", "--format", "json", "--min-severity", "warning", "--jobs", jobs, *map(str, paths)])
    out, _ = capsys.readouterr()
    return [(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_checked_folder_without_a_marker_is_the_root_its_driver_script_is_seen_from(tmp_path, capsys, jobs):
    project = _tree(tmp_path / "proj")
    assert _warnings(capsys, jobs, project) == []


def test_twin_the_driver_trains_another_setting_the_finding_stays(tmp_path, capsys):
    project = _tree(tmp_path / "proj", trained="'other'")
    assert _warnings(capsys, "1", project) == [("exp_main.py", 27, "TP204")]


def test_twin_the_file_named_alone_has_no_root_the_finding_stays(tmp_path, capsys):
    project = _tree(tmp_path / "proj")
    assert _warnings(capsys, "1", project / "exp" / "exp_main.py") == [("exp_main.py", 27, "TP204")]


def test_twin_a_named_subfolder_holds_no_driver_the_finding_stays(tmp_path, capsys):
    project = _tree(tmp_path / "proj")
    assert _warnings(capsys, "1", project / "exp") == [("exp_main.py", 27, "TP204")]


@pytest.mark.parametrize("static", [False, True])
def test_project_root_marker_first_then_the_deepest_named_folder(tmp_path, static):
    loose, marked, outside = tmp_path / "loose", tmp_path / "marked", tmp_path / "outside"
    for folder in (loose / "a" / "b", loose / "inner" / "pkg", marked / "sub", outside):
        folder.mkdir(parents=True)
    (loose / "inner" / "setup.cfg").write_text("")  # a marked project inside the named folder
    (marked / "pyproject.toml").write_text("")  # a marker above the named folder
    index = ProjectIndex(static=static, named_roots=[loose, loose / "a", marked / "sub"])
    for _ in range(2):  # (a static index answers again from what it kept)
        assert index.project_root(loose / "a" / "b" / "m.py") == (loose / "a").resolve()
        assert index.project_root(loose / "m.py") == loose.resolve()
        assert index.project_root(loose / "inner" / "pkg") == (loose / "inner").resolve()
        assert index.project_root(marked / "sub" / "m.py") == marked.resolve()
        assert index.project_root(outside / "m.py") is None
    assert ProjectIndex(static=static).project_root(loose / "m.py") is None


def test_a_named_folder_bounds_no_import_lookup(tmp_path, capsys):
    """`check a/` of a tree without a marker: `from b.util import make` in a/m.py still resolves to the
    sibling folder above the named one (module lookup walks the parents as before; only the importer
    side takes the named root)."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "util.py").write_text('import torch\n\n\ndef make():\n    return torch.ones(3, device="cuda")\n')
    (tmp_path / "a" / "m.py").write_text("import torch\nfrom b.util import make\n\n\ndef run():\n    return make() + torch.ones(3)\n")
    assert _warnings(capsys, "1", tmp_path / "a") == [("m.py", 6, "TP101")]
