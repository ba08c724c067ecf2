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
