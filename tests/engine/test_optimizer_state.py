"""Optimizer state and module moves, construct by construct.

`Optimizer.load_state_dict` casts the loaded state to the parameters' device at load time; a later
in-place move of the module moves the parameters (the same Parameter objects) and not the state, so
the next `step()` raises (test_truth_table.py checks both facts with torch).  Each case is a function
body and the TP101 findings, with their severity, on its lines (counted from the `def` line, 1).
"""
import textwrap

import pytest

from torchplace_rules import Severity, check_source

H = "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n" \
    "        super().__init__()\n        self.encoder = nn.Linear(3, 3)\n        self.decoder = nn.Linear(3, 2)\n\n" \
    "    def groups(self, lr):\n        return [{'params': self.encoder.parameters(), 'lr': lr},\n" \
    "                {'params': self.decoder.parameters(), 'lr': lr / 10}]\n\n" \
    "    def forward(self, x):\n        return self.decoder(self.encoder(x))\n\n\n" \
    "def load_state(path, optimizer):\n    optimizer.load_state_dict(torch.load(path, map_location='cpu'))\n\n\n" \
    "def to_gpu(model):\n    model.cuda()\n\n\n"
FIRST = H.count("\n") + 1  # the line of `def case(...)`

E, W = Severity.ERROR, Severity.WARNING
# an Adam whose state was loaded while its module is on the CPU (lines 2-4 of a case)
LOADED = """
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))"""

CASES = {
    "load-then-model-cuda-rebinds-the-same-module": ("""
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model = model.cuda()
        optimizer.step()
        """, {(6, E)}),
    "load-then-module-to-device": ("""
        device = torch.device("cuda")
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.to(device)
        optimizer.step()
        """, {(7, E)}),
    "load-after-the-move": ("""
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        model.cuda()
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        optimizer.step()
        """, set()),
    "no-load-state-made-lazily-on-the-parameters-device": ("""
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        model.cuda()
        optimizer.step()
        """, set()),
    "move-to-the-cpu": ("""
        device = torch.device("cpu")
        model = Net()
        optimizer = torch.optim.AdamW(model.parameters())
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.to(device)
        optimizer.step()
        """, set()),
    "loaded-on-the-gpu-then-moved-to-the-cpu": ("""
        model = Net().cuda()
        optimizer = torch.optim.Adam(model.parameters())
        optimizer.load_state_dict(torch.load(path))
        model.cpu()
        optimizer.step()
        """, {(6, E)}),
    # loaded on one path only (a resume flag the analysis cannot decide): on the other path the state
    # is made lazily on the GPU and the step runs; every run that loads the state raises: a warning
    "load-under-an-undecided-flag-is-a-warning": ("""
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        if resume:
            optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.cuda()
        optimizer.step()
        """, {(7, W)}),
    "state-moved-by-hand-after-the-move": (LOADED + """
        model.cuda()
        for state in optimizer.state.values():
            for k, v in state.items():
                state[k] = v.cuda()
        optimizer.step()
        """, set()),
    "another-module-bound-to-the-name-is-moved": (LOADED + """
        model = Net()
        model.cuda()
        optimizer.step()
        """, set()),
    "sgd-without-momentum-keeps-no-state-tensors": ("""
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.cuda()
        optimizer.step()
        """, set()),
    "groups-of-submodule-parameters": ("""
        model = Net()
        optimizer = torch.optim.SGD([{"params": model.encoder.parameters()}, {"params": model.decoder.parameters()}],
                                    lr=0.1, momentum=0.9)
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.cuda()
        optimizer.step()
        """, {(7, E)}),
    "groups-from-a-method-of-the-module": ("""
        model = Net()
        optimizer = torch.optim.SGD(model.groups(0.1), lr=0.1, momentum=0.9)
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.cuda()
        optimizer.step()
        """, {(6, E)}),
    "loaded-by-a-helper-function": ("""
        model = Net()
        optimizer = torch.optim.Adam(model.parameters())
        load_state(path, optimizer)
        model.cuda()
        optimizer.step()
        """, {(6, E)}),
    "moved-by-a-helper-function": (LOADED + """
        to_gpu(model)
        optimizer.step()
        """, {(6, E)}),
    "moved-by-an-unknown-function": (LOADED + """
        setup(model)
        optimizer.step()
        """, set()),
    "optimizer-handed-to-an-unknown-function": (LOADED + """
        model.cuda()
        fix_state(optimizer)
        optimizer.step()
        """, set()),
    "an-unknown-module-placement": ("""
        model = build()
        optimizer = torch.optim.Adam(model.parameters())
        optimizer.load_state_dict(torch.load(path, map_location="cpu"))
        model.cuda()
        optimizer.step()
        """, set()),
}


def _tp101(body: str, params: str = "path, resume"):
    src = H + f"def case({params}):\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"
    return {(f.span.start_line + 2 - FIRST, f.severity) for f in check_source(src) if f.code == "TP101"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_optimizer_state_construct(name):
    body, expected = CASES[name]
    assert _tp101(body) == expected


def test_the_step_in_a_function_given_the_optimizer():
    """The step runs in another function (a training loop handed the optimizer): reported there."""
    src = H + textwrap.dedent("""\
        def train_epoch(model, optimizer, x):
            model(x).sum().backward()
            optimizer.step()


        def main(path):
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            optimizer.load_state_dict(torch.load(path, map_location="cpu"))
            model = model.cuda()
            train_epoch(model, optimizer, torch.ones(2, 3, device="cuda"))
        """)
    got = [(f.span.start_line + 2 - FIRST, f.severity, f) for f in check_source(src) if f.code == "TP101"]
    assert [(line, sev) for line, sev, _ in got] == [(3, E)]
    assert any(r.message == "in this call" for r in got[0][2].related)


def test_an_optimizer_of_another_function_without_a_load():
    src = H + textwrap.dedent("""\
        def train_epoch(model, optimizer, x):
            model(x).sum().backward()
            optimizer.step()


        def main():
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
            model = model.cuda()
            train_epoch(model, optimizer, torch.ones(2, 3, device="cuda"))
        """)
    assert [f for f in check_source(src) if f.code == "TP101"] == []
