"""Where a module's constructor leaves it: moves of `self` in `__init__` and in the methods it calls.

`__init__` may move the instance itself (`self.cuda()`, `self.to(self.device)`), directly or in a helper
it calls on `self` (`self.build()`), often behind a flag the caller passed (`on_gpu=True`) and stored
on the instance (`self.on_gpu = on_gpu`, read by the helper's `if self.on_gpu:`).  The flag a caller
bound on `self` before calling the helper decides the helper's test there (in that order of the
constructor's flow: what it held at the call); where the flag is unknown, the instance's device is
unknown and nothing is reported.  A subclass runs its base's `__init__` (its own `super().__init__()`,
or none of its own), so the base's self-move places the subclass's instance too.

A module whose `__init__` holds only submodules (no parameters or buffers of its own) is where this
call's `__init__` left them when they agree: a part moved there (`self.lin.to(device)`), or a deep copy
of a module passed in (timm's ModelEmaV3: `self.module = deepcopy(model)`, moved to `device=` when one
is given).  A module argument the constructor only deep-copies, or does not read, is not held by the
instance.  Parts on two devices, or a part another method binds again, leave the device unknown.

The data side of the same programs: a dict filled in a loop (`items = {}`, then `items[i] = t`) holds
what the loop stored (an empty dict has no value to join), and a batch taken with a comprehension over
a loader (`[b for b in loader][0]`) is reported as a loop's batch is (no fix: there is no loop top).

Each case is also run on a simulated GPU (FakeTensorMode) where the harness can run it: `raises` says
what torch 2.13 does with `run`."""
import pytest

from .fake_gpu import run_on_fake_gpu
from .test_finding_context import loud

HEAD = "import torch\nimport torch.nn as nn\nimport torch.utils.data as data\n\n\n"

BUILD = """\
class Net(nn.Module):
    def __init__(self, n=3, on_gpu=False):
        super().__init__()
        self.on_gpu = on_gpu
        self.w_in = nn.Linear(n, 4)
        self.build()

    def build(self):
        if self.on_gpu:
            self.cuda()

    def forward(self, x):
        return self.w_in(x)
"""

# timm's ModelEmaV3: a deep copy of the model, moved to `device` when one is given
EMA = """\
from copy import deepcopy


class Ema(nn.Module):
    def __init__(self, model, device=None):
        super().__init__()
        self.module = deepcopy(model)
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    @torch.no_grad()
    def update(self, model):
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_v.lerp_(model_v, weight=0.1)  # expect: TP101
            else:
                ema_v.copy_(model_v)
"""

# pyrnn's shape: the base stores the flag, the middle class's `__init__` builds, the leaf hands the flag on
CHAIN = """\
class Base(nn.Module):
    def __init__(self, n=3, on_gpu=False):
        super(Base, self).__init__()
        self.on_gpu = on_gpu
        self.n = n

    def build(self):
        if self.on_gpu:
            if torch.cuda.is_available():
                self.cuda()
        else:
            self.on_gpu = False


class Mid(Base):
    def __init__(self, n=3, on_gpu=False):
        Base.__init__(self, n=n, on_gpu=on_gpu)
        self.w_in = nn.Linear(n, 4)
        self.build()

    def forward(self, x):
        return self.w_in(x)


class Leaf(Mid):
    def __init__(self, n=3, on_gpu=False, tau=10):
        Mid.__init__(self, n=n, on_gpu=on_gpu)
        self.tau = tau
"""

MOVES_ITSELF = """\
class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Linear(3, 3)
        self.cuda()

    def forward(self, x):
        return self.w(x)


class B(A):
    pass


class C(A):
    def __init__(self):
        super().__init__()
        self.k = 1
"""

DATASET = """\
class Items(data.Dataset):
    def __init__(self, n):
        self.n = n
        self.make()

    def __len__(self):
        return self.n

    def make(self):
        self.items = {}
        for i in range(self.n):
            x = torch.zeros((5, 3))
            self.items[i] = (x, x)

    def __getitem__(self, item):
        x, y = self.items[item]
        return x, y
"""

