"""Recall causes found on the corpus's misses (session s18, recall18b): constructs the analysis missed.

- A result dict filled through an inner dict (`out["loss"] = {}; out["loss"]["rec"] = t; return out`,
  the loss dicts of detection and recognition models): the caller reads `out["loss"]["rec"]` as `t`.
  Before, a return kept only the entries stored one level deep (state.with_stored_items).
- `for k, v in d.items()`: `v` is each value of `d`.  Before, `d.items()` (an ItemsV, which is an
  EnumerateV) was taken for `enumerate(...)` of the value, so `v` was a row of each value: a value whose
  rank was not known (a module's output, a 0-dim loss) gave nothing.
- Python's list and dict operations on containers of tensors (flow/container_values.py): `sum(losses)`
  (a list, a generator, `d.values()`), `xs.pop()`, `xs + ys`, `xs += [t]`, `[h0] * n`, and the dicts
  `{**batch, "k": v}`, `dict(batch, k=v)`, `batch.copy()`, `a | b`, `dict(zip(names, tensors))`: the
  tensors the containers hold.

Each snippet runs under a fake GPU (torch's FakeTensorMode) to prove the claim, and through the engine.
"""
import pytest

from torchplace_rules import check_source
from torchplace_rules.model import Severity

from .fake_gpu import run_on_fake_gpu


