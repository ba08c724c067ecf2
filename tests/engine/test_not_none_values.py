"""`x is None` answered "no" for a value made on every path (issue 10, value lattice gap 2).

`None` joined with a value gives that value (`values._None.join`), so a value alone never proved
"not None".  A device made from a string or by `torch.device(...)`, and a list or tuple display
(or a list something was appended to), now carry `not_none`, which any join with None (or with a
value lacking it) drops.  `known_answer` answers `is None` / `is not None` with it for a local
name, or for an attribute path the same frame bound (`self.device = device`).  Both directions:
an answered test prunes a branch, a wrong answer would hide or invent findings.
"""

from torchplace_rules import Severity, check_source

H = "import torch\n"


def loud(source):
    # (spans count lines from 0)
    return [(f.span.start_line + 1, f.code) for f in check_source(H + source, "t.py") if f.severity <= Severity.WARNING]


def test_device_made_here_is_not_none():
    src = (
        "def f():\n"
        "    dev = torch.device('cuda')\n"
        "    if dev is None:\n"
        "        dev = torch.device('cpu')\n"
        "    x = torch.zeros(3, device=dev)\n"
        "    return x + torch.ones(3)\n"
    )
    assert loud(src) == [(7, "TP101")]


def test_device_string_is_not_none_with_is_not():
    src = (
        "def f():\n"
        "    dev = 'cuda'\n"
        "    if dev is not None:\n"
        "        x = torch.zeros(3, device=dev)\n"
        "    else:\n"
        "        x = torch.zeros(3)\n"
        "    return x + torch.ones(3)\n"
    )
    assert loud(src) == [(8, "TP101")]


def test_device_that_may_be_none_is_not_decided():
    src = (
        "def f(flag):\n"
        "    dev = None\n"
        "    if flag:\n"
        "        dev = torch.device('cuda')\n"
        "    if dev is None:\n"
        "        dev = torch.device('cpu')\n"
        "    x = torch.zeros(3, device=dev)\n"
        "    return x + torch.ones(3)\n"
    )
    assert loud(src) == []


def test_device_or_none_expression_is_not_decided():
    src = (
        "def f(flag):\n"
        "    dev = torch.device('cuda') if flag else None\n"
        "    if dev is None:\n"
        "        dev = torch.device('cpu')\n"
        "    x = torch.zeros(3, device=dev)\n"
        "    return x + torch.ones(3)\n"
    )
    assert loud(src) == []


def test_list_display_is_not_none():
    src = (
        "def f():\n"
        "    ws = [torch.zeros(3)]\n"
        "    if ws is None:\n"
        "        ws = [torch.zeros(3, device='cuda')]\n"
        "    return torch.ones(3, device='cuda') + ws[0]\n"
    )
    assert loud(src) == [(6, "TP101")]


def test_list_or_none_is_not_decided():
    src = (
        "def f(flag):\n"
        "    ws = None\n"
        "    if flag:\n"
        "        ws = []\n"
        "        ws.append(torch.zeros(3))\n"
        "    if ws is None:\n"
        "        ws = [torch.zeros(3, device='cuda')]\n"
        "    return torch.ones(3, device='cuda') + ws[0]\n"
    )
    assert loud(src) == []


def test_parameter_default_none_is_not_decided():
    # the caller of an entry point may pass anything: a parameter is no value made here
    src = (
        "def f(dev=None):\n"
        "    if dev is None:\n"
        "        dev = torch.device('cpu')\n"
        "    x = torch.zeros(3, device=dev)\n"
        "    return x + torch.ones(3, device='cuda')\n"
    )
    assert loud(src) == []


def test_attribute_the_frame_bound_is_answered():
    src = (
        "import torch.nn as nn\n"
        "class M(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.dev = torch.device('cuda')\n"
        "        if self.dev is None:\n"
        "            self.dev = torch.device('cpu')\n"
        "    def forward(self):\n"
        "        pass\n"
        "def g():\n"
        "    dev = torch.device('cuda')\n"
        "    m = M()\n"
        "    if m.dev is None:\n"  # an attribute this frame did not bind: not decided
        "        dev = torch.device('cpu')\n"
        "    return torch.zeros(3, device=dev) + torch.ones(3)\n"
    )
    assert loud(src) == []


# A model `from_pretrained` made is not None and, an nn.Module without __len__/__bool__, true:
# `if not model:` is answered where the caller passed one (fitbert's constructor).
PRETRAINED = "from transformers import AutoModelForCausalLM\n"


def test_pretrained_model_passed_in_is_true():
    src = PRETRAINED + (
        "def f(model=None):\n"
        "    if not model:\n"
        "        model = AutoModelForCausalLM.from_pretrained('x')\n"
        "    return model(torch.ones(2, 3))\n"
        "m = AutoModelForCausalLM.from_pretrained('y')\n"
        "m.to('cuda')\n"
        "f(m)\n"
    )
    assert loud(src) == [(6, "TP102")]


def test_pretrained_model_or_none_is_not_decided():
    src = PRETRAINED + (
        "def f(flag):\n"
        "    model = None\n"
        "    if flag:\n"
        "        model = AutoModelForCausalLM.from_pretrained('y').to('cuda')\n"
        "    if not model:\n"
        "        model = AutoModelForCausalLM.from_pretrained('x')\n"
        "    return model(torch.ones(2, 3))\n"
    )
    assert loud(src) == []


def test_module_parameter_at_entry_is_not_decided():
    src = PRETRAINED + (
        "def f(model=None):\n"
        "    if model is None:\n"
        "        model = AutoModelForCausalLM.from_pretrained('x').to('cuda')\n"
        "    return model(torch.ones(2, 3))\n"
    )
    assert loud(src) == []


def test_module_container_is_not_decided():
    src = (
        "import torch.nn as nn\n"
        "def f():\n"
        "    layers = nn.ModuleList()\n"
        "    if not layers:\n"
        "        layers = nn.ModuleList([nn.Linear(3, 3)]).cuda()\n"
        "    return layers[0](torch.ones(2, 3))\n"
    )
    assert loud(src) == []
