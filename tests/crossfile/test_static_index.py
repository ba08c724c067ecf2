"""A static index (a CLI run: files do not change while it lives) gives the findings an editor's
index gives.  The static index takes short cuts that an editor's cannot (folder tables kept for
the run, no stat per file, paths kept per string, an importer that cannot call into the checked
file not run): each project here is checked file by file with both and must read the same."""
from __future__ import annotations

from pathlib import Path

import pytest

from torchplace_rules import Config, check_path
from torchplace_rules.project_index import ProjectIndex

from test_importers import _project  # (this folder is on the path: no package)

PROJECTS = Path(__file__).parent / "projects"

UTIL = """\
    import numpy as np


    def summarise(values):
        return np.asarray(values).mean()
"""

RUNNER = """\
    from util import summarise


    def run(values):
        return summarise(values)
"""

# Importers of util.py: one reads the name it imports, one does not but reaches util through
# another module, one does not and has an importer of its own whose code calls util through runner.
CONSTRUCTS = {
    "name read": {
        "util.py": UTIL,
        "a.py": """\
            import torch
            from util import summarise

            summarise(torch.zeros(8, device="cuda"))
        """,
    },
    "name unread, another project module": {
        "util.py": UTIL,
        "runner.py": RUNNER,
        "b.py": """\
            import torch
            from util import summarise
            from runner import run

            run(torch.zeros(8, device="cuda"))
        """,
    },
    "name unread, an importer of its own": {
        "util.py": UTIL,
        "runner.py": RUNNER,
        "c.py": """\
            from util import summarise


            def helper(x):
                return x
        """,
        "d.py": """\
            import torch
            from c import helper
            from runner import run

            run(helper(torch.zeros(8, device="cuda")))
        """,
    },
    "name unread, nothing else": {
        "util.py": UTIL,
        "e.py": """\
            import torch
            from util import summarise


            def f():
                return torch.zeros(8, device="cuda")

            f()
        """,
    },
    "helpers of a package": {
        "pkg/__init__.py": "",
        "pkg/helpers.py": """\
            import torch


            def to_device(x, device):
                return x.to(device)
        """,
        "pkg/mod00.py": """\
            from .helpers import to_device
            import torch

            model = torch.nn.Linear(4, 2)
            x = torch.randn(3, 4, device="cuda")
            y = model(x)
        """,
        "pkg/mod01.py": """\
            from .helpers import to_device
            import torch

            model = torch.nn.Linear(4, 2).cuda()
            y = model(to_device(torch.randn(3, 4), "cpu"))
        """,
    },
}


def _all_findings(project: Path, static: bool) -> dict:
    index = ProjectIndex(project, static=static)
    out = {}
    for path in sorted(project.rglob("*.py")):
        out[str(path.relative_to(project))] = [(f.span.start_line + 1, f.code, f.message)
                                               for f in check_path(path, Config(), project=index)]
    return out


@pytest.mark.parametrize("name", sorted(CONSTRUCTS))
def test_static_index_reads_as_an_editor_index(tmp_path, name):
    project = _project(tmp_path, CONSTRUCTS[name])
    assert _all_findings(project, static=True) == _all_findings(project, static=False)


@pytest.mark.parametrize("name", sorted(p.name for p in PROJECTS.iterdir() if p.is_dir()))
def test_static_index_on_the_cross_file_projects(name):
    project = PROJECTS / name
    assert _all_findings(project, static=True) == _all_findings(project, static=False)


def test_only_an_editor_index_keeps_what_each_checked_file_read(tmp_path):
    """`dependents_of` answers an editor (which results an edit makes stale); a static run, where no
    file changes, does not keep the record (a path resolved per checked file: 2 % of many_files)."""
    runner = "import torch\nfrom util import summarise\n\n\ndef run(values):\n    return summarise(torch.tensor(values))\n"
    project = _project(tmp_path, {"util.py": UTIL, "runner.py": runner})
    for static, expected in ((False, [(project / "runner.py").resolve()]), (True, [])):
        index = ProjectIndex(project, static=static)
        check_path(project / "runner.py", Config(), project=index)
        assert index.dependents_of(project / "util.py") == expected


def test_a_static_index_finds_each_project_root_as_find_project_root_does(tmp_path):
    """`ProjectIndex.project_root` keeps what it saw per folder in a static run: nested projects, a
    folder with no marker above it, files and folders asked in any order give find_project_root's answer."""
    from torchplace_rules.project_index import find_project_root

    outer, inner = tmp_path / "outer", tmp_path / "outer" / "a" / "inner"
    (inner / "pkg" / "deep").mkdir(parents=True)
    (tmp_path / "loose" / "x").mkdir(parents=True)
    (outer / "pyproject.toml").write_text("")
    (inner / "setup.py").write_text("")
    for folder in (inner / "pkg" / "deep", outer / "a", tmp_path / "loose" / "x"):
        (folder / "m.py").write_text("")
    asked = [inner / "pkg" / "deep" / "m.py", outer / "a", inner / "pkg", outer / "a" / "m.py", inner,
             tmp_path / "loose" / "x" / "m.py", tmp_path / "loose", str(inner / "pkg" / "deep"), outer]
    index = ProjectIndex(static=True)
    for path in asked + asked[::-1]:
        assert index.project_root(path) == find_project_root(path), path


def test_a_static_index_resolves_modules_as_an_editor_index_without_path_objects(tmp_path, monkeypatch):
    """A static index looks for a module's candidate files (`m.py`, `m/__init__.py`) with strings:
    most folders asked hold no such module (each model's folder is asked for `torch`), and a `Path`
    per candidate cost more than the `stat`.  The answers are an editor index's."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "leaf.py").write_text("")
    (tmp_path / "pkg" / "util.py").write_text("")
    (tmp_path / "pkg" / "folder.py").mkdir()  # (a folder named like a module file is no module)
    importer = tmp_path / "pkg" / "sub" / "leaf.py"
    asked = [("torch", 0), ("pkg.util", 0), ("pkg.sub", 0), ("pkg.sub.leaf", 0), ("pkg.folder", 0), ("util", 2),
             ("sub.leaf", 2), ("leaf", 1), ("missing.deep", 0), (None, 1), (None, 2)]
    editor = [ProjectIndex(tmp_path).resolve(importer, module, level) for module, level in asked]
    assert editor[:4] == [None, tmp_path / "pkg" / "util.py", tmp_path / "pkg" / "sub" / "__init__.py", importer]

    def no_path_stat(self):
        raise AssertionError(f"a Path was made and asked: {self}")

    monkeypatch.setattr(Path, "is_file", no_path_stat)
    static = ProjectIndex(tmp_path, static=True)
    assert [static.resolve(importer, module, level) for module, level in asked] == editor
