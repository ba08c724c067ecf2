"""Device strings known on every path answer `==` / `!=` / `in` tests (issue 10, value lattice gap 1),
and the constructs the torchsummary case goes through: `and`/`or` of answered tests, `"CUDA".lower()`,
`torch.rand(2, *shape)`, `model(*inputs)`, a `staticmethod(lambda: ...)` class attribute.

A literal device string (or a default argument the caller did not pass) keeps its text
(`DeviceV.text`); a join of two different strings, a join with None, and a value read from an
attribute or global some other code may rebind lose it.  Both directions are tested: an answered
test prunes a branch.
"""

import pytest

from torchplace_rules import Severity, check_source

H = "import torch\nimport torch.nn as nn\n"


def loud(source):
    # (spans count lines from 0)
    return [(f.span.start_line + 1, f.code) for f in check_source(H + source, "t.py") if f.severity <= Severity.WARNING]


BRANCH = (
    "    if device == 'cuda':\n"
    "        dtype = torch.cuda.FloatTensor\n"
    "    else:\n"
    "        dtype = torch.FloatTensor\n"
    "    return torch.ones(3, device='cuda') + torch.ones(3).type(dtype)\n"
)


def test_default_argument_string_decides_eq():
    src = "def f(device='cpu'):\n" + BRANCH + "f()\n"
    assert loud(src) == [(8, "TP101")]


def test_local_string_decides_eq_and_not_eq():
    src = "def f():\n    device = 'cpu'\n" + BRANCH.replace("==", "!=").replace(
        "torch.cuda.FloatTensor\n    else:\n        dtype = torch.FloatTensor",
        "torch.FloatTensor\n    else:\n        dtype = torch.cuda.FloatTensor")
    assert loud(src) == [(9, "TP101")]


def test_string_in_tuple():
    src = ("def f():\n    device = 'CPU'.lower()\n    if device in ('cpu', 'mps'):\n        dtype = torch.FloatTensor\n"
           "    else:\n        dtype = torch.cuda.FloatTensor\n"
           "    return torch.ones(3, device='cuda') + torch.ones(3).type(dtype)\n")
    assert loud(src) == [(9, "TP101")]


def test_entry_parameter_is_not_decided():
    # nothing says what a caller passes to an entry point: its default is no proof
    src = "def f(device='cpu'):\n" + BRANCH
    assert loud(src) == []


def test_string_joined_with_another_is_not_decided():
    src = "def f(flag):\n    device = 'cuda' if flag else 'cpu'\n" + BRANCH
    assert loud(src) == []


def test_string_or_none_is_not_decided():
    src = "def f(flag):\n    device = 'cpu' if flag else None\n" + BRANCH
    assert loud(src) == []


def test_torch_device_object_is_not_a_string():
    # torch.device('cpu') == 'cpu' compares a device with a str: not answered from the string
    src = "def f():\n    device = torch.device('cpu')\n" + BRANCH
    assert loud(src) == []


def test_attribute_read_is_not_decided():
    src = ("class C:\n    def __init__(self):\n        self.device = 'cpu'\n    def reset(self):\n        self.device = 'cuda'\n"
           "    def run(self):\n        device = self.device\n" + BRANCH + "C().run()\n")
    assert loud(src) == []


def test_global_string_is_not_decided():
    src = "DEVICE = 'cpu'\ndef f():\n    device = DEVICE\n" + BRANCH + "f()\n"
    assert loud(src) == []


def test_and_or_of_answered_tests():
    src = ("def f(device='cuda'):\n"
           "    if device == 'cuda' and torch.cuda.is_available():\n        x = torch.ones(3, device='cuda')\n"
           "    else:\n        x = torch.ones(3)\n"
           "    if device == 'cpu' or device == 'mps':\n        y = x\n    else:\n        y = torch.ones(3)\n"
           "    return x + y\n"
           "f()\n")
    assert loud(src) == [(12, "TP101")]


def test_and_with_an_unknown_operand_is_not_decided():
    src = ("def f(flag, device='cuda'):\n"
           "    if device == 'cuda' and flag:\n        x = torch.ones(3, device='cuda')\n"
           "    else:\n        x = torch.ones(3)\n"
           "    return x + torch.ones(3)\n"
           "f(FLAG)\n")  # (unknown here; a literal `True` would decide it: the call then raises)
    assert loud(src) == []


def test_factory_with_star_sizes_and_star_inputs():
    src = ("def f(model, sizes):\n"
           "    xs = [torch.rand(2, *s).type(torch.cuda.FloatTensor) for s in sizes]\n"
           "    model(*xs)\n"
           "f(nn.Linear(3, 4), [(3,)])\n")
    assert loud(src) == [(5, "TP102")]


def test_star_factory_keeps_device_keyword():
    src = ("def f(model, shape):\n"
           "    model(torch.rand(*shape, device='cuda'))\n"
           "    model.cuda()\n"
           "    model(torch.rand(2, *shape, device='cuda'))\n"
           "f(nn.Linear(3, 4), (2, 3))\n")
    assert loud(src) == [(4, "TP102")]


def test_staticmethod_lambda_class_attribute():
    src = ("class Config:\n    network_fn = staticmethod(lambda: nn.Linear(3, 4))\n"
           "def f(config):\n    net = config.network_fn()\n    net(torch.ones(2, 3, device='cuda'))\n"
           "f(Config())\n")
    assert loud(src) == [(7, "TP102")]


