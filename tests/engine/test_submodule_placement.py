"""A submodule moved (or bound) through its owner (issue 10), construct by construct.

`m.model.to("cuda")` moves that submodule alone: a method of `m` that reads `self.model` sees it
there (deepforest's `predict_image` handing `self.model` on), until the owner itself moves
(`m.to(...)`, or `self.to(...)` in a method), which moves every submodule again.

Each case is a program and the (line, code) findings at information severity and above it must
get; lines count from the first line of the snippet.
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"

OWNER = """\
class Det(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
    def forward(self, x):
        return self.conv(x)
class Owner(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Det()
        self.head = nn.Linear(8, 2)
    def run(self, x):
        return self.model(x)
    def run_after_moving(self, x):
        self.to("cpu")
        return self.model(x)
def predict(model, image):
    return model(torch.tensor(image))
class Wrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Det()
    def predict_image(self, image):
        return predict(self.model, image)
m = Owner()
m.model.to("cuda")
"""

OWNER_CASES = {
    # the submodule moved through its owner, the input created on the CPU in the caller
    "submodule-moved-through-its-owner": (OWNER + "y = m.run(torch.ones(1, 3, 8, 8))\n", {(13, "TP102")}),
    # handed on to a function by a method (deepforest: `predict._predict_image_(model=self.model, ...)`)
    "submodule-handed-on-by-a-method": (OWNER + "w = Wrapper()\nw.model.to(\"cuda\")\nw.predict_image([[1.0]])\n",
                                        {(18, "TP102")}),
    # the owner moved afterwards: the submodule moved with it
    "owner-moved-after": (OWNER + "m.to(\"cpu\")\ny = m.run(torch.ones(1, 3, 8, 8))\n", set()),
    # a method that moves the instance takes the submodule along
    "method-moves-the-owner": (OWNER + "y = m.run_after_moving(torch.ones(1, 3, 8, 8))\n", set()),
    # the input on the submodule's device
    "input-on-the-submodules-device": (OWNER + "y = m.run(torch.ones(1, 3, 8, 8, device=\"cuda\"))\n", set()),
    # the submodule moved to where the owner already is: nothing apart
    "submodule-moved-where-the-owner-is": (OWNER.replace('m.model.to("cuda")', 'm.model.to("cpu")')
                                           + "y = m.run(torch.ones(1, 3, 8, 8))\n", set()),
}



@pytest.mark.parametrize("name", sorted(OWNER_CASES))
def test_submodule_placed_through_its_owner(name):
    body, expected = OWNER_CASES[name]
    assert_findings(H, body, expected)


# A member of a module container (`self.cells[i]`) of an instance never moved, called with a CUDA
# tensor as a later argument (ConvLSTM_pytorch #10: `self.cell_list[i](input_tensor=x, cur_state=[h, c])`
# with `init_hidden` returning `.cuda()` states): the member's class is read for the inputs that meet
# its weights, as for `self.cell(...)`.
CELLS = """\
class Cell(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 3)
    def forward(self, x, state):
        h, c = state
        return self.fc(torch.cat([x, h], dim=1)), c
    def init_hidden(self, n):
        return torch.zeros(n, 3).cuda(), torch.zeros(n, 3).cuda()
class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.cells = nn.ModuleList([Cell(), Cell()])
    def forward(self, x):
        for i in range(2):
            h, c = self.cells[i].init_hidden(x.size(0))
            x, c = self.cells[i](x, [h, c])
        return x
model = Stack()
y = model(torch.randn(2, 3))
"""

CONTAINER_MEMBER_CASES = {
    "member-called-with-a-cuda-state": (CELLS, {(9, "TP301"), (17, "TP102")}),
    "member-by-literal-index": (CELLS.replace("self.cells[i](x, [h, c])", "self.cells[0](x, [h, c])"), {(9, "TP301"), (17, "TP102")}),
    # twin: the state is read on the host only (its sizes): the call runs
    "member-reads-the-state-on-the-host": (CELLS.replace("h, c = state\n", "h, c = x, x.new_zeros(len(state[0]))\n"), {(9, "TP301")}),
}


@pytest.mark.parametrize("name", sorted(CONTAINER_MEMBER_CASES))
def test_container_member_of_an_unmoved_instance(name):
    body, expected = CONTAINER_MEMBER_CASES[name]
    assert_findings(H, body, expected)
