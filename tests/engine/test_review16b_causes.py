"""False findings of the s16 fresh precision review of 11 repositories, review16b's domain
(benchmarks/review/false_finding_causes.md, causes Y1...), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
import ast
import sys

import pytest

from torchplace_rules import check_source
from torchplace_rules.newer_syntax import without_type_params

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

# Y1: PEP 695 type parameters (Python 3.12) on an older interpreter running torchplace.
PEP695 = {
    "type alias": "type Shape = tuple[int, ...]\n",
    "generic type alias": "type Pair[T] = tuple[T, T]\n",
    "generic class": "class Box[T]:\n    pass\n",
    "generic class with a base": "class Pipeline[TIn, TOut](dict):\n    pass\n",
    "bounded generic function": "def first[T: int](xs: list[T]) -> T:\n    return xs[0]\n",
    "type parameters over lines": "class Grid[\n    T,\n    U,\n](dict):\n    pass\n",
}

BUG = """\
def add():
    a = torch.zeros(3, device="cuda")
    b = torch.zeros(3)
    return a + b
"""


@pytest.mark.parametrize("construct", sorted(PEP695))
def test_y1_type_parameters_do_not_hide_the_file(construct):
    """Valid Python 3.12 code is analysed, not reported as TP001; positions below it keep their lines."""
    header = H + PEP695[construct]
    assert_findings(header, BUG, {(4, "TP101")})


@pytest.mark.parametrize("construct", sorted(PEP695))
def test_y1_rewrite_keeps_lines_and_the_columns_after_it(construct):
    if sys.version_info >= (3, 12):
        pytest.skip("the interpreter parses PEP 695 itself")
    text = PEP695[construct] + "x = 1\n"
    rewritten = without_type_params(text)
    ast.parse(rewritten)
    assert rewritten.count("\n") == text.count("\n")
    assert rewritten.splitlines()[-1] == "x = 1"


@pytest.mark.parametrize("text", [
    "def f(:\n    pass\n",                       # a real syntax error
    "class Box[T]:\n    def f(:\n        pass\n",  # newer syntax AND a real error below it
    "type = 3\nx = type(\n",                       # `type` as a name, then an unclosed call
])
def test_y1_real_syntax_errors_stay_tp001(text):
    codes = [f.code for f in check_source(text, "t.py")]
    assert codes == ["TP001"]


def test_y1_type_as_a_name_is_left_alone():
    assert without_type_params("type = 3\nx = type(3)\n") is None
