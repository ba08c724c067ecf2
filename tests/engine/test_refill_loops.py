"""A loop that stores into a dict under every key it walks (`for k, v in d.items(): d[k] = v.to(device)`).

Every pass that ends stores `d[k]` under its own key (the assignment is at the top of the body and
nothing leaves the loop early), so after the loop each value of `d` is one the body stored: `d` is a
dict of those values, in the loop's own frame and, for a parameter the callee never re-binds, in the
caller's (a helper that moves a batch dict in place, prediction-flow's `__to_gpu`).  Tensors stored
(`.to()` of a tensor is a new tensor) move no module in place.  A store under a test, a `break`, a
`continue` or a re-bound key keeps the old answer (what `d` holds is not known).
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nfrom torch.nn.utils.rnn import pack_padded_sequence\n"


def test_items_refilled_in_the_loop_are_what_was_stored():
    assert_findings(H, """\
        d = {"a": torch.ones(3), "b": torch.ones(3)}
        for k, v in d.items():
            d[k] = v.cuda()
        y = d["a"] + torch.ones(3)
    """, {(4, "TP101")})


@pytest.mark.parametrize("loop", ["for k in d:", "for k in d.keys():"])
def test_keys_refilled_in_the_loop_are_what_was_stored(loop):
    assert_findings(H, f"""\
        d = {{"a": torch.ones(3), "b": torch.ones(3)}}
        {loop}
            d[k] = d[k].cuda()
        y = d["a"] + torch.ones(3)
    """, {(4, "TP101")})


@pytest.mark.parametrize("body", [
    "if k != 'b':\n                d[k] = v.cuda()",
    "d[k] = v.cuda()\n            if k == 'a':\n                break",
    "if k == 'b':\n                continue\n            d[k] = v.cuda()",
    "d[k] = v.cuda()\n            k = 'a'",
])
def test_a_loop_that_may_skip_a_key_leaves_the_dict_unknown(body):
    assert_findings(H, f"""\
        d = {{"a": torch.ones(3), "b": torch.ones(3)}}
        for k, v in d.items():
            {body}
        y = d["a"] + torch.ones(3)
    """, set())


HELPER = """\
        def to_gpu(device, batch):
            for key, tensor in batch.items():
                batch[key] = tensor.to(device)


        class Packer(nn.Module):
            def __init__(self):
                super().__init__()
                self.gru = nn.GRU(4, 4, batch_first=True)

            def forward(self, x):
                return pack_padded_sequence(x["keys"], lengths=x["len"], batch_first=True, enforce_sorted=False)


        class Samples(torch.utils.data.Dataset):
            def __init__(self, samples):
                self.samples = samples

            def __len__(self):
                return len(self.samples)

            def __getitem__(self, i):
                return self.samples[i]


"""


@pytest.mark.parametrize("data", ["[{'keys': torch.zeros(3, 4), 'len': torch.tensor(3)}]",
                                  "Samples([{'keys': torch.zeros(3, 4), 'len': torch.tensor(3)}])"])
def test_a_helper_that_refills_the_callers_batch_dict(data):
    # prediction-flow's `fit`: `__to_gpu(device, batch)` moves every item of the batch dict in place;
    # the lengths then reach `pack_padded_sequence` on the GPU
    assert_findings(H, HELPER + f"""\
        def fit(model, loader):
            device = torch.device("cuda:0")
            model = model.to(device)
            for batch in loader:
                to_gpu(device, batch)
                model(batch)


        fit(Packer(), torch.utils.data.DataLoader({data}))
    """, {(12, "TP101")})


def test_a_loop_that_refills_a_dict_of_modules_keeps_the_old_answer():
    # `.to()` of a module moves it in place: what other names hold is not known after the loop
    assert_findings(H, """\
        enc = nn.Linear(3, 3)
        mods = {"enc": enc}
        for k, m in mods.items():
            mods[k] = m.cuda()
        y = enc(torch.ones(3))
    """, set())