# -- strings that are no device (`TextV`): a mode, an alias such as "gpu" ------------------------
RESOLVE = (
    "def resolve(device=None):\n"
    "    if device is None or device == 'gpu':\n"
    "        device = 'cuda'\n"
    "    return torch.device(device)\n"
)


def test_string_argument_decides_the_callees_eq_and_is_none():
    # pykeen's resolve_device('gpu'): `device is None` is false for a string, `device == 'gpu'` true
    src = RESOLVE + "def run():\n    return torch.ones(3, device=resolve('gpu')) + torch.ones(3)\n"
    assert loud(src) == [(8, "TP101")]


PICK = "def pick(kind=None):\n    x = torch.ones(3)\n    if kind == 'gpu':\n        x = x.cuda()\n    return x\n"


@pytest.mark.parametrize("kind, found", [("gpu", [(9, "TP101")]), ("cpu_only", [])])
def test_string_argument_chooses_the_branch(kind, found):
    src = PICK + f"def run():\n    return pick('{kind}') + torch.ones(3)\n"
    assert loud(src) == found


def test_string_handed_on_through_two_calls_decides_the_test():
    # TransE(preferred_device='gpu') -> Model.__init__(preferred_device=...) -> resolve_device(device=...)
    src = (RESOLVE + "def model(preferred_device=None):\n    return resolve(device=preferred_device)\n"
           "def outer(preferred_device=None):\n    return model(preferred_device=preferred_device)\n"
           "def run():\n    return torch.ones(3, device=outer(preferred_device='gpu')) + torch.ones(3)\n")
    assert loud(src) == [(12, "TP101")]


PREDICT = (
    "def predict(x, mode='prediction'):\n"
    "    out = {'prediction': x, 'raw': torch.ones(3)}\n"
    "    if mode == 'prediction':\n"
    "        out = out['prediction']\n"
    "    else:\n"
    "        out = out['raw']\n"
    "    return out + torch.ones(3)\n"
)


def test_string_default_the_call_keeps_decides_the_test():
    # pytorch-forecasting's `predict(data, mode="prediction")`: the default chooses the CUDA item
    src = PREDICT + "def run():\n    return predict(torch.ones(3, device='cuda'))\n"
    assert loud(src) == [(9, "TP101")]


def test_string_argument_choosing_the_other_item_is_quiet():
    src = PREDICT + "def run():\n    return predict(torch.ones(3, device='cuda'), mode='raw')\n"
    assert loud(src) == []


def test_non_device_string_or_none_is_not_decided():
    src = ("def f(flag):\n    kind = 'gpu' if flag else None\n    x = torch.ones(3)\n    if kind == 'gpu':\n"
           "        x = x.cuda()\n    return x + torch.ones(3)\n")
    assert loud(src) == []


def test_non_device_strings_that_differ_between_paths_are_not_decided():
    src = ("def f(flag):\n    mode = 'train' if flag else 'eval'\n    x = torch.ones(3)\n    if mode == 'train':\n"
           "        x = x.cuda()\n    return x + torch.ones(3)\n")
    assert loud(src) == []


def test_only_strings_a_test_reads_or_a_call_hands_on_are_kept_in_a_call_context():
    # `mode='bilinear'` handed to no call and read by no test is bound as unknown: calls differing only
    # there share one context
    import ast

    from torchplace_rules.flow.contexts import _handed_on, bind_arguments
    from torchplace_rules.flow.values import UNKNOWN, TextV
    fnode = ast.parse("def f(x, mode, kind, label):\n    if kind == 'a':\n        pass\n    g(x, size=label)\n"
                      "    return mode\n").body[0]
    assert _handed_on(fnode) == {"x", "label"}
    bound = bind_arguments(fnode, [None] * 4, [UNKNOWN, TextV("bilinear"), TextV("a"), TextV("b")], {}, None)
    assert bound["mode"] is UNKNOWN and bound["kind"] == TextV("a") and bound["label"] == TextV("b")


def test_dict_call_with_keywords_keeps_its_items():
    # `dict(prediction=x)` is `{"prediction": x}`: the item read back is the CUDA tensor
    src = ("def f():\n    out = dict(prediction=torch.ones(3, device='cuda'), n=3)\n"
           "    return out['prediction'] + torch.ones(3)\n")
    assert loud(src) == [(5, "TP101")]


def test_dict_call_with_a_double_star_argument_is_not_known_item_by_item():
    src = ("def f(extra):\n    out = dict(prediction=torch.ones(3), **extra)\n"
           "    return out['prediction'] + torch.ones(3, device='cuda')\n")
    assert loud(src) == []


@pytest.mark.parametrize("code", [
    "def f():\n    model = nn.Linear(3, 3).cuda()\n    return model(torch.zeros(2, 3).to('meta'))\n",
    "def f():\n    model = nn.Linear(3, 3).to('meta')\n    return model(torch.zeros(2, 3, device='cuda'))\n",
])
def test_to_a_string_that_is_no_known_device_moves_to_an_unknown_device(code):
    # `.to("meta")`: a device this analysis does not name; the tensor or module is no longer on the CPU
    assert loud(code) == []
