"""Re-parsing and re-analysing only what an edit touched gives exactly the fresh result.

Each test replays a sequence of edits on real files (the seeds, the real-bug
corpus) and compares, after every edit, `check_source(..., memo=memo)` with a
fresh `check_source`: findings, messages, related locations and fixes.  It
also asserts that reuse really happened, so a memo that silently re-runs
everything (or reuses nothing) cannot pass for incremental.
"""
from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest

from torchplace_rules import check_source
from torchplace_rules.analysis_memo import AnalysisMemo
from torchplace_rules.incremental_parse import reparse, split_lines
from torchplace_rules.project_index import ProjectIndex

from .incremental_edits import mutate

REPO = Path(__file__).resolve().parents[2]
SOURCES = sorted((REPO / "examples" / "seeds").glob("*.py")) + sorted((REPO / "tests" / "corpus" / "cases").glob("*/*.py"))
STEPS = 30


def _replay_edits(path: Path, steps: int, seed: int, project=None) -> Counter:
    memo = AnalysisMemo()
    rng = random.Random(seed)
    lines = path.read_text(encoding="utf-8").split("\n")
    check_source("\n".join(lines), str(path), memo=memo, project=project)
    for step in range(steps):
        candidate = mutate(lines, rng)
        text = "\n".join(candidate)
        incremental = check_source(text, str(path), memo=memo, project=project)
        fresh = check_source(text, str(path), project=project)
        assert incremental == fresh, f"{path.name}: edit {step} differs from a fresh analysis"
        if not (fresh and fresh[0].code == "TP001"):
            lines = candidate  # keep edits that parse, as a person typing ends up doing
    return memo.stats


def test_incremental_parse_gives_the_tree_of_a_full_parse():
    rng = random.Random(3)
    compared = 0
    for path in SOURCES[::4]:
        text = path.read_text(encoding="utf-8")
        lines, tree = split_lines(text), ast.parse(text)
        for _ in range(15):
            candidate = mutate(lines, rng)
            new_text = "\n".join(candidate)
            try:
                expected = ast.parse(new_text)
            except SyntaxError:
                with pytest.raises(SyntaxError):
                    reparse(lines, tree, new_text, candidate, "x.py")
                continue
            got, _, _ = reparse(lines, tree, new_text, candidate, "x.py")
            assert ast.dump(got, include_attributes=True) == ast.dump(expected, include_attributes=True)
            lines, tree = candidate, got
            compared += 1
    assert compared > 50


@pytest.mark.parametrize("edit, expected_reparsed_at_most", [
    ("insert a decorator above a def", 12),
    ("turn a statement into else:", None),
    ("append a line at the end", 12),
])
def test_edits_that_attach_to_a_neighbour(edit, expected_reparsed_at_most):
    old = "import torch\n\n\ndef f(x):\n    return x\n\n\nif cond:\n    a = 1\nb = 2\n\n\ndef g(y):\n    return y\n"
    old_lines, tree = split_lines(old), ast.parse(old)
    lines = list(old_lines)
    if edit == "insert a decorator above a def":
        lines.insert(12, "@torch.no_grad()")
    elif edit == "turn a statement into else:":
        lines[9] = "else:\n    b = 2"
        lines = "\n".join(lines).split("\n")
    else:
        lines.insert(len(lines) - 1, "z = 3")
    new = "\n".join(lines)
    got, mapping, reparsed = reparse(old_lines, tree, new, lines, "x.py")
    assert ast.dump(got, include_attributes=True) == ast.dump(ast.parse(new), include_attributes=True)
    if expected_reparsed_at_most is not None:
        assert reparsed <= expected_reparsed_at_most
    assert got.body[0] is tree.body[0]  # `import torch` was not parsed again


def test_windows_line_ends_parse_in_full():
    memo = AnalysisMemo()
    text = "import torch\r\nx = torch.zeros(3).cuda()\r\ny = x.numpy()\r\n"
    assert check_source(text, "w.py", memo=memo) == check_source(text, "w.py")
    text2 = text + "z = 1\r\n"
    assert check_source(text2, "w.py", memo=memo) == check_source(text2, "w.py")


@pytest.mark.parametrize("chunk", range(4))
def test_incremental_analysis_equals_fresh_analysis(chunk):
    totals: Counter = Counter()
    for i, path in enumerate(SOURCES):
        if i % 4 == chunk:
            totals += _replay_edits(path, STEPS, seed=i)
    assert totals["groups_reused"] > totals["groups_run"] / 4, totals  # reuse is real, not a full re-run
    assert totals["scans_reused"] > 0, totals


def test_findings_move_with_the_lines_above_them():
    text = ("import torch\n\n\ndef step(model, x):\n    y = torch.zeros(3)\n    return model(x) + y.cuda()\n\n\n"
            "def bad(x):\n    x.to('cuda')\n    return x.numpy()\n")
    memo = AnalysisMemo()
    before = check_source(text, "m.py", memo=memo)
    assert before
    edited = text.replace("import torch\n", "import torch\nimport os\n\n")
    after = check_source(edited, "m.py", memo=memo)
    assert after == check_source(edited, "m.py")
    assert memo.stats["groups_reused"] >= 1
    assert [f.span.start_line for f in after] == [f.span.start_line + 2 for f in before]