def loud(source: str) -> list:
    return [(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]


NESTED = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        out = {}
        out["loss"] = {}
        out["loss"]["rec"] = self.fc(x)
        return out


def run(n):
    net = Net().cuda()
    out = net(torch.ones(n, 4).cuda())
    return out["loss"]["rec"] + torch.ones(n, 4)
"""


def test_result_dict_filled_through_an_inner_dict_keeps_the_inner_entries():
    assert run_on_fake_gpu(NESTED + "\nrun(2)\n") is not None
    assert loud(NESTED) == [(20, "TP101")]


def test_inner_dict_given_as_a_literal_and_filled_later():
    source = NESTED.replace('out = {}\n        out["loss"] = {}\n', 'out = {"loss": {}, "n": 1}\n')
    assert run_on_fake_gpu(source + "\nrun(2)\n") is not None
    assert loud(source) == [(19, "TP101")]


def test_plain_function_returning_a_nested_dict():
    source = """\
import torch


def losses(x):
    r = {}
    r["loss"] = {}
    r["loss"]["a"] = x * 2
    return r


def run(n):
    return losses(torch.ones(n, device="cuda"))["loss"]["a"] + torch.ones(2)
"""
    assert run_on_fake_gpu(source + "\nrun(2)\n") is not None
    assert loud(source) == [(12, "TP101")]


@pytest.mark.parametrize("change", [
    ('out["loss"]["rec"] = self.fc(x)', 'out["loss"]["rec"] = self.fc(x).cpu()'),  # copied to the host
    ('        return out', '        out["loss"] = {}\n        return out'),  # the inner dict replaced
    ('        return out', '        out["loss"]["rec"] = torch.ones(2, 4)\n        return out'),  # entry rebound
])
def test_inner_entry_moved_or_replaced_is_quiet(change):
    source = NESTED.replace(*change)
    assert run_on_fake_gpu(source + "\ntry:\n    run(2)\nexcept KeyError:\n    pass\n") is None
    assert loud(source) == []


ITEMS = """\
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return {"rec": self.fc(x).sum(), "reg": self.fc.weight.norm()}


def run(n):
    net = Net().cuda()
    for name, loss in net(torch.ones(n, 4).cuda()).items():
        print(name, loss + torch.ones(3))
"""


def test_items_loop_binds_each_value_not_a_row_of_it():
    assert run_on_fake_gpu(ITEMS + "\nrun(2)\n") is not None
    assert loud(ITEMS) == [(17, "TP101")]


def test_items_loop_over_a_local_dict_of_zero_dim_tensors():
    source = """\
import torch


def run(n):
    d = {"a": torch.ones(n, device="cuda").sum()}
    for k, v in d.items():
        print(k, v + torch.ones(3))
"""
    assert run_on_fake_gpu(source + "\nrun(2)\n") is not None
    assert loud(source) == [(7, "TP101")]


def test_items_loop_with_each_value_copied_to_the_host_is_quiet():
    source = ITEMS.replace("loss + torch.ones(3)", "loss.cpu() + torch.ones(3)")
    assert run_on_fake_gpu(source + "\nrun(2)\n") is None
    assert loud(source) == []


def test_items_loop_key_is_not_a_number():
    # the key of `d.items()` is the dict's key (a string here), not enumerate's counter
    source = """\
import torch


def run():
    d = {"cuda": torch.ones(2)}
    for k, v in d.items():
        print(v.to(k) + torch.ones(2))
"""
    assert run_on_fake_gpu(source + "\nrun()\n") is not None
    assert loud(source) == []


# -- Python's own list operations on lists of tensors (flow/container_values.py) --------------------
def _in_function(body: str) -> str:
    return "import torch\n\n\ndef f():\n    x = torch.ones(4, 3, device='cuda')\n    " + body + \
        "\n    return y + torch.ones(4, 3)\n"


@pytest.mark.parametrize("body", [
    "xs = [x, x]\n    y = sum(xs)",
    "xs = []\n    for i in range(3):\n        xs.append(x * i)\n    y = sum(xs)",  # a loss list filled in a loop
    "xs = [x, x]\n    y = sum(v * 2 for v in xs)",
    "d = {'rec': x, 'reg': x}\n    y = sum(d.values())",
    "y = sum([x, x], 0.0)",
    "xs = []\n    xs.append(x)\n    y = xs.pop()",
    "xs = [] + [x]\n    y = xs[0]",
    "xs = []\n    xs += [x]\n    y = xs[0]",
    "t = (1,) + (x,)\n    y = t[1]",
    "hs = [x] * 3\n    y = hs[2]",
    "d = {'a': x}\n    y = d.copy()['a']",
    "d = {'a': x}\n    y = dict(d)['a']",
    "d = {}\n    d['a'] = x\n    y = {**d, 'b': 1}['a']",  # an entry stored before the unpacking
    "d = {'a': x}\n    y = (d | {'b': 1})['a']",
    "d = dict(zip(['a', 'b'], [x, x]))\n    y = d['a']",
])
def test_list_operations_keep_the_tensors_they_hold(body):
    source = _in_function(body)
    assert run_on_fake_gpu(source + "\nf()\n") is not None
    assert [code for _, code in loud(source)] == ["TP101"]


@pytest.mark.parametrize("body", [
    "xs = [x.cpu()] * 3\n    y = xs[2]",
    "d = {'a': x}\n    e = {**d, 'a': x.cpu()}\n    y = e['a']",  # a later key wins
    "d = {'a': x.cpu()}\n    e = {**d, 'b': x}\n    y = e['a']",
    "d = {'a': x}\n    y = dict(d, a=x.cpu())['a']",
    "d = {'a': x}\n    e = d.copy()\n    e['a'] = x.cpu()\n    y = e['a']",
    "d = dict(zip(['a'], [x.cpu()]))\n    y = d['a']",
    "d = {'a': x}\n    y = (d | {'a': x.cpu()})['a']",
    "xs = [x.cpu(), x.cpu()]\n    y = sum(xs)",
    "xs = [x, x]\n    y = sum(v.cpu() for v in xs)",
    "y = sum([1, 2]) * torch.ones(4, 3)",  # numbers: a number
    "xs = [x]\n    xs.append(x.cpu())\n    xs.pop(0)\n    y = xs.pop()",  # which item: not known
    "xs = [x.cpu()] + [x.cpu()]\n    y = xs[1]",
    "xs = []\n    xs += [x.cpu()]\n    y = xs[0]",
    "t = (x.cpu(),) + (1,)\n    y = t[0]",
])
def test_list_operations_on_host_tensors_are_quiet(body):
    source = _in_function(body)
    assert run_on_fake_gpu(source + "\nf()\n") is None
    assert loud(source) == []

