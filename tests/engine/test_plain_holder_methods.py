"""A module held by a plain object (a project class that is no nn.Module), read in one of its methods.

With a caller's instance the engine knows where the module is (`c = Runner(); c.run(x)`: as
`__init__` made it, or as the caller moved it).  A method analysed with no caller (an entry point)
does not: whoever holds the object may have moved the module in place since (`runner.model.cuda()`,
a `setup()` method that calls `self.model.to(device)`), as `Module.to()` changes the module, not the
attribute.  There, "never moved off the CPU" would be a false error: nothing is reported.

The same holds for an instance no caller's name holds: a plain class's own `cuda()` that moves what it
holds and returns `self` (`agent = Agent().cuda()`) hands back the moved attributes, and a method a class
leaves to `__getattr__` (`wrapper.cuda()`, delegated to the wrapped model) may move what it holds."""
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


AGENT = """\
import torch
import torch.nn as nn


class Agent:
    def __init__(self):
        self.net = nn.Linear(3, 3)
        self.buf = torch.zeros(10, 3)

    def cuda(self):
        self.net.cuda()
        self.buf = self.buf.cuda()
        return self

    def act(self, obs):
        obs = torch.as_tensor(obs).cuda()
        return self.net(obs) + self.buf[0]


def play():
{play}
"""


@pytest.mark.parametrize("play", ["    agent = Agent().cuda()\n    agent.act([1.0, 2.0, 3.0])",
                                  "    agent = Agent()\n    agent.cuda()\n    agent.act([1.0, 2.0, 3.0])",
                                  "    Agent().cuda().act([1.0, 2.0, 3.0])"])
def test_a_method_returning_self_hands_back_what_it_moved(play):
    # `return self` of a plain class carries the attributes the method bound or moved in place
    assert loud(AGENT.format(play=play)) == set()


def test_an_instance_the_method_was_not_called_on_is_reported():
    assert loud(AGENT.format(play="    agent = Agent()\n    agent.act([1.0, 2.0, 3.0])")) == {(17, "TP102")}


WRAPPER = """\
import torch
import torch.nn as nn


class Wrapper:
    def __init__(self, model):
        self.model = model

    def __getattr__(self, name):
        return getattr(self.model, name)

    def predict(self, x):
        return self.model(x.cuda())


def infer():
    w = Wrapper(nn.Linear(3, 3))
{move}    w.predict(torch.ones(3))
"""


def test_a_method_the_class_hands_to_getattr_may_move_what_it_holds():
    # `w.cuda()` is `getattr(self.model, "cuda")()`: the wrapped model moves
    assert loud(WRAPPER.format(move="    w.cuda()\n")) == set()


def test_a_wrapper_with_getattr_never_moved_is_reported():
    assert loud(WRAPPER.format(move="")) == {(13, "TP102")}


BUILD = """\
import torch
import torch.nn as nn


class Runner:
    def __init__(self):
        self.model = nn.Linear(3, 3)

    def run(self, x):
        return self.model(x.cuda())


def build():
    r = Runner()
{move}    return r


def main():
    r = build()
    r.run(torch.ones(3))
"""


def test_a_function_returning_an_object_it_moved_hands_back_the_moved_module():
    # `return r` carries what the function bound or moved at `r.*`
    assert loud(BUILD.format(move="    r.model.cuda()\n")) == set()
    assert loud(BUILD.format(move="    r.model = r.model.to('cuda')\n")) == set()


def test_a_function_returning_an_object_it_did_not_move_is_reported():
    assert loud(BUILD.format(move="")) == {(10, "TP102")}


MODELS = """\
import torch
import torch.nn as nn


class Runner:
    def __init__(self):
        self.models = {{"a": nn.Linear(3, 3), "b": nn.Linear(3, 3)}}

    def run(self, x):
        return self.models["a"](x.cuda())


def prepare(runner, device):
    for {target} in runner.models{call}:
        {moved}.to(device)


def main():
    r = Runner()
{prepare}    r.run(torch.ones(3))
"""


@pytest.mark.parametrize("target,call,moved", [("m", ".values()", "m"), ("(k, m)", ".items()", "m"),
                                               ("k", "", "runner.models[k]")])
def test_modules_moved_in_place_through_a_loop_over_their_container_are_not_proven_unmoved(target, call, moved):
    assert loud(MODELS.format(target=target, call=call, moved=moved, prepare="    prepare(r, 'cuda')\n")) == set()


def test_a_container_of_modules_never_moved_is_reported():
    assert loud(MODELS.format(target="m", call=".values()", moved="m", prepare="")) == {(10, "TP102")}
