"""Tests of a flag a function set itself (`first = True` ... `if first:`) are decided.

`FlagV` (flow/values.py): `True`/`False` assigned to a name.  Where a local name holds the same
flag on every path, `if name:` runs only the branch it selects; a flag joined with anything else
(another flag, None, an unknown) is unknown.  Module code decides its own tests of a module name
unless a `global` statement in the file may rebind it (other modules run only after it).  A call's
flag argument (a flag variable or a literal `True`/`False`) decides the callee's tests in that
call's context, as its devices do.
"""
import textwrap

import pytest

from torchplace_rules import Severity, check_source

H = "import torch\nimport torch.nn as nn\n"


# a module whose method mixes a placeholder made on the CPU with its layer's output
DECODER = """\
        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(4, 4)
"""


def loud(body: str) -> set:
    source = H + textwrap.dedent(body)
    return {(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING}


def test_first_pass_placeholder_replaced_before_use_is_quiet():
    # speechbrain's Tacotron2 `infer`: CPU placeholders the first iteration replaces before any `cat`
    assert loud(DECODER + """\
            def infer(self, memory):
                mel_outputs = torch.zeros(1)
                first_iter = True
                while True:
                    mel_output = self.proj(memory)
                    if first_iter:
                        mel_outputs = mel_output.unsqueeze(0)
                        first_iter = False
                    else:
                        mel_outputs = torch.cat((mel_outputs, mel_output.unsqueeze(0)), dim=0)
                    if mel_outputs.shape[0] > 10:
                        break
                return mel_outputs
    """) == set()


def test_placeholder_used_on_the_first_pass_is_still_reported():
    # the flag is cleared before the branch that uses the placeholder: the first pass mixes devices
    assert loud(DECODER + """\
            def infer(self, memory):
                outs = torch.zeros(1)
                first = True
                for _ in range(3):
                    out = self.proj(memory)
                    if first:
                        first = False
                    outs = torch.cat((outs, out), dim=0)
                return outs
    """) == {(8, "TP202")}


def test_a_flag_set_in_the_function_decides_the_branch():
    assert loud("""\
        def run():
            use_gpu = True
            x = torch.ones(2)
            if use_gpu:
                x = x.cuda()
            return x + torch.ones(2)
    """) == {(8, "TP101")}


def test_a_negated_false_flag_decides_the_branch():
    assert loud("""\
        def run():
            skip = False
            x = torch.ones(2)
            if not skip:
                x = x.cuda()
            return x + torch.ones(2)
    """) == {(8, "TP101")}


@pytest.mark.parametrize("first, then", [("True", "False"), ("None", "True")])
def test_a_flag_that_differs_between_paths_is_unknown(first, then):
    # (None is false: a name that may hold None or True decides nothing)
    assert loud(f"""\
        def run(cond):
            use_gpu = {first}
            if cond:
                use_gpu = {then}
            x = torch.ones(2)
            if use_gpu:
                x = x.cuda()
            return x + torch.ones(2)
    """) == set()


def test_a_module_code_flag_decides_the_module_codes_branch():
    # DeepCTR's run_dien.py: `use_cuda = True` then `if use_cuda and torch.cuda.is_available():` under
    # `__main__`; only the module's own statements ran in between
    assert loud("""\
        use_gpu = True
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == {(7, "TP101")}
    assert loud("""\
        device = "cpu"
        use_cuda = True
        if use_cuda and torch.cuda.is_available():
            device = "cuda:0"
        y = torch.ones(2, device=device) + torch.ones(2)
    """) == {(7, "TP101")}


@pytest.mark.parametrize("rebind", ["global use_gpu\n            use_gpu = False",
                                    "x = 1; global use_gpu\n            use_gpu = False"])
def test_module_code_flags_a_function_may_rebind_are_not_decided(rebind):
    assert loud(f"""\
        def off():
            {rebind}
        use_gpu = True
        off()
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == set()


def test_a_module_code_flag_joined_with_another_is_not_decided():
    assert loud("""\
        import sys
        use_gpu = True
        if len(sys.argv) > 1:
            use_gpu = False
        x = torch.ones(2)
        if use_gpu:
            x = x.cuda()
        y = x + torch.ones(2)
    """) == set()


STEP = """\
        def step(x, use_gpu):
            if use_gpu:
                x = x.cuda()
            return x + torch.ones(2)
"""


@pytest.mark.parametrize("call", ["use_gpu = True\n            return step(torch.ones(2), use_gpu)",
                                  "return step(torch.ones(2), True)",
                                  "return step(torch.ones(2), use_gpu=True)"])
def test_a_callers_flag_decides_the_callee_in_that_call(call):
    # the call's context binds the flag: `if use_gpu:` runs, and `x + torch.ones(2)` meets cuda and the CPU
    assert loud(STEP + f"""\
        def run():
            {call}
    """) == {(6, "TP101")}


@pytest.mark.parametrize("call", ["return step(torch.ones(2), False)",
                                  "use_gpu = False\n            return step(torch.ones(2), use_gpu=use_gpu)"])
def test_a_callers_false_flag_is_quiet(call):
    assert loud(STEP + f"""\
        def run():
            {call}
    """) == set()


def test_a_function_nobody_calls_does_not_decide_its_flag_parameter():
    # analysed as an entry point, `use_gpu` is unknown: x is on either device, nothing is proven
    assert loud(STEP) == set()


def test_only_flags_a_test_reads_are_kept_in_a_call_context():
    # a flag no test of the callee reads (`bias=True` handed on to a layer) is bound as unknown, so
    # calls that differ only there share one context
    import ast

    from torchplace_rules.flow.contexts import _tested_flags
    fnode = ast.parse(textwrap.dedent("""\
        def __init__(self, dim, bias, on_gpu, verbose):
            self.proj = nn.Linear(dim, dim, bias=bias)
            self.on_gpu = on_gpu
            if self.on_gpu:
                self.cuda()
            print(verbose)
    """)).body[0]
    tested = _tested_flags(fnode)
    assert "on_gpu" in tested and "self.on_gpu" in tested
    assert "bias" not in tested and "verbose" not in tested


def test_a_flag_handed_to_an_attribute_decides_the_same_method():
    assert loud("""\
        def kernel(n, cuda):
            k = torch.ones(n)
            use = cuda
            if use:
                k = k.cuda()
            return k + torch.ones(n)
        def run():
            return kernel(3, True)
    """) == {(8, "TP101")}
