"""A module held by a plain object (a project class that is no nn.Module), read in one of its methods.

With a caller's instance the engine knows where the module is (`c = Runner(); c.run(x)`: as
`__init__` made it, or as the caller moved it).  A method analysed with no caller (an entry point)
does not: whoever holds the object may have moved the module in place since (`runner.model.cuda()`,
a `setup()` method that calls `self.model.to(device)`), as `Module.to()` changes the module, not the
attribute.  There, "never moved off the CPU" would be a false error: nothing is reported."""
import pytest

from .test_finding_context import loud

HEAD = """\
import torch
import torch.nn as nn


class Runner:
    def __init__(self):
        self.model = nn.Linear(4, 4)
{method}
    def run(self, x):
        return self.model(x.cuda())
"""

QUIET = {
    "moved-in-place-by-a-setup-method": "\n    def setup(self, device):\n        self.model.to(device)\n",
    "re-bound-by-a-setup-method": "\n    def setup(self):\n        self.model = self.model.cuda()\n",
    "moved-by-whoever-holds-it": "",
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_entry_method_does_not_prove_the_module_unmoved(name):
    assert loud(HEAD.format(method=QUIET[name])) == set()


def test_a_callers_instance_as_made_is_reported():
    assert loud(HEAD.format(method="") + """
def main():
    runner = Runner()
    runner.run(torch.ones(4))
""") == {(10, "TP102")}


def test_a_callers_instance_moved_in_place_is_quiet():
    assert loud(HEAD.format(method="") + """
def main():
    runner = Runner()
    runner.model.cuda()
    runner.run(torch.ones(4))
""") == set()


def test_a_model_handed_to_the_holder_unmoved_is_reported():
    assert loud("""\
import torch
import torch.nn as nn


class Predictor:
    def __init__(self, model):
        self.model = model

    def predict(self, x):
        return self.model(x.cuda())


if __name__ == "__main__":
    predictor = Predictor(nn.Linear(4, 4))
    predictor.predict(torch.ones(4))
""") == {(10, "TP102")}
