"""`parser.parse_args()`: numeric options are numbers, so a CUDA device built from one is chosen at
run time (`flow/command_line.py`).  Each case is a whole program; the TP101 findings at warning level
and above are listed with their lines.  The argparse facts the model rests on are checked with
argparse itself."""
import argparse
import textwrap

import pytest

from torchplace_rules import Severity, check_source

PROGRAM = """
import argparse
import torch
import torch.nn as nn

parser = argparse.ArgumentParser()
{option}
args = parser.parse_args()
model = nn.Linear(4, 4).{move}
x = torch.randn(2, 4).{move}
y = model(x) + torch.ones(2, 4).cuda()
"""
LINE = 11  # the last line: a current-device (cuda:0) tensor meets the model's output


def tp101(option: str, move: str) -> set:
    source = textwrap.dedent(PROGRAM.format(option=option, move=move))
    return {(f.span.start_line + 1, f.severity) for f in check_source(source, "train.py")
            if f.code == "TP101" and f.severity <= Severity.WARNING}


WARNED = {(LINE, Severity.WARNING)}
# option, the move of the model and the input, the TP101 findings at warning level and above
CASES = {
    "int-option-as-device": ('parser.add_argument("--gpu", type=int, default=0)', "to(torch.device(args.gpu))", WARNED),
    "short-option-dest": ('parser.add_argument("-gpu", default=0, type=int)', "to(torch.device(args.gpu))", WARNED),
    "explicit-dest": ('parser.add_argument("--device-id", dest="gid", type=int, default=1)', "cuda(args.gid)", WARNED),
    "dashes-become-underscores": ('parser.add_argument("--gpu-id", type=int, default=0)', "cuda(args.gpu_id)", WARNED),
    "list-of-gpu-ids": ('parser.add_argument("--gpu_ids", type=int, nargs="+", default=[0])', "cuda(args.gpu_ids[0])",
                        WARNED),
    "required-int": ('parser.add_argument("--rank", type=int, required=True)', "cuda(args.rank)", WARNED),
    # other options say nothing of the index.  May be None (no default): `torch.device(None)` raises,
    # `.cuda(None)` is the current device
    "int-option-without-a-default": ('parser.add_argument("--gpu", type=int)', "cuda(args.gpu)", set()),
    "a-string-option": ('parser.add_argument("--gpu", default="0")', "cuda(args.gpu)", set()),
    "an-explicit-action": ('parser.add_argument("--gpu", type=int, default=0, action="store")', "cuda(args.gpu)", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_numeric_option_is_a_gpu_index_chosen_at_run_time(name):
    option, move, expected = CASES[name]
    assert tp101(option, move) == expected


def test_a_device_option_not_declared_numeric_keeps_its_reading():
    # `args.device` (a string option) is read as any config object's device: the accelerator it names
    source = textwrap.dedent("""
        import argparse
        import torch
        import torch.nn as nn

        parser = argparse.ArgumentParser()
        parser.add_argument("--device", default="cuda")
        parser.add_argument("--gpu", type=int, default=0)
        args = parser.parse_args()
        model = nn.Linear(4, 4).to(args.device)
        model(torch.randn(2, 4))
        """)
    assert {(f.span.start_line + 1, f.code) for f in check_source(source, "train.py")
            if f.severity <= Severity.WARNING} == {(11, "TP102")}


@pytest.mark.parametrize("argv, dest, value", [
    (["--gpu", "1"], "gpu", 1), (["-gpu", "1"], "gpu", 1), (["--gpu-id", "2"], "gpu_id", 2),
    (["--gpu_ids", "1", "2"], "gpu_ids", [1, 2]), (["--device-id", "3"], "gid", 3),
])
def test_truth_argparse_stores_numbers_under_these_names(argv, dest, value):
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu", "-gpu", type=int, default=0)
    parser.add_argument("--gpu-id", type=int, default=0)
    parser.add_argument("--gpu_ids", type=int, nargs="+", default=[0])
    parser.add_argument("--device-id", dest="gid", type=int, default=1)
    assert getattr(parser.parse_args(argv), dest) == value


# `args.cuda = not args.no_cuda and torch.cuda.is_available()` (pytorch/examples' idiom): with the command
# line's defaults the test is `torch.cuda.is_available()`, taken as true like the call alone
FLAG_PROGRAM = """
import argparse
import numpy as np
import torch

parser = argparse.ArgumentParser()
{option}
args = parser.parse_args()
args.cuda = {test}


def evaluate(args, x):
    if args.cuda:
        x = x.cuda()
    return np.array(x)


evaluate(args, torch.ones(3))
"""
FLAG_LINE = 15  # `return np.array(x)`


def tp104_lines(option: str, test: str) -> set:
    source = textwrap.dedent(FLAG_PROGRAM.format(option=option, test=test))
    return {f.span.start_line + 1 for f in check_source(source, "train.py")
            if f.code == "TP104" and f.severity <= Severity.WARNING}


AVAILABLE = "torch.cuda.is_available()"
FLAG_CASES = {
    "store-true-opt-out": ('parser.add_argument("--no-cuda", action="store_true")', f"not args.no_cuda and {AVAILABLE}",
                           {FLAG_LINE}),
    "availability-first": ('parser.add_argument("--no-cuda", action="store_true", default=False)',
                           f"{AVAILABLE} and not args.no_cuda", {FLAG_LINE}),
    "bool-option-on-by-default": ('parser.add_argument("--cuda", default=True, type=bool)', f"args.cuda and {AVAILABLE}",
                                  {FLAG_LINE}),
    "store-false": ('parser.add_argument("--cpu-only", action="store_false", dest="gpu")', f"args.gpu and {AVAILABLE}",
                    {FLAG_LINE}),
    # off by default: the default run stays on the CPU
    "store-true-opt-in": ('parser.add_argument("--cuda", action="store_true")', f"args.cuda and {AVAILABLE}", set()),
    "opt-out-not-negated": ('parser.add_argument("--no-cuda", action="store_true")', f"args.no_cuda and {AVAILABLE}",
                            set()),
    "bool-option-off-by-default": ('parser.add_argument("--cuda", default=False, type=bool)',
                                   f"args.cuda and {AVAILABLE}", set()),
    # not what argparse's defaults say: unknown
    "undeclared-option": ('parser.add_argument("--gpu", type=int, default=0)', f"not args.no_cuda and {AVAILABLE}", set()),
    "a-custom-action": ('parser.add_argument("--no-cuda", action=argparse.BooleanOptionalAction, default=False)',
                        f"not args.no_cuda and {AVAILABLE}", set()),
    "or-is-not-and": ('parser.add_argument("--no-cuda", action="store_true")', f"not args.no_cuda or {AVAILABLE}", set()),
}


@pytest.mark.parametrize("name", sorted(FLAG_CASES))
def test_a_flag_on_by_default_and_cuda_availability_is_the_accelerator_test(name):
    option, test, expected = FLAG_CASES[name]
    assert tp104_lines(option, test) == expected


def test_a_test_of_the_flag_itself_stays_undecided():
    # the user may give `--no-cuda`: `if not args.no_cuda:` alone decides nothing
    option = 'parser.add_argument("--no-cuda", action="store_true")'
    assert tp104_lines(option, "not args.no_cuda") == set()


@pytest.mark.parametrize("argv, expected", [([], True), (["--no-cuda"], False)])
def test_truth_argparse_boolean_defaults(argv, expected):
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-cuda", action="store_true")
    parser.add_argument("--cuda", default=True, type=bool)
    parser.add_argument("--cpu-only", action="store_false", dest="gpu")
    parser.add_argument("--opt-in", action="store_true")
    args = parser.parse_args(argv)
    assert (not args.no_cuda) is expected
    assert args.cuda is True and args.gpu is True and args.opt_in is False
