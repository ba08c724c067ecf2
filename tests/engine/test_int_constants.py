"""Int constants written in the program decide the tests that read them (`IntV`, flow/values.py).

A name bound to an int literal (`num_gpus = 1`, a config module's `GPU_MODE = 1`) holds that int on
every path until arithmetic changes it (`count += 1`: a number, no longer that int) or a join meets
another value.  A call's int literal (`LM(num_gpus=1)`, `step(x, 1)`, a default `n=1`) is bound
to a parameter that a test of the callee reads, so `if num_gpus == 1:` / `if use_gpu:` are decided in
that call's context; a parameter no test reads gets a plain number, so calls that differ only there
share one context.
"""
import ast
import textwrap

import pytest

from torchplace_rules import Severity, check_source
from torchplace_rules.flow.contexts import bind_arguments

H = "import torch\nimport torch.nn as nn\n"


def loud(body: str) -> set:
    source = H + textwrap.dedent(body)
    return {(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING}


STEP = """\
        def step(x, num_gpus):
            if num_gpus == 1:
                x = x.cuda()
            return x + torch.ones(2)
"""


@pytest.mark.parametrize("call, found", [
    ("return step(torch.ones(2), 1)", {(6, "TP101")}),
    ("return step(torch.ones(2), num_gpus=1)", {(6, "TP101")}),
    ("n = 1\n            return step(torch.ones(2), n)", {(6, "TP101")}),
    ("return step(torch.ones(2), 2)", set()),  # another int
    ("return step(torch.ones(2), num_gpus=0)", set()),
    ("n = 1\n            n += 1\n            return step(torch.ones(2), n)", set()),  # arithmetic changed it
])
def test_a_callers_int_decides_the_callees_comparison(call, found):
    assert loud(STEP + f"""\
        def run():
            {call}
    """) == found


def test_none_default_replaced_by_the_callers_int():
    # lmppl's `LM(..., num_gpus=1)`: `num_gpus = device_count() if num_gpus is None else num_gpus`
    assert loud("""\
        def step(x, num_gpus=None):
            num_gpus = torch.cuda.device_count() if num_gpus is None else num_gpus
            if num_gpus == 1:
                x = x.cuda()
            return x + torch.ones(2)
        def run():
            return step(torch.ones(2), num_gpus=1)
    """) == {(7, "TP101")}


def test_an_int_default_decides_where_the_call_omits_it():
    assert loud("""\
        def step(x, use_gpu=1):
            if use_gpu:
                x = x.cuda()
            return x + torch.ones(2)
        def run():
            return step(torch.ones(2))
    """) == {(6, "TP101")}


@pytest.mark.parametrize("value, found", [(1, {(8, "TP101")}), (0, set())])
def test_a_module_int_constant_decides_module_code(value, found):
    # Pytorch_fine_tuning_Tutorial: `use_gpu = GPU_MODE` (`GPU_MODE = 1` in the config module), `if use_gpu:`
    assert loud(f"""\
        GPU_MODE = {value}
        use_gpu = GPU_MODE
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == found


@pytest.mark.parametrize("ngpu, found", [(1, {(6, "TP101")}), (0, set())])
def test_an_order_comparison_of_a_module_int_decides_the_device(ngpu, found):
    # the DCGAN example: `ngpu = 1`, `device = torch.device("cuda:0" if (torch.cuda.is_available() and ngpu > 0) else "cpu")`
    assert loud(f"""\
        ngpu = {ngpu}
        device = torch.device("cuda:0" if (torch.cuda.is_available() and ngpu > 0) else "cpu")
        x = torch.ones(2, device=device)
        y = x + torch.ones(2)
    """) == found


@pytest.mark.parametrize("test, n, found", [("0 < n_gpu", 2, {(6, "TP101")}), ("n_gpu >= 1", 0, set()),
                                            ("n_gpu <= 1", 1, {(6, "TP101")}), ("n_gpu < 1", 3, set())])
def test_an_order_comparison_of_a_callers_int(test, n, found):
    assert loud(f"""\
        def step(x, n_gpu):
            if {test}:
                x = x.cuda()
            return x + torch.ones(2)
        def run():
            return step(torch.ones(2), {n})
    """) == found


def test_a_counter_is_no_longer_its_first_value():
    assert loud("""\
        count = 0
        count += 1
        x = torch.ones(2)
        if count == 0:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == set()
    assert loud("""\
        def f(xs):
            count = 0
            x = torch.ones(2)
            for _ in xs:
                if count == 0:
                    x = x.cuda()
                count += 1
            return x + torch.ones(2)
    """) == set()


def test_an_int_joined_with_another_is_not_decided():
    assert loud("""\
        import sys
        use_gpu = 1
        if len(sys.argv) > 1:
            use_gpu = 0
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == set()


def test_an_exact_int_is_still_a_number():
    # `torch.zeros(n)` with n an int constant is a vector (no CPU scalar), as with any number
    assert loud("""\
        def f(x):
            n = 3
            return torch.zeros(n) + x.cuda()
    """) == {(5, "TP101")}


def test_only_ints_a_test_reads_are_kept_in_a_call_context():
    from torchplace_rules.flow.values import NUMBER, IntV
    fnode = ast.parse(textwrap.dedent("""\
        def f(self, dim, num_gpus, depth=2, width=3):
            self.proj = nn.Linear(dim, dim)
            if num_gpus == 1 or depth > 1:
                self.cuda()
    """)).body[0]
    call = ast.parse("f(4, 1, width=5)").body[0].value
    bound = bind_arguments(fnode, list(call.args), [NUMBER, NUMBER], {"width": NUMBER}, IntV(0), call.keywords)
    assert bound["num_gpus"] == IntV(1) and bound["depth"] == IntV(2)
    assert bound["dim"] is NUMBER and bound["width"] is NUMBER


@pytest.mark.parametrize("imports", ["from config import *", "from config import GPU_MODE"])
@pytest.mark.parametrize("value, found", [(1, [(7, "TP101")]), (0, [])])
def test_an_int_constant_of_a_config_module_decides_the_importers_module_code(tmp_path, imports, value, found):
    from torchplace_rules import Config, check_path
    from torchplace_rules.project_index import ProjectIndex
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "config.py").write_text(f"GPU_MODE = {value}  # set to 1 to run on the GPU\n")
    (tmp_path / "train.py").write_text(textwrap.dedent(f"""\
        import torch
        {imports}
        use_gpu = GPU_MODE
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """))
    findings = check_path(tmp_path / "train.py", Config(), project=ProjectIndex(tmp_path))
    assert [(f.span.start_line + 1, f.code) for f in findings if f.severity <= Severity.WARNING] == found


def test_an_int_a_nested_function_may_rebind_is_not_decided():
    assert loud("""\
        def f(xs):
            count = 0
            def hook(_):
                nonlocal count
                count += 1
            for x in xs:
                hook(x)
            y = torch.ones(2)
            if count == 0:
                y = y.cuda()
            return y + torch.ones(2)
    """) == set()