def test_a_changed_module_level_name_reruns_its_readers():
    text = "import torch\ndevice = 'cpu'\n\n\ndef f():\n    a = torch.zeros(2, device=device)\n    return a + torch.ones(2).cuda()\n"
    memo = AnalysisMemo()
    check_source(text, "m.py", memo=memo)
    edited = text.replace("device = 'cpu'", "device = 'cuda'")
    assert check_source(edited, "m.py", memo=memo) == check_source(edited, "m.py")
    assert memo.stats["groups_run"] == 2 and memo.stats["groups_reused"] == 0


def test_a_changed_name_of_a_class_level_transform_reruns_its_readers():
    # `self.tf(pic)` reads the class body's Compose with this file's names: rebinding one reruns the method
    # (`other` keeps the edit's reparse away from the class, whose group would otherwise be reused)
    text = ("import torch\nimport torchvision.transforms as T\nToT = T.ToTensor\n\n\ndef other(x):\n    return x + 1\n\n\n"
            "class Infer:\n"
            "    tf = T.Compose([ToT()])\n\n    def run(self, pic):\n"
            "        return torch.nn.Linear(2, 2).cuda()(self.tf(pic)[None])\n")
    memo = AnalysisMemo()
    before = check_source(text, "m.py", memo=memo)
    edited = text.replace("ToT = T.ToTensor", "ToT = T.Lambda")
    after = check_source(edited, "m.py", memo=memo)
    assert after == check_source(edited, "m.py")
    assert [f.code for f in before if f.code == "TP102"] == ["TP102"] and not [f for f in after if f.code == "TP102"]


def test_a_changed_imported_file_invalidates_what_was_kept(tmp_path):
    (tmp_path / "helpers.py").write_text("import torch\n\n\ndef make(n):\n    return torch.zeros(n).cuda()\n")
    main = tmp_path / "main.py"
    main.write_text("import torch\nfrom helpers import make\n\n\ndef run():\n    a = make(3)\n    return a.numpy()\n")
    index = ProjectIndex(tmp_path)
    memo = AnalysisMemo()
    text = main.read_text()
    first = check_source(text, str(main), memo=memo, project=index)
    assert [f.code for f in first] == ["TP104"]
    index.set_overlay(tmp_path / "helpers.py", "import torch\n\n\ndef make(n):\n    return torch.zeros(n)\n")
    again = check_source(text, str(main), memo=memo, project=index)
    assert again == check_source(text, str(main), project=index) == []


def test_cross_file_cases_with_edits(tmp_path):
    totals: Counter = Counter()
    cases = sorted(p for p in (REPO / "tests" / "corpus" / "cases").iterdir() if len(list(p.glob("*.py"))) > 1)
    for i, case in enumerate(cases[:8]):
        index = ProjectIndex(case)
        for path in sorted(case.glob("*.py")):
            totals += _replay_edits(path, 10, seed=100 + i, project=index)
    assert totals["groups_reused"] > 0, totals


def test_a_read_made_by_another_statement_is_another_read():
    """A module-level value that compares equal (`==` leaves out the node it came from) but was
    made by an edited statement: the readers run again, since their findings quote that node (a
    TP202 at the factory, related locations).  Kept memos replayed the old node's finding."""
    pad = "".join(f"\n\ndef g{i}(a):\n    return a + {i}\n" for i in range(6))
    text = ("import torch\nimport torch.nn as nn\nx = torch.zeros(4)\n" + pad +
            "\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 4)\n\n    def forward(self, s):\n        return self.fc(s) + x\n\n\n"
            "net = Net().cuda()\nnet(torch.ones(4, device=\"cuda\"))\n")
    memo = AnalysisMemo()
    assert check_source(text, "m.py", memo=memo)
    edited = text.replace("x = torch.zeros(4)", "x = torch.zeros(44)")
    assert check_source(edited, "m.py", memo=memo) == check_source(edited, "m.py")
    assert memo.stats["groups_reused"] > 0  # the functions that do not read x are still kept


def test_the_dqn_edit_sequence_that_replayed_a_stale_tp202():
    """The holdout helper's case: seed 67, edit 26 on the DQN corpus file (a module-level loop
    rebinds `x`, which `forward` reads) gave a TP202 incrementally and none fresh."""
    path = REPO / "tests" / "corpus" / "cases" / "deeprl_chinese_dqn_agent_q_moved_state_cpu" / "dqn.py"
    _replay_edits(path, 27, seed=67)


def test_a_group_kept_quiet_by_another_groups_finding_is_not_reused():
    # TP101 reports a CPU tensor once, at its first use that raises: the entry analysis of
    # `accumulate_counts` stayed quiet because the `__main__` block's call had reported it first.
    # Its kept record then lacked the finding; once the edit made the call run inside a class body
    # (which reports nothing), the replayed group lost it.  (Found by the edit replay above.)
    before = (
        "import torch\n\n\n"
        "def accumulate_counts(n_bins: int) -> torch.Tensor:\n"
        "    idx = torch.tensor([0, 1])\n"
        "    b = torch.zeros(n_bins).cuda()\n"
        "    c = torch.tensor([1., 2.])\n"
        "    b.index_put_((idx,), c, accumulate=True)\n"
        "    return b\n"
        "class Extra:\n"
        "    x = 1\n\n\n"
        "if __name__ == \"__main__\":\n"
        "    print(accumulate_counts(5))\n"
    )
    after = before.replace("if __name__ == \"__main__\":\n", "")
    memo = AnalysisMemo()
    check_source(before, "acc.py", memo=memo)
    fresh = check_source(after, "acc.py")
    assert [(f.code, f.span.start_line + 1) for f in fresh] == [("TP301", 6), ("TP101", 8)]
    assert check_source(after, "acc.py", memo=memo) == fresh
