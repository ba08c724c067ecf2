"""Sequences of unknown length spread with `*` (flow/star_arguments.py).  `t.unbind(0)` gives pieces all on
`t`'s device, however many: a call `f(*pieces)` binds one to each parameter the star must fill (no default,
not passed by keyword), and a display `(None, *pieces)` holds them too.  mrpro's CUDA test hands its
displacements to `GridSamplingOp.from_displacement` this way (corpus batch b24).  A parameter with a default,
or a star followed by more positional arguments, stays unknown.  Each snippet runs on the fake GPU and raises
exactly where a finding is expected."""
from .snippets import case_tests

H = "import torch\n"
GRID = """\
    def from_displacement(dz, dy):
        grid = torch.linspace(-1, 1, 5)
        return grid + dy * 2

"""
CASES = {
    "star-of-unbind": (GRID + """\
    pieces = torch.zeros(2, 3, 5, device="cuda").unbind(0)
    out = from_displacement(*pieces)
    """, {(3, "TP101")}),
    "star-of-display-with-none": (GRID + """\
    pieces = (None, *torch.zeros(1, 3, 5, device="cuda").unbind(0))
    out = from_displacement(*pieces)
    """, {(3, "TP101")}),
    "star-after-positional": (GRID + """\
    pieces = torch.zeros(1, 3, 5, device="cuda").unbind(0)
    out = from_displacement(None, *pieces)
    """, {(3, "TP101")}),
    "classmethod-of-module": ("""\
    class Op(torch.nn.Module):
        def __init__(self, grid):
            super().__init__()
            self.grid = grid

        @classmethod
        def from_displacement(cls, dz, dy, dx):
            grid = torch.linspace(-1, 1, 5)
            return cls(grid + dx * 2)

    pieces = torch.zeros(3, 3, 5, device="cuda").unbind(0)
    op = Op.from_displacement(*pieces)
    """, {(9, "TP101")}),
    "cpu-pieces": (GRID + """\
    pieces = torch.zeros(2, 3, 5).unbind(0)
    out = from_displacement(*pieces)
    """, set()),
    "keyword-given-instead": (GRID + """\
    pieces = torch.zeros(1, 3, 5, device="cuda").unbind(0)
    out = from_displacement(*pieces, dy=torch.zeros(3, 5))
    """, set()),
    "star-not-last": (GRID + """\
    pieces = torch.zeros(1, 3, 5, device="cuda").unbind(0)
    out = from_displacement(*pieces, torch.zeros(3, 5))
    """, set()),
    "default-parameter-stays-unknown": ("""\
    def from_displacement(dz, dy=None):
        grid = torch.linspace(-1, 1, 5)
        return grid if dy is None else grid + dy.cpu() * 2

    pieces = torch.zeros(2, 3, 5, device="cuda").unbind(0)
    out = from_displacement(*pieces)
    """, set()),
    "display-of-moved-pieces": (GRID + """\
    pieces = (None, *[p.cpu() for p in torch.zeros(1, 3, 5, device="cuda").unbind(0)])
    out = from_displacement(*pieces)
    """, set()),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