CASES = {
    # -- a flag stored on self, read by the helper the constructor calls
    "helper-flag-true": dict(code=BUILD + """
def main():
    net = Net(3, on_gpu=True)
    return net(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    "helper-flag-false": dict(code=BUILD + """
def main():
    net = Net(3, on_gpu=False)
    return net(torch.zeros(2, 3))
""", run="main()", raises=False),
    "helper-flag-unknown": dict(code=BUILD + """
def main(flag):
    net = Net(3, on_gpu=flag)
    return net(torch.zeros(2, 3))
""", run="main(False)", raises=False),
    "helper-flag-moved-input": dict(code=BUILD + """
def main():
    net = Net(3, on_gpu=True)
    return net(torch.zeros(2, 3).cuda())
""", run="main()", raises=False),
    "helper-called-before-the-flag-is-stored": dict(code=BUILD.replace(
        "        self.on_gpu = on_gpu\n        self.w_in = nn.Linear(n, 4)\n        self.build()\n",
        "        self.on_gpu = False\n        self.w_in = nn.Linear(n, 4)\n        self.build()\n        self.on_gpu = on_gpu\n") + """
def main():
    net = Net(3, on_gpu=True)
    return net(torch.zeros(2, 3))
""", run="main()", raises=False),
    "base-stores-middle-builds-leaf-hands-on": dict(code=CHAIN + """
def main():
    net = Leaf(n=3, on_gpu=True, tau=5)
    return net(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    "base-stores-middle-builds-false": dict(code=CHAIN + """
def main():
    net = Leaf(n=3, on_gpu=False, tau=5)
    return net(torch.zeros(2, 3))
""", run="main()", raises=False),
    "classmethod-builds-cls-with-kwargs": dict(code=CHAIN + """
class Loaded(Leaf):
    @classmethod
    def load(cls, *args, **kwargs):
        model = cls(*args, **kwargs)
        model.eval()
        return model


def main():
    net = Loaded.load(n=3, on_gpu=True)
    return net(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    # -- the same family, decided before this change too (guards)
    "init-moves-to-its-device-attribute": dict(code="""\
class Net(nn.Module):
    def __init__(self, n=3, device="cpu"):
        super().__init__()
        self.device = device
        self.w_in = nn.Linear(n, 4)
        self.to(self.device)

    def forward(self, x):
        return self.w_in(x)


def main():
    net = Net(3, device="cuda")
    return net(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    "init-tests-its-flag-parameter": dict(code="""\
class Net(nn.Module):
    def __init__(self, n=3, use_cuda=False):
        super().__init__()
        self.w_in = nn.Linear(n, 4)
        if use_cuda:
            self.cuda()

    def forward(self, x):
        return self.w_in(x)


def main():
    return Net(3, use_cuda=True)(torch.zeros(2, 3)), Net(3, use_cuda=False)(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    # -- a base's self-move places its subclasses' instances
    "subclass-without-init-gets-a-cuda-input": dict(code=MOVES_ITSELF + """
def main():
    return B()(torch.zeros(2, 3).cuda())
""", run="main()", raises=False),
    "subclass-calling-super-init-gets-a-cuda-input": dict(code=MOVES_ITSELF + """
def main():
    return C()(torch.zeros(2, 3).cuda())
""", run="main()", raises=False),
    "subclass-without-init-gets-a-cpu-input": dict(code=MOVES_ITSELF + """
def main():
    return B()(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    # -- a module holding only submodules is where this call's `__init__` left them (ModelEmaV3's shape)
    "deep-copied-module-moved-to-the-cpu": dict(code=EMA + """
def main():
    model = nn.Linear(3, 4).cuda()
    ema = Ema(model, device=torch.device("cpu"))
    ema.update(model)
""", run="main()", raises=True),
    "deep-copied-module-left-where-the-original-is": dict(code=EMA.replace("  # expect: TP101", "") + """
def main():
    model = nn.Linear(3, 4).cuda()
    ema = Ema(model)
    ema.update(model)
""", run="main()", raises=False),
    "module-argument-not-kept": dict(code="""\
class Head(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.proj = nn.Linear(3, 4)

    def forward(self, x):
        return self.proj(x)


def main():
    backbone = nn.Linear(3, 3).cuda()
    head = Head(backbone)
    return head(backbone(torch.zeros(2, 3).cuda()))  # expect: TP102
""", run="main()", raises=True),
    "part-moved-to-the-constructors-device": dict(code="""\
class Net(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.lin = nn.Linear(3, 4)
        self.lin.to(device)

    def forward(self, x):
        return self.lin(x)


def main():
    return Net("cuda")(torch.zeros(2, 3))  # expect: TP102
""", run="main()", raises=True),
    "parts-on-two-devices": dict(code="""\
class Net(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.a = nn.Linear(3, 4)
        self.b = nn.Linear(4, 4)
        self.b.to(device)

    def forward(self, x):
        return self.b(self.a(x).to("cuda"))


def main():
    return Net("cuda")(torch.zeros(2, 3))
""", run="main()", raises=False),
    "part-bound-again-in-another-method": dict(code="""\
class Net(nn.Module):
    def __init__(self, device):
        super().__init__()
        self.lin = nn.Linear(3, 4)
        self.lin.to(device)

    def reset(self):
        self.lin = nn.Linear(3, 4)

    def forward(self, x):
        return self.lin(x)


def main():
    net = Net("cuda")
    net.reset()
    return net(torch.zeros(2, 3))
""", run="main()", raises=False),
    # -- a dict filled in a loop
    "dict-filled-in-a-loop": dict(code="""\
def main(k, n):
    model = nn.Linear(3, 3).cuda()
    items = {}
    for i in range(n):
        items[i] = (torch.zeros(5, 3), torch.zeros(5, 3))
    x, y = items[k]
    return model(x)  # expect: TP102
""", run="main(1, 3)", raises=True),
    "dict-filled-in-a-loop-with-moved-tensors": dict(code="""\
def main(k, n):
    model = nn.Linear(3, 3).cuda()
    items = {}
    for i in range(n):
        items[i] = (torch.zeros(5, 3).cuda(), torch.zeros(5, 3))
    x, y = items[k]
    return model(x)
""", run="main(1, 3)", raises=False),
    # -- batches of a dataset that keeps its samples in such a dict (the harness runs no DataLoader)
    "dataset-items-dict-batch-into-a-cuda-model": dict(code=DATASET + """
def main():
    model = nn.Linear(3, 3).cuda()
    loader = data.DataLoader(Items(4), batch_size=1)
    for x, y in loader:
        model(x)  # expect: TP103
"""),
    "comprehension-batch-into-a-cuda-model": dict(code=DATASET + """
def main():
    model = nn.Linear(3, 3).cuda()
    loader = data.DataLoader(Items(4), batch_size=1)
    x, y = [b for b in loader][0]
    return model(x)  # expect: TP103
"""),
    "comprehension-batch-moved": dict(code=DATASET + """
def main():
    model = nn.Linear(3, 3).cuda()
    loader = data.DataLoader(Items(4), batch_size=1)
    x, y = [b for b in loader][0]
    return model(x.cuda())
"""),
}


def _source(name: str) -> str:
    return HEAD + CASES[name]["code"]


def _expected(source: str) -> set:
    return {(n, line.rpartition("# expect: ")[2].strip()) for n, line in enumerate(source.splitlines(), 1)
            if "# expect: " in line}


@pytest.mark.parametrize("name", list(CASES))
def test_the_engine_reports_what_the_case_expects(name):
    source = _source(name)
    assert loud(source) == _expected(source)


@pytest.mark.parametrize("name", [n for n in CASES if "run" in CASES[n]])
def test_truth_on_a_simulated_gpu(name):
    raised = run_on_fake_gpu(_source(name) + "\n" + CASES[name]["run"] + "\n")
    assert (raised is not None) == CASES[name]["raises"], raised
    if raised is not None:
        assert "device" in str(raised)

