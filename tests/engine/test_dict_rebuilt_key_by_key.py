"""A dict rebuilt item by item (`{k: v.to(device) if torch.is_tensor(v) else v for k, v in
batch.items()}`, catalyst's `_batch2device`): each key keeps what the value expression gives for its
own item, so a tuple of tensors the test leaves alone stays on the CPU while the tensors move.  Also
`torch.is_tensor(v)` and `isinstance(v, (tuple, list))` decided for values of known kind, and a dict
read by a key held in a name.  Each snippet runs on the fake GPU: it raises exactly where an error is
expected."""
import textwrap

import pytest

from .snippets import assert_findings

H = "import torch\n"
DEVICE = 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n'
CASES = {
    "tensors-moved-tuple-left-on-the-cpu": ("""\
        w = torch.rand(4, 4, device=device)
        batch = {"x": torch.rand(2, 4), "meta": (torch.rand(4), torch.rand(4))}
        batch = {k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}
        y = batch["x"] @ w
        m = batch["meta"][0] + w[0]
        """, {(5, "TP101")}),
    "every-item-moved": ("""\
        w = torch.rand(4, 4, device=device)
        batch = {"x": torch.rand(2, 4), "y": torch.rand(4)}
        batch = {k: v.to(device) for k, v in batch.items()}
        out = batch["x"] @ w + batch["y"]
        """, set()),
    "isinstance-of-a-tensor-kind": ("""\
        w = torch.rand(4, 4, device=device)
        batch = {"x": torch.rand(2, 4), "meta": [torch.rand(4)]}
        batch = {k: (v.to(device) if isinstance(v, torch.Tensor) else v) for k, v in batch.items()}
        out = batch["x"] @ w
        """, set()),
    "dict-is-no-tuple-or-list": ("""\
        w = torch.rand(4, 4, device=device)
        def to_device(batch):
            if isinstance(batch, (tuple, list)):
                batch = {"x": batch[0]}
            return {k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}
        batch = to_device({"x": torch.rand(2, 4), "n": 3})
        out = batch["x"] @ w
        """, set()),
    "dict-is-no-tuple-or-list-tuple-left": ("""\
        w = torch.rand(4, 4, device=device)
        def to_device(batch):
            if isinstance(batch, (tuple, list)):
                batch = {"x": batch[0]}
            return {k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}
        batch = to_device({"x": torch.rand(2, 4), "meta": (torch.rand(4),)})
        out = batch["meta"][0] + w[0]
        """, {(7, "TP101")}),
    "key-held-in-a-name": ("""\
        w = torch.rand(4, 4, device=device)
        batch = {"x": torch.rand(2, 4), "y": torch.rand(2, 4, device=device)}
        key = "x"
        out = batch[key] @ w
        """, {(4, "TP101")}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_dict_rebuilt_key_by_key(name):
    body, expected = CASES[name]
    assert_findings(H + DEVICE, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    from .fake_gpu import run_on_fake_gpu

    body, expected = CASES[name]
    error = run_on_fake_gpu(H + DEVICE + textwrap.dedent(body))
    assert (error is not None) == bool(expected), repr(error)
