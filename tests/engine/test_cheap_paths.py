"""Work the engine skips where it cannot change the answer (speed, issue 10): each test pins one
shortcut (what is not computed) next to the behaviour it must keep.

- the importer table's look at whether a module sets torch's default device reads no names of it
  (`names_bound_in` of a large module costs; most imported modules are asked only that);
- a torch-free program whose module body only fills library objects (`OrderedDict(...)`) is not walked
  for calls of what the project made;
- a file's text is split into lines only when something reads them;
- strict UTF-8 text is not re-encoded to check that it round-trips;
- a file's text is searched once per word for the question each of its functions asks (`yield`).
"""
import ast
import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path
from torchplace_rules.flow import driver
from torchplace_rules.flow.cross_file import ForeignText
from torchplace_rules.project_index import ProjectIndex
from torchplace_rules.source_files import decode_source
from torchplace_rules.source_text import SourceText
from torchplace_rules.syntax_nodes import lines_mention


def _module(tmp_path: Path, text: str) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    path = tmp_path / "setup_device.py"
    path.write_text(textwrap.dedent(text))
    return path


def test_the_default_device_look_reads_no_names(tmp_path: Path, monkeypatch):
    path = _module(tmp_path, """\
        import torch
        torch.set_default_device("cuda")
        LAYERS = 3
        """)
    table = ProjectIndex(tmp_path, static=True).importers
    monkeypatch.setattr("torchplace_rules.importers.names_bound_in", None)  # (called: a TypeError)
    assert table.sets_default_device(path) is True
    monkeypatch.undo()
    assert "LAYERS" in table.names_of(path) and table.may_bind(path, "torch")
    assert table.sets_default_device(path) is True  # (the names' read keeps the answer)


def test_names_read_first_answer_the_default_device_look(tmp_path: Path):
    path = _module(tmp_path, "import torch\nx = torch.zeros(2)\n")
    table = ProjectIndex(tmp_path, static=True).importers
    assert table.names_of(path) >= {"torch", "x"}
    assert table.sets_default_device(path) is False


def _runs(text: str, resolved):
    class Project:
        def resolve(self, path, module, level):
            return resolved.get(module)

    text = textwrap.dedent(text)
    return driver._runs_project_code(ast.parse(text), text, "/p/example.py", Project())


def test_a_body_filling_library_objects_is_not_walked(monkeypatch):
    walked = []
    monkeypatch.setattr(driver.ast, "walk", lambda node: walked.append(node) or iter(()))
    assert not _runs("""\
        from collections import OrderedDict
        NAMES = OrderedDict([("a", "A"), ("b", "B")])
        MORE = OrderedDict([("c", NAMES)])
        """, {})
    assert walked == []


def test_a_name_remade_by_a_library_is_not_the_projects():
    script = "from collections import OrderedDict\nfrom models import build\n\nmodel = build(0)\nmodel = OrderedDict()\nmodel(1)\n"
    assert not _runs(script, {"models": Path("/p/models.py")})
    assert _runs(script.replace("model = OrderedDict()\n", ""), {"models": Path("/p/models.py")})


def test_a_torch_free_script_calling_what_the_project_made_is_still_read(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "models.py").write_text("import torch\n\n\ndef build(device):\n    return torch.nn.Linear(4, 2).to(device)\n\n\n"
                                        "def image():\n    return torch.ones(1, 4)\n")
    (tmp_path / "example.py").write_text("from collections import OrderedDict\nfrom models import build, image\n\n"
                                         "TABLE = OrderedDict()\nmodel = build(0)\nfeat = model(image())\n")
    found = check_path(tmp_path / "example.py", Config(), project=ProjectIndex(tmp_path))
    assert [(f.span.start_line + 1, f.code) for f in found] == [(6, "TP102")]


def test_lines_are_split_when_first_read():
    src = SourceText("a = 1\r\nb = 'é'\n")
    assert src._lines is None
    assert src.lines == ["a = 1\r\n", "b = 'é'\n"]
    assert src.char_col(2, 7) == 6  # (a non-ASCII line's columns read the lines)
    foreign = ForeignText(SourceText("x = 1\ny = 2\n"), src)
    assert foreign.lines == ["x = 1\n", "y = 2\n"] and foreign.home_src._lines is foreign.lines


def test_strict_utf8_round_trips_without_a_second_encoding():
    for data in ("x = 'é'\n".encode(), "\ufeffx = 'é'\n".encode(), b"# coding: utf8\nx = '\xc3\xa9'\n"):
        got = decode_source(data)
        assert got.encode(got.text) == data and got.codec in ("utf-8", "utf-8-sig")
    for data in (b"x = '\xed\xa0\x80'\n", b"x = '\xc0\xaf'\n"):  # an encoded surrogate, an overlong form
        assert decode_source(data).codec == "latin-1"


def test_the_numpy_rule_passes_over_torch_calls(monkeypatch):
    """TP104 looks at a call's arguments only for NumPy, pyplot and sklearn.metrics functions (and
    `.numpy()`): a torch call does not even bind its checks."""
    from torchplace_rules import check_source
    from torchplace_rules.rules import tp104_numpy_on_device as tp104

    def fail(ev):
        raise AssertionError("TP104 read a torch call")

    monkeypatch.setattr(tp104, "_checks", fail)
    errors = []
    check_source("import torch\nx = torch.zeros(3, device='cuda')\ny = torch.cat([x, x], dim=0)\n", errors=errors)
    assert errors == []
    errors = []
    check_source("import numpy as np\nimport torch\nx = torch.zeros(3, device='cuda')\nnp.asarray(x)\n", errors=errors)
    assert [e.error for e in errors] == ["AssertionError: TP104 read a torch call"]


def test_torch_layers_are_named_by_torch_nn_classes():
    from torchplace_rules.flow.torch_api import is_torch_layer

    assert is_torch_layer("torch.nn.Linear") and is_torch_layer("torch.nn.modules.conv.Conv2d")
    assert not any(map(is_torch_layer, ("torch.nn.functional.Linear", "torch.nn.init", "torch.zeros", "nn.Linear", "")))


class _CountingText(str):
    """A text that keeps the words searched in it (`word in text`)."""
    searched: list = []

    def __contains__(self, word):
        _CountingText.searched.append(word)
        return str.__contains__(self, word)


def test_the_text_is_searched_once_per_word_for_every_function():
    code = "def f():\n    yield 1\n\n\ndef g():\n    return 2\n\n\ndef h():\n    return 3\n"
    src = SourceText(_CountingText(code))
    functions = ast.parse(code).body
    _CountingText.searched = []
    assert [lines_mention(src, f, "yield") for f in functions] == [True, False, False]
    assert [lines_mention(src, f, "await") for f in functions] == [False, False, False]
    assert [w for w in _CountingText.searched if w in ("yield", "await")] == ["yield", "await"]
