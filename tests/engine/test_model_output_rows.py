"""Rows of what a model computed, once a tensor-only method proves it is a tensor.

What `model(x)` returns may be a tuple, a list or a ModelOutput, so iterating it stays unknown (its items
are not rows; MONAI's MetaTensor rows carry attributes that are lists: review 2026-11-27).  But a method
only tensors have (`.sigmoid()`, `.flatten(2)`, `.transpose(1, 2)`, `.argsort()`...) succeeded on it, so its
result is a tensor: `for row in model(x).sigmoid()` walks rows on the model's device.  A detector's
forward that returns `(p.sigmoid(),)`, its NMS walking `for x in prediction` and the caller converting
each detection's column with NumPy (zero-shot-object-tracking, corpus batch b24: "can't convert cuda:0
device type tensor to numpy") is the shape this follows.  Methods that other outputs also have
(`clone`, `detach`, `contiguous`: PackedSequence, torch_geometric's Data) prove nothing."""
import pytest

import textwrap

from .snippets import assert_findings

H = "import numpy as np\nimport torch\nimport torch.nn as nn\n"
LAYER = "m = nn.Linear(2, 4).to('cuda')\nx = torch.ones(3, 2, device='cuda')\n"
DETECTOR = """\
    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(3, 10)

        def forward(self, img):
            p = self.head(img).contiguous().view(1, -1, 10)
            return (p.sigmoid(),)

    def nms(prediction):
        output = []
        for x in prediction:
            output.append(torch.cat((x.narrow(1, 0, 4), x.sum(1, keepdim=True)), 1))
        return output

    model = Head().to("cuda")
    pred = model(torch.zeros(1, 16, 3, device="cuda"))[0]
    for det in nms(pred):
        classes = {convert}
    """
CASES = {
    "rows-after-a-tensor-method": (LAYER + "for row in m(x).sigmoid():\n    a = np.array(row)\n", {(4, "TP104")}),
    "rows-after-flatten": (LAYER + "out = m(x).flatten(1)\nfor row in out:\n    a = np.array(row)\n", {(5, "TP104")}),
    "detector-columns-to-numpy": (DETECTOR.format(convert="np.array([c for c in det.select(1, -1)])"), {(19, "TP104")}),
    "detector-columns-moved-first": (DETECTOR.format(convert="np.array([c for c in det.select(1, -1).cpu()])"), set()),
    "rows-moved-to-the-host": (LAYER + "for row in m(x).sigmoid().cpu():\n    a = np.array(row)\n", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


# NumPy reads a tensor off the CPU with an error ("can't convert cuda:0 device type tensor to numpy";
# tests/engine/test_truth_table.py shows it on the meta device); fake tensors cannot be read at all, so
# the fake GPU run converts through this stand-in, which raises exactly where NumPy would.
TO_NUMPY = """\
def _to_numpy(value):
    for v in value if isinstance(value, list) else [value]:
        if isinstance(v, torch.Tensor) and v.device.type != "cpu":
            raise TypeError(f"can't convert {v.device} device type tensor to numpy")
"""


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    error = run_on_fake_gpu(H + TO_NUMPY + textwrap.dedent(body).replace("np.array(", "_to_numpy("))
    assert (error is not None) == bool(expected), repr(error)
    assert error is None or "can't convert cuda" in str(error)

# Left unknown on purpose (PyTorch raises for these tensors, but the analysis cannot tell them from a
# tuple's items or a structure's fields): the raw output, methods other outputs have, a row's attribute.
UNKNOWN_ROWS = {
    "rows-of-the-raw-output": LAYER + "for row in m(x):\n    a = np.array(row)\n",
    "rows-after-clone": LAYER + "for row in m(x).clone():\n    a = np.array(row)\n",
    "rows-after-detach": LAYER + "for row in m(x).detach():\n    a = np.array(row)\n",
    "attribute-of-a-row": LAYER + "for row in m(x).sigmoid():\n    a = np.array(row.pending_operations)\n",
}


@pytest.mark.parametrize("name", sorted(UNKNOWN_ROWS))
def test_rows_left_unknown(name):
    assert_findings(H, UNKNOWN_ROWS[name], set())
