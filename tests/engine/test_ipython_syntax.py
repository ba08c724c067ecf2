"""IPython syntax in notebook cells is rewritten as IPython itself rewrites it.

The reference is IPython's own `TransformerManager` (installed with the test
extras); our rewrite must give the same code, with the cell's line count kept
so that positions map 1:1.  The engine never imports IPython.
"""
import ast
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from torchplace_rules.ipython_syntax import to_python
from torchplace_rules.text_lines import split_lines
from torchplace_rules.notebook_program import cell_program, join_cells

CELLS = [
    "files = !ls\nprint(files)\n",
    "?torch.ones\n",
    "torch.ones?\n",
    "torch.ones??\n",
    "??torch\n",
    "x[0]?\n",
    "%time?\n",
    "for i in range(3):\n    %time f(i)\n",
    "for i in range(3):\n    !echo $i\n",
    "%%time\nx = 1\ny = 2\n",
    "\n\n%%capture out\nprint(1)\n",
    "%%bash\necho hi\n",
    "x = %time f()\n",
    "a, b = %who_ls\n",
    "x = ! ls -la\n",
    "out = !!ls\n",
    "!!ls\n",
    "!pip install \\\n   torch\nimport torch\n",
    "%matplotlib inline\nimport torch\n",
    ",f a b\n",
    "/f a b\n",
    ";f a b\n",
    "def f():\n    !ls\n    return 1\n",
    "d = {'a': 1}\n%who\n",
    # Not IPython syntax: must be left alone.
    "a = 'x?'\n",
    "x = 1  # what?\n",
    "s = '''\n!not a magic\n%neither\n'''\n",
    "x == !y\n",
    "x != 3\n",
    "print(a % b)\n",
    "r = '%d' % 3\n",
    "f(x=1,\n  y=!z)\n",
    "y = x if a else b?\n",
    "b = f(1,\n  2)?\n",
]


def _significant(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip()]


@pytest.mark.parametrize("cell", CELLS)
def test_same_code_as_ipython(cell):
    manager = pytest.importorskip("IPython.core.inputtransformer2").TransformerManager()
    try:
        expected = manager.transform_cell(cell)
    except SyntaxError:
        expected = cell
    ours, _, rewritten = to_python(cell)
    assert _significant(ours) == _significant(expected)
    assert len(ours.splitlines()) == len(cell.splitlines())  # positions map 1:1
    assert all(ours.splitlines()[k] == cell.splitlines()[k] for k in range(len(cell.splitlines())) if k not in rewritten)


@pytest.mark.parametrize("cell", [
    "files = !ls\n", "?torch.ones\n", "torch.ones?\n", "for i in range(3):\n    %time f(i)\n",
    "%%time\nx = 1\n", "x = %time f()\n", "!pip install \\\n  torch\n",
])
def test_valid_cells_are_not_syntax_errors(cell):
    python, blanked, broken = cell_program(cell)
    assert not broken
    ast.parse(python)


def test_columns_before_the_magic_are_kept():
    text, _, rewritten = to_python("import os\n    \nresult = !ls -la\n")
    assert text.splitlines()[2].startswith("result = get_ipython().getoutput(")
    assert rewritten == {2}


def test_line_breaks_and_continuations_keep_the_line_count():
    cell = "!pip install \\\r\n  torch\r\nx = 1\r\n"
    text, _, rewritten = to_python(cell)
    assert text.count("\r\n") == 3 and rewritten == {0, 1}
    assert text.split("\r\n")[1] == ""


def test_later_cells_keep_names_assigned_from_magics():
    program = join_cells([(0, "import torch\nfiles = !ls\nfor f in files:\n    %time g(f)\n"),
                          (1, "device = torch.device('cuda')\nx = torch.zeros(3)\nx.to(device)\n")])
    assert not any(c.broken for c in program.cells)
    tree = ast.parse(program.text)
    assigned = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets if isinstance(t, ast.Name)}
    assert {"files", "device", "x"} <= assigned


def test_the_engine_does_not_import_ipython():
    code = ("import sys; from torchplace_rules.notebook_program import join_cells; "
            "join_cells([(0, 'files = !ls\\n%time x = 1\\n')]); print('IPython' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="%!?,;/=()[]{}'\"\\#\n\r\x0c x1._", max_size=80))
def test_any_text_keeps_its_lines_and_never_raises(text):
    python, _, rewritten = to_python(text)
    assert len(split_lines(python)) == len(split_lines(text))
    kept = [k for k in range(len(split_lines(text))) if k not in rewritten]
    assert [split_lines(python)[k] for k in kept] == [split_lines(text)[k] for k in kept]
