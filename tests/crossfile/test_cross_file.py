"""Cross-file understanding: cause in one module, symptom in another.

Each fixture project in `projects/` has a negative twin (`*_moved`,
`*_returns_moved`, `base_buffer`) that must get no error or warning.  Findings
are always reported in the checked file, never at positions of another file.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from torchplace_rules import Config, Severity, check_path, check_source
from torchplace_rules.project_index import ProjectIndex

PROJECTS = Path(__file__).resolve().parent / "projects"

#: project -> (file, 1-based line, code) it must report with cross-file resolution
BUGS = {
    "model_elsewhere": ("train.py", 12, "TP102"),
    "relative_import": ("pkg/run.py", 7, "TP102"),
    "helper_forgets_return": ("train.py", 12, "TP103"),
    "base_plain_attr": ("model.py", 13, "TP203"),
    "device_in_config": ("run.py", 8, "TP102"),
    "loader_factory": ("train.py", 12, "TP103"),
}
TWINS = {
    "model_elsewhere_moved": "model_elsewhere",
    "relative_import_moved": "relative_import",
    "helper_returns_moved": "helper_forgets_return",
    "base_buffer": "base_plain_attr",
    "device_in_config_moved": "device_in_config",
    "loader_factory_moved": "loader_factory",
}


def loud(project: Path, index=None, cross_file: bool = True) -> list[tuple[str, int, str]]:
    """(file, 1-based line, code) of every error/warning in the project."""
    index = index if index is not None else (ProjectIndex(project) if cross_file else None)
    out = []
    for path in sorted(project.rglob("*.py")):
        for f in check_path(path, Config(), project=index):
            if f.severity <= Severity.WARNING:
                out.append((path.relative_to(project).as_posix(), f.span.start_line + 1, f.code))
    return out


@pytest.mark.parametrize("name", sorted(BUGS))
def test_cross_file_bug_is_found_in_the_importing_file(name):
    assert BUGS[name] in loud(PROJECTS / name)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_single_file_analysis_cannot_see_it(name):
    assert BUGS[name] not in loud(PROJECTS / name, cross_file=False)


@pytest.mark.parametrize("name", sorted(TWINS))
def test_negative_twin_is_quiet(name):
    assert (PROJECTS / TWINS[name]).is_dir()
    assert loud(PROJECTS / name) == []


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


MAIN_USES_NET = "import torch\nfrom net import Net\nmodel = Net()\nprint(model(torch.randn(2, 4, device='cuda')))\n"
NET = ("import torch\nfrom torch import nn\n\nclass Net(nn.Module):\n    def __init__(self):\n"
       "        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n    def forward(self, x):\n"
       "        return self.fc(x)\n")


def test_foreign_code_reports_nothing_in_the_importing_file(tmp_path):
    # helper.py has its own bug (a discarded `.to()`, a CPU+GPU add); inlining it must not report it in main.py
    project = _project(tmp_path, {
        "helper.py": "import torch\n\ndef add(x):\n    y = torch.ones(3)\n    x.to('cuda')\n    return torch.randn(3, device='cuda') + y\n",
        "main.py": "import torch\nfrom helper import add\nprint(add(torch.randn(3)))\n",
    })
    index = ProjectIndex(project)
    main = check_path(project / "main.py", Config(), project=index)
    assert main == []
    own = {f.code for f in check_path(project / "helper.py", Config(), project=index)}
    assert "TP101" in own  # the helper's bug is reported in the helper


@pytest.mark.parametrize("files", [
    {"net.py": "import torch\nfrom main import thing\n" + NET, "main.py": "import torch\nfrom net import Net\nthing = 1\n" + MAIN_USES_NET},
    {"net.py": "import torch\nclass Net(nn.Module:\n", "main.py": MAIN_USES_NET},
    {"main.py": MAIN_USES_NET},
    {"net.py": "\x00\x01binary", "main.py": MAIN_USES_NET},
    {"pkg/__init__.py": "from .a import Net\n", "pkg/a.py": "from . import b\nfrom .b import Net\n",
     "pkg/b.py": "from . import a\nfrom .a import Net\n", "main.py": MAIN_USES_NET.replace("from net", "from pkg")},
], ids=["circular", "syntax-error", "unresolvable", "binary", "circular-package"])
def test_bad_imports_degrade_to_unknown(tmp_path, files):
    project = _project(tmp_path, files)
    errors: list = []
    findings = check_source((project / "main.py").read_text(), str(project / "main.py"), Config(), errors,
                            project=ProjectIndex(project))
    assert errors == []
    assert {f.code for f in findings} <= {"TP102"}  # never a syntax error of another file, never a guess


def test_circular_import_still_resolves_what_it_can(tmp_path):
    project = _project(tmp_path, {"net.py": "import torch\nfrom main import thing\n" + NET,
                                  "main.py": "import torch\nfrom net import Net\nthing = 1\n" + MAIN_USES_NET})
    codes = [f.code for f in check_path(project / "main.py", Config(), project=ProjectIndex(project))]
    assert codes == ["TP102"]


def test_jedi_failure_leaves_third_party_bases_unknown(tmp_path, monkeypatch):
    project = _project(tmp_path, {"main.py": "import torch\nfrom somepkg import Base\n\nclass M(Base):\n"
                                             "    def __init__(self):\n        super().__init__()\n"
                                             "        self.t = torch.ones(3)\n\n    def forward(self, x):\n"
                                             "        return x * self.t\n"})
    index = ProjectIndex(project)

    def boom(*args, **kwargs):
        raise RuntimeError("jedi exploded")

    monkeypatch.setattr(index.third_party, "_lookup", boom)
    errors: list = []
    main = project / "main.py"
    assert check_source(main.read_text(), str(main), Config(), errors, project=index) == []
    assert index.third_party.is_module_class("somepkg.Base") is False
    assert errors == []


def test_jedi_knows_third_party_module_subclasses(tmp_path):
    index = ProjectIndex(tmp_path)
    assert index.third_party.is_module_class("torch.nn.modules.linear.Linear") is False  # torch: handled by the engine
    assert index.third_party.is_module_class("torch_fake_pkg.Model") is False
    site = _project(tmp_path / "site", {"mylib/__init__.py": "from torch import nn\n\nclass Base(nn.Module):\n    pass\n\n"
                                                             "class Child(Base):\n    pass\n\nclass Plain:\n    pass\n"})
    index = ProjectIndex(tmp_path / "proj", extra_roots=[site])  # a sys.path-like root jedi searches too
    assert index.third_party.is_module_class("mylib.Child") is True
    assert index.third_party.is_module_class("mylib.Plain") is False


def test_summaries_follow_edits_of_imported_files(tmp_path):
    project = _project(tmp_path, {"utils.py": "def to_device(x, device):\n    x.to(device)\n    return x\n",
                                  "train.py": (PROJECTS / "helper_forgets_return" / "train.py").read_text()})
    index = ProjectIndex(project)
    train = project / "train.py"

    def codes():
        return [f.code for f in check_path(train, Config(), project=index) if f.severity <= Severity.WARNING]

    assert codes() == ["TP103"]
    assert index.dependents_of(project / "utils.py") == [train.resolve()]
    # unsaved editor text wins over the disk ...
    index.set_overlay(project / "utils.py", "def to_device(x, device):\n    return x.to(device)\n")
    assert codes() == []
    index.drop_overlay(project / "utils.py")
    assert codes() == ["TP103"]
    # ... and a saved change invalidates the cached summary
    (project / "utils.py").write_text("def to_device(x, device):\n    return x.to(device)  # fixed\n")
    assert codes() == []


def test_a_stale_summary_rebuilt_one_level_deeper_does_not_replace_the_full_one(tmp_path):
    """`top.py` reaches config.py two imports away (its summary there resolves nothing further);
    rebuilding the stale config.py summary for that must not hide `DEVICE` from `run.py`."""
    project = _project(tmp_path, {
        "settings.py": 'import torch\nDEVICE = torch.device("cuda")\n',
        "config.py": "from settings import DEVICE\n",
        "run.py": "import torch\nimport config\n\nmodel = torch.nn.Linear(2, 2)\n"
                  "x = torch.zeros(2).to(config.DEVICE)\ny = model(x)\n",
        "mid.py": "import config\n",
        "top.py": "import torch\nimport mid\n\nd = mid.config.DEVICE\n",
    })
    index = ProjectIndex(project)

    def codes(name):
        return [f.code for f in check_path(project / name, Config(), project=index) if f.severity <= Severity.WARNING]

    assert codes("run.py") == ["TP102"]
    index.set_overlay(project / "config.py", "from settings import DEVICE\n# edited\n")
    codes("top.py")
    assert codes("run.py") == ["TP102"]


def test_summary_of_a_module_is_computed_once(tmp_path, monkeypatch):
    from torchplace_rules import module_summaries

    project = _project(tmp_path, {"net.py": NET, "a.py": MAIN_USES_NET, "b.py": MAIN_USES_NET})
    calls = []
    real = module_summaries.summarise
    monkeypatch.setattr(module_summaries, "summarise", lambda *a: calls.append(a[1]) or real(*a))
    index = ProjectIndex(project)
    for name in ("a.py", "b.py"):
        assert [f.code for f in check_path(project / name, Config(), project=index)] == ["TP102"]
    assert [p.name for p in calls] == ["net.py"]


def test_a_module_summarised_at_two_depths_is_parsed_once(tmp_path, monkeypatch):
    """run.py imports net.py and mid.py, which imports net.py too: net.py is summarised for run.py
    (depth 1) and for mid.py (depth 2), from one parse; both summaries place `Net` the same."""
    from torchplace_rules import module_summaries

    project = _project(tmp_path, {
        "net.py": NET,
        "mid.py": "from net import Net\n\ndef build():\n    return Net()\n",
        "run.py": ("import torch\nfrom net import Net\nfrom mid import build\n\n"
                   "x = torch.randn(2, 4, device='cuda')\nprint(Net()(x))\nprint(build()(x))\n"),
    })
    summarised, parsed = [], []
    real_summarise, real_parse = module_summaries.summarise, module_summaries._parse_marked
    monkeypatch.setattr(module_summaries, "summarise",
                        lambda *a: summarised.append((a[1].name, a[4])) or real_summarise(*a))
    monkeypatch.setattr(module_summaries, "_parse_marked", lambda *a, **k: parsed.append(a[0].name) or real_parse(*a, **k))
    index = ProjectIndex(project)
    found = [(f.code, f.span.start_line + 1) for f in check_path(project / "run.py", Config(), project=index)]
    assert found == [("TP102", 6), ("TP102", 7)]
    assert sorted(summarised) == [("mid.py", 1), ("net.py", 1), ("net.py", 2)]
    assert sorted(parsed) == ["mid.py", "net.py"]


def test_an_importer_that_imports_the_file_only_for_type_checkers_is_no_caller(tmp_path):
    """A package `__init__` that star-imports its modules under `if TYPE_CHECKING:` (and hands them
    on lazily otherwise) runs no code of them: it is not summarised for its calls into them; an
    import that runs (the `else:` branch) still makes it a caller."""
    import ast

    from torchplace_rules import module_summaries

    only_typing = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .net import *\n    from .net import Net\n"
    runs_too = only_typing + "else:\n    from .net import Net\n"
    project = _project(tmp_path, {"pkg/net.py": NET, "pkg/__init__.py": only_typing, "pkg/eager.py": runs_too})
    index = ProjectIndex(project)
    target = project / "pkg" / "net.py"
    names = {}
    for name, text in (("__init__.py", only_typing), ("eager.py", runs_too)):
        path = project / "pkg" / name
        names[name] = module_summaries._names_from(index, path, ast.parse(text), target, {})
    assert names == {"__init__.py": set(), "eager.py": {"Net"}}
    outgoing = module_summaries.summarise_callers(index, project / "pkg" / "__init__.py", only_typing,
                                                  index.fingerprint(project / "pkg" / "__init__.py"), target)
    assert outgoing.outgoing == {} and outgoing.deps == {}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "torchplace_rules.cli", "check", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_cli_jobs_and_no_cross_file(tmp_path):
    shutil.copytree(PROJECTS, tmp_path / "projects")
    for name in BUGS:
        (tmp_path / "projects" / name / "pyproject.toml").touch()
    serial = _cli("--format", "json", "-j", "1", "projects", cwd=tmp_path)
    parallel = _cli("--format", "json", "--jobs", "2", "projects", cwd=tmp_path)
    assert serial.returncode == parallel.returncode == 1, serial.stderr + parallel.stderr
    assert serial.stdout == parallel.stdout  # deterministic order whatever the worker count
    found = {(Path(d["path"]).as_posix(), d["line"], d["code"]) for d in json.loads(serial.stdout)}
    for name, (file, line, code) in BUGS.items():
        assert (f"projects/{name}/{file}", line, code) in found
    single = _cli("--format", "json", "--no-cross-file", "projects", cwd=tmp_path)
    single_found = {(Path(d["path"]).as_posix(), d["line"], d["code"]) for d in json.loads(single.stdout)}
    assert not any((f"projects/{n}/{f}", l, c) in single_found for n, (f, l, c) in BUGS.items())
    assert os.path.isdir(tmp_path / "projects")


def test_workers_get_a_folders_files_together():
    """`check --jobs N` hands a worker runs of one folder's files (what it derives from the folder
    is derived once), in the listed order, never more than the batch size."""
    from torchplace_rules.parallel_check import folder_batches

    items = [(f"a/{i}.py", None) for i in range(5)] + [("b/x.py", None), ("a/late.py", None)]
    batches = folder_batches(items, 2)
    assert [[p for p, _ in b] for b in batches] == [
        ["a/0.py", "a/1.py"], ["a/2.py", "a/3.py"], ["a/4.py"], ["b/x.py"], ["a/late.py"]]
    assert [item for b in folder_batches(items, 200) for item in b] == items
    assert len(folder_batches(items, 200)) == 3
