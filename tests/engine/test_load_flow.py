"""TP204 follows what `torch.load` gives to the `load_state_dict` it reaches (issue 10, GaNDLF),
whatever the name it is bound to: the value bound, or an entry of it, handed to a later
`load_state_dict` in the same body before the name is bound again.  Lines count from the snippet.
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"

CASES = {
    "entry-of-the-loaded-value-reaches-load-state-dict": ("""\
        def infer(path):
            model = nn.Linear(4, 2)
            main_dict = torch.load(path)
            model.load_state_dict(main_dict["model_state_dict"])
            return model.to(device)
        """, {(3, "TP204")}),
    "loaded-value-itself-reaches-load-state-dict": ("""\
        def infer(path):
            model = nn.Linear(4, 2)
            loaded = torch.load(path)
            model.load_state_dict(loaded)
            return model.to(device)
        """, {(3, "TP204")}),
    # twins: the loaded value never reaches a load_state_dict, reaches that of a scheduler, or
    # the name holds something else by then
    "loaded-value-read-as-data": ("""\
        def infer(path):
            main_dict = torch.load(path)
            return main_dict["epoch"]
        """, set()),
    "loaded-value-reaches-a-schedulers-state": ("""\
        def resume(path, scheduler):
            main_dict = torch.load(path)
            scheduler.load_state_dict(main_dict["sched"])
        """, set()),
    "name-bound-again-before-load-state-dict": ("""\
        def infer(path, other):
            model = nn.Linear(4, 2)
            main_dict = torch.load(path)
            print(main_dict["epoch"])
            main_dict = other
            model.load_state_dict(main_dict)
            return model.to(device)
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_flow(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
