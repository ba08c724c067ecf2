"""`sys.exit(...)`, `exit(...)`, `quit(...)`, `os._exit(...)` end the path as `raise` does (SystemExit):
what a branch that exits binds never reaches the code after it.  A function of the program that
happens to be called `exit` is an ordinary call.  Each snippet runs on the fake GPU too (with no
`--cpu` on the command line): it raises exactly where an error is expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import os\nimport sys\nimport torch\nimport torch.nn as nn\n"
EXITING_BRANCH = """\
    device = torch.device("cuda")
    if "--cpu" in sys.argv:
        device = torch.device("cpu")
        print("CPU run: nothing to do")
        {exit_call}
    model = nn.Linear(4, 4).to(device)
    y = model(torch.rand(2, 4))
    """
CASES = {
    "sys-exit": (EXITING_BRANCH.format(exit_call="sys.exit(0)"), {(7, "TP102")}),
    "builtin-exit": (EXITING_BRANCH.format(exit_call='exit("bye")'), {(7, "TP102")}),
    "builtin-quit": (EXITING_BRANCH.format(exit_call="quit()"), {(7, "TP102")}),
    "os-exit": (EXITING_BRANCH.format(exit_call="os._exit(0)"), {(7, "TP102")}),
    # (not proven: with `--cpu` the run goes on with a CPU model)
    "a-function-of-the-program-named-exit": ("def exit(code):\n    print(code)\n"
                                             + textwrap.dedent(EXITING_BRANCH).format(exit_call="exit(0)"), set()),
    "moved-in-the-branch-that-goes-on": ("""\
        device = torch.device("cuda")
        if "--cpu" in sys.argv:
            device = torch.device("cpu")
        else:
            sys.exit("only the CPU run is kept here")
        model = nn.Linear(4, 4).to(device)
        y = model(torch.rand(2, 4))
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_program_ends(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", ["sys-exit", "builtin-exit", "os-exit"])
def test_pytorch_agrees(name):
    """Without `--cpu` the exiting branch is not taken and the call raises."""
    from .fake_gpu import run_on_fake_gpu

    error = run_on_fake_gpu(H + textwrap.dedent(CASES[name][0]))
    assert error is not None and "same device" in str(error), repr(error)
