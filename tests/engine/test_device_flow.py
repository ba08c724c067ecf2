"""The device-flow analysis, construct by construct (issue: rule engine, item 2).

Each case is a program and the (line, code) findings at information severity
and above; an empty set means the analysis must stay quiet (unknown stays unknown).
"""
import textwrap

import pytest

from torchplace_rules import Severity, check_source

H = "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\n"

TOKENIZER = ("from transformers import AutoModel, AutoTokenizer\nmodel = AutoModel.from_pretrained('m').to('cuda')\n"
             "tok = AutoTokenizer.from_pretrained('m')\n")

PRETRAINED = "from transformers import AutoModelForMaskedLM\nfrom peft import PeftModel\n"

TRANSFORMS = ("import torchvision.transforms as T\nimport torchvision.transforms.functional as TF\n"
              "preprocess = T.Compose([T.Resize(224), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])\n"
              "net = nn.Conv2d(3, 8, 3).cuda()\npic = load_image()\n")

CASES = {
    "tuple-unpacking": ("device = torch.device('cuda')\na, b = torch.ones(2, device=device), torch.ones(2)\nc = a + b\n", {(6, "TP101")}),
    "attribute-paths": ("class Box: pass\nbox = Box()\nbox.t = torch.ones(2).cuda()\nu = box.t * torch.ones(2)\n", {(6, "TP301"), (7, "TP101")}),
    "if-else-agree": ("dev = torch.device('cuda')\nif flag:\n    x = torch.ones(2, device=dev)\nelse:\n    x = torch.zeros(2, device=dev)\ny = x + torch.ones(2)\n", {(9, "TP101")}),
    "if-else-disagree-is-unknown": ("if flag:\n    x = torch.ones(2).cuda()\nelse:\n    x = torch.ones(2)\ny = x + torch.ones(2)\n", {(5, "TP301")}),
    "cuda-available-branch-taken": ("if torch.cuda.is_available():\n    device = torch.device('cuda')\nelse:\n    device = torch.device('cpu')\nx = torch.ones(2, device=device) + torch.ones(2)\n", {(8, "TP101")}),
    "not-cuda-available-branch": ("if not torch.cuda.is_available():\n    raise SystemExit('needs a GPU')\nx = torch.ones(2, device='cuda') + torch.ones(2)\n", {(6, "TP101")}),
    "ifexp-device": ("device = 'cuda' if use_gpu else 'cpu'\nx = torch.ones(2, device=device) + torch.ones(2)\n", {(5, "TP101")}),
    # the same choice made by an `if` statement (or an elif chain picking an accelerator): the target
    "if-else-device-choice": ("if args.cpu:\n    device = torch.device('cpu')\nelse:\n    device = torch.device('cuda')\n"
                              "x = torch.ones(2, device=device) + torch.ones(2)\n", {(8, "TP101")}),
    "elif-chain-device-choice": ("if -1 in args.device_idx or not torch.cuda.is_available():\n    device = torch.device('cpu')\n"
                                 "elif len(args.device_idx) == 1:\n    device = torch.device('cuda', args.device_idx[0])\n"
                                 "else:\n    device = torch.device('cuda')\n"
                                 "x = torch.ones(2, device=device) + torch.ones(2)\n", {(10, "TP101")}),
    # a cache filled under `if k not in cache:` (across calls, a module's dict): `cache[k]` after the `if`
    # is what the branch stores, or what an earlier call stored the same way (an empty dict has no other)
    "dict-cache-filled-under-not-in": ("cache = {}\ndef grid(x, k):\n    if k not in cache:\n        cache[k] = torch.zeros(2, 3)\n"
                                       "    return cache[k] + x\ny = grid(torch.ones(2, 3, device='cuda'), 'a')\n", {(8, "TP101")}),
    "local-dict-filled-under-a-test": ("def grid(x, k, fill):\n    cache = {}\n    if fill:\n        cache[k] = torch.zeros(2, 3)\n"
                                       "    return cache[k] + x\ny = grid(torch.ones(2, 3, device='cuda'), 'a', flag)\n", {(8, "TP101")}),
    "dict-cache-filled-on-the-input-device": ("cache = {}\ndef grid(x, k):\n    if k not in cache:\n"
                                              "        cache[k] = torch.zeros(2, 3, device=x.device)\n"
                                              "    return cache[k] + x\ny = grid(torch.ones(2, 3, device='cuda'), 'a')\n", set()),
    "dict-cache-holding-another-device": ("cache = {'b': torch.zeros(2, 3, device='cuda')}\ndef grid(x, k):\n    if k not in cache:\n"
                                          "        cache[k] = torch.zeros(2, 3)\n"
                                          "    return cache[k] + x\ny = grid(torch.ones(2, 3, device='cuda'), 'a')\n", set()),
    # on a machine with MPS and no CUDA the `else` of a test for CUDA runs: one that stops the program
    # leaves no Mac run to warn about (the same without the `else`: TP101's Mac warning)
    "mac-branch-that-exits": ("import sys\nif torch.cuda.is_available():\n    device = 'cuda'\nelif torch.backends.mps.is_available():\n"
                              "    device = 'mps'\nelse:\n    device = 'cpu'\nx = torch.ones(2, 3)\nif torch.cuda.is_available():\n"
                              "    x = x.to('cuda')\nelse:\n    sys.exit('needs a GPU')\ny = x * torch.ones(2, 3, device=device)\n", set()),
    "mac-branch-that-goes-on": ("if torch.cuda.is_available():\n    device = 'cuda'\nelif torch.backends.mps.is_available():\n"
                                "    device = 'mps'\nelse:\n    device = 'cpu'\nx = torch.ones(2, 3)\nif torch.cuda.is_available():\n"
                                "    x = x.to('cuda')\ny = x * torch.ones(2, 3, device=device)\n", {(13, "TP101")}),
    # twins: a test of where a tensor is chooses that tensor's device; both branches on the CPU
    "if-else-device-of-a-tensor-is-unknown": ("if t.is_cuda:\n    device = torch.device('cuda')\nelse:\n    device = torch.device('cpu')\n"
                                              "x = torch.ones(2, device=device) + torch.ones(2)\n", set()),
    "if-else-device-choice-moved-both-ways": ("if args.cpu:\n    device = torch.device('cpu')\nelse:\n    device = torch.device('cuda')\n"
                                              "x = torch.ones(2, device=device) + torch.ones(2, device=device)\n", set()),
    # a default device set to a device not known, or on one path only, is not known: factories after it
    # may be anywhere (cleanrl's ppo_trxl: `if args.cuda: ...; torch.set_default_device(device)`)
    "default-device-set-on-one-path": ("if args.cuda:\n    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
                                       "    torch.set_default_device(device)\nelse:\n    device = torch.device('cpu')\n"
                                       "x = torch.ones(2).to(device) + torch.zeros(2)\n", set()),
    "default-device-set-to-an-unknown-device": ("torch.set_default_device(opts.where)\n"
                                                "x = torch.ones(2, device='cuda') + torch.zeros(2)\n", set()),
    "cuda-index-device": ("a = torch.ones(2, device='cuda:0')\nb = torch.ones(2, device='cuda:1')\nc = a + b\n", {(6, "TP101")}),
    "mps-device": ("a = torch.ones(2, device=torch.device('mps'))\nc = a @ torch.ones(2, 2)\n", {(5, "TP101")}),
    "x-device": ("a = torch.ones(2).cuda()\nb = torch.ones(2, device=a.device)\nc = a + b + torch.ones(2)\n", {(4, "TP301"), (6, "TP101")}),
    "next-parameters-device": ("m = nn.Linear(2, 2).cuda()\nd = next(m.parameters()).device\nx = torch.ones(2, device=d) - torch.ones(2)\n", {(6, "TP101")}),
    # a module's parameters, buffers and state_dict() are where the module is; an unknown module's are unknown
    "iterate-parameters": ("m = nn.Linear(2, 2).cuda()\nfor p in m.parameters():\n    y = p + torch.ones(2, 2)\n", {(6, "TP101")}),
    "list-of-parameters": ("m = nn.Linear(2, 2).cuda()\nps = list(m.parameters())\ny = ps[0] + torch.ones(2, 2)\n", {(6, "TP101")}),
    "zip-parameters-of-two-modules": ("m = nn.Linear(2, 2).cuda()\nc = nn.Linear(2, 2)\n"
                                      "for a, b in zip(c.parameters(), m.parameters()):\n    y = torch.cat([a, b])\n", {(7, "TP101")}),
    # a parameter may be 0-dim (a CPU scalar may meet a CUDA tensor in arithmetic): at most a hint
    "parameter-in-arithmetic-may-be-0dim": ("m = nn.Linear(2, 2).cuda()\nc = nn.Linear(2, 2)\n"
                                            "for a, b in zip(c.parameters(), m.parameters()):\n    a.data = a.data + b\n", set()),
    "state-dict-items": ("m = nn.Linear(2, 2).cuda()\nfor k, v in m.state_dict().items():\n    y = v + torch.ones(2, 2)\n", {(6, "TP101")}),
    "named-buffers": ("m = nn.BatchNorm1d(2).cuda()\nfor k, b in m.named_buffers():\n    y = torch.cat([b, torch.ones(2)])\n", {(6, "TP101")}),
    "parameters-of-an-unknown-module": ("m = build()\nfor p in m.parameters():\n    y = p + torch.ones(2, 2)\n", set()),
    "parameters-of-a-moved-module": ("m = nn.Linear(2, 2).cuda()\nfor p in m.parameters():\n    y = p + torch.ones(2, 2, device='cuda')\n", set()),
    # `type(v) is list` is False for a tensor (only "no" carries over from isinstance: a subclass's type is not the class)
    "type-is-not-list-of-a-tensor": ("x = torch.ones(2).cuda()\nif type(x) is not list:\n    x = [x]\nfor t in x:\n    y = t + torch.ones(2)\n",
                                     {(4, "TP301"), (8, "TP101")}),
    "type-is-list-of-a-list-is-unknown": ("x = [torch.ones(2).cuda()]\nif type(x) is list:\n    x = x[0]\ny = x + torch.ones(2)\n", {(4, "TP301")}),
    "args-device": ("x = torch.ones(2).to(args.device)\ny = x * torch.ones(2)\n", {(4, "TP301"), (5, "TP101")}),
    "loop-fixed-point": ("device = torch.device('cuda')\nh = torch.zeros(3)\nfor x in xs:\n    h = h + torch.ones(3, device=device)\n", {(7, "TP101")}),
    "for-loader-enumerate": ("device = torch.device('cuda')\nm = nn.Linear(2, 2).to(device)\nfor i, (x, y) in enumerate(DataLoader(ds)):\n    out = m(x)\n", {(7, "TP103")}),
    "loader-batch-moved-in-loop": ("device = torch.device('cuda')\nm = nn.Linear(2, 2).to(device)\nfor x, y in DataLoader(ds):\n    x = x.to(device)\n    out = m(x)\n", set()),
    "with-no-grad": ("m = nn.Linear(2, 2).cuda()\nwith torch.no_grad():\n    y = m(torch.ones(1, 2))\n", {(6, "TP102")}),
    "with-device-context": ("with torch.device('cuda'):\n    a = torch.ones(2)\nb = a + torch.ones(2, device='cuda')\n", set()),
    "try-except-joins": ("try:\n    x = torch.ones(2).cuda()\nexcept RuntimeError:\n    x = torch.ones(2)\ny = x + torch.ones(2)\n", {(5, "TP301")}),
    "function-returns-device-value": ("def to_gpu(t):\n    return t.to('cuda')\nx = to_gpu(torch.ones(2))\ny = x + torch.ones(2)\n", {(7, "TP101")}),
    "helper-forgets-to-return": ("def prepare(t, device):\n    t.to(device)\n    return t\nx = prepare(torch.ones(2), torch.device('cuda'))\ny = x * torch.ones(2, device='cuda')\n", {(5, "TP201"), (8, "TP101")}),
    "comprehension": ("device = torch.device('cuda')\nxs = [torch.ones(2).to(device) for _ in range(3)]\ny = xs[0] + torch.ones(2)\n", {(5, "TP301"), (6, "TP101")}),
    "dict-comprehension-batch": ("device = torch.device('cuda')\nm = nn.Linear(2, 2).to(device)\nfor batch in DataLoader(ds):\n    batch = {k: v.to(device) for k, v in batch.items()}\n    out = m(**batch)\n", set()),
    "module-class-forward": ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(2, 2)\n        self.register_buffer('scale', torch.ones(2))\n    def forward(self, x):\n        return self.fc(x) * self.scale\nnet = Net().cuda()\ny = net(torch.ones(1, 2))\n", {(12, "TP102")}),
    "module-to-in-place": ("m = nn.Linear(2, 2)\nm.to('cuda')\ny = m(torch.ones(1, 2, device='cuda'))\n", set()),
    "module-passed-to-unknown-function": ("m = nn.Linear(2, 2)\nsetup(m)\ny = m(torch.ones(1, 2, device='cuda'))\n", set()),
    "non-blocking-transfer": ("device = torch.device('cuda')\nx = torch.ones(2)\nx = x.to(device, non_blocking=True)\ny = x + torch.ones(2)\n", {(7, "TP101")}),
    "dtype-only-to-keeps-device": ("x = torch.ones(2).cuda()\nx = x.to(torch.float16)\ny = x + torch.ones(2)\n", {(4, "TP301"), (6, "TP101")}),
    "preserving-ops": ("x = torch.ones(4, 4, device='cuda')\ny = x.view(16).reshape(4, 4).t().clone()\nz = torch.cat([y, x]) + torch.relu(x)\n", set()),
    "from-numpy-dtype": ("import numpy as np\ndata = np.random.rand(4, 3)\nx = torch.from_numpy(data).cuda()\n", {(6, "TP302")}),
    "numpy-float32-is-fine": ("import numpy as np\ndata = np.zeros((4, 3), dtype=np.float32)\nx = torch.tensor(data).cuda()\n", {(6, "TP301")}),
    "set-default-device": ("torch.set_default_device('cuda')\nx = torch.ones(2) + torch.ones(2, device='cuda')\nm = nn.Linear(2, 2)\ny = m(torch.ones(1, 2, device='cuda'))\n", set()),
    "unknown-stays-unknown": ("x = load_tensor()\ny = x + torch.ones(2, device='cuda')\nz = model(x)\n", set()),
    "walrus": ("if (x := torch.ones(2).cuda()) is not None:\n    y = x + torch.ones(2)\n", {(4, "TP301"), (5, "TP101")}),
    "data-parallel-accepts-cpu": ("m = nn.DataParallel(nn.Linear(2, 2).cuda())\ny = m(torch.ones(1, 2))\n", set()),
    # ... also where the wrapper of a torch layer is moved itself (it scatters its inputs to its device_ids)
    "data-parallel-moved-after-wrapping-accepts-cpu": ("m = nn.DataParallel(nn.Linear(2, 2)).cuda()\ny = m(torch.ones(1, 2))\n", set()),
    "data-parallel-on-cuda1-accepts-the-current-device": (
        "m = nn.DataParallel(nn.Linear(2, 2), device_ids=[1]).cuda(1)\ny = m(torch.ones(1, 2, device='cuda'))\n", set()),
    # a module on cuda:1 and an input on the current device, cuda:0 (nothing picks another): the call raises
    "module-on-cuda1-input-on-the-current-device": ("m = nn.Linear(2, 2).cuda(1)\ny = m(torch.ones(1, 2, device='cuda'))\n",
                                                    {(5, "TP102")}),
    # `a, b = x.cuda(),` (a 1-tuple) always raises "not enough values to unpack" before binding: the handler
    # that swallows it sees the CPU input; with two items the input is moved
    "unpacking-a-tuple-of-another-length-raises": (
        "m = nn.Linear(2, 2).cuda()\nx, y = torch.ones(1, 2), torch.ones(1)\ntry:\n    x, y = x.cuda(),\n"
        "except ValueError:\n    pass\nz = m(x)\n", {(10, "TP102")}),
    "unpacking-a-tuple-of-the-same-length": (
        "m = nn.Linear(2, 2).cuda()\nx, y = torch.ones(1, 2), torch.ones(1)\ntry:\n    x, y = x.cuda(), y.cuda()\n"
        "except ValueError:\n    pass\nz = m(x)\n", set()),
    # an object of unknown kind moved to cuda:1 may move its inputs itself (a pipeline, a wrapper): quiet
    "unknown-object-on-cuda1-input-on-the-current-device": (
        "m = load_model().cuda(1)\ny = m(torch.ones(1, 2, device='cuda'))\n", set()),
    # `CUDA = torch.cuda.is_available()` ... `if CUDA:` is the test of the call itself (taken as true)
    "cuda-available-kept-in-a-name": ("CUDA = torch.cuda.is_available()\nx = torch.ones(3)\nif CUDA:\n    x = x.cuda()\n"
                                      "y = x + torch.zeros(3)\n", {(8, "TP101")}),
    "cuda-available-negated-in-a-name": ("CUDA = torch.cuda.is_available()\nx = torch.ones(3)\nif not CUDA:\n    x = x.cuda()\n"
                                         "y = x + torch.zeros(3)\n", set()),
    # Hugging Face tokenizers with return_tensors="pt" give CPU tensors; BatchEncoding.to() and
    # BatchFeature.to() move them in place and return the same object (transformers 5.23:
    # tokenization_utils_base.py BatchEncoding.to, feature_extraction_utils.py BatchFeature.to:
    # `self.data = {...}; return self`), unlike Tensor.to()
    "tokenizer-output-not-moved": (TOKENIZER + "inputs = tok('hi', return_tensors='pt')\nout = model(**inputs)\n"
                                   "out = model(input_ids=inputs['input_ids'])\nids = tok.encode('hi', return_tensors='pt')\n"
                                   "out = model(ids)\n", {(8, "TP102"), (9, "TP102"), (11, "TP102")}),
    "tokenizer-output-moved-in-place": (TOKENIZER + "inputs = tok('hi', return_tensors='pt')\ninputs.to('cuda')\n"
                                        "out = model(**inputs)\nbatch = tok(['a'], padding=True, return_tensors='pt').to('cuda')\n"
                                        "out = model(**batch)\n", set()),
    "tokenizer-output-without-tensors": (TOKENIZER + "inputs = tok('hi')\nout = model(**inputs)\n", set()),
    # a transformers model `from_pretrained` loads is an nn.Module with parameters, on the CPU, whose
    # forward does not move its inputs: accelerator input raises (fitbert's custom model, never moved)
    "pretrained-model-left-on-the-cpu": (PRETRAINED + "model = AutoModelForMaskedLM.from_pretrained('m')\n"
                                         "ids = torch.ones(1, 2, dtype=torch.long, device='cuda')\nout = model(ids)\n",
                                         {(8, "TP102")}),
    "pretrained-model-moved": (PRETRAINED + "model = AutoModelForMaskedLM.from_pretrained('m')\nmodel.to('cuda')\n"
                               "ids = torch.ones(1, 2, dtype=torch.long, device='cuda')\nout = model(ids)\n", set()),
    # ... unless an argument may place it (accelerate's dispatch, 8-bit loading, unknown keywords) or it
    # wraps a module handed in (peft: `PeftModel.from_pretrained(base, path)` is where `base` is)
    "pretrained-model-placed-by-its-arguments": (
        PRETRAINED + "ids = torch.ones(1, 2, dtype=torch.long, device='cuda')\n"
        "a = AutoModelForMaskedLM.from_pretrained('m', device_map='auto')(ids)\n"
        "b = AutoModelForMaskedLM.from_pretrained('m', load_in_8bit=True)(ids)\n"
        "c = AutoModelForMaskedLM.from_pretrained('m', **options)(ids)\n"
        "base = AutoModelForMaskedLM.from_pretrained('m').cuda()\n"
        "d = PeftModel.from_pretrained(base, 'adapter')(ids)\n"
        "def f(base_model):\n    return PeftModel.from_pretrained(base_model, 'adapter')(ids)\n", set()),
    # a method of the model's own may move it (`parallelize()` spreads GPT-2 over the GPUs); nn.Module's
    # `load_state_dict` does not
    "pretrained-model-after-a-method-of-its-own": (
        PRETRAINED + "ids = torch.ones(1, 2, dtype=torch.long, device='cuda')\n"
        "model = AutoModelForMaskedLM.from_pretrained('m')\nmodel.parallelize()\na = model(ids)\n"
        "other = AutoModelForMaskedLM.from_pretrained('m')\nother.load_state_dict(weights)\nb = other(ids)\n",
        {(12, "TP102")}),
    "mapping-with-to-is-unknown-after": ("batch = {'x': torch.ones(2)}\nbatch.to('cuda')\n"
                                         "y = nn.Linear(2, 2).cuda()(batch['x'])\n", set()),
    # what a model returns may be a tuple or a ModelOutput: its items are not rows, and their attributes
    # are not tensors (MONAI's MetaTensor rows have `.pending_operations`, a list; review 2026-11-27)
    "rows-of-a-model-output-are-unknown": ("m = nn.Linear(2, 2).cuda()\nout = m(torch.ones(3, 2, device='cuda'))\n"
                                           "for item in out:\n    ops = item.pending_operations.numpy()\n", set()),
    # a lazily filled global singleton: the path that skips the `if` still sees what the module holds
    "global-singleton-filled-lazily": ("_M = None\ndef get_model():\n    global _M\n    if _M is None:\n"
                                       "        _M = nn.Linear(2, 2).to('cuda')\n    return _M\n"
                                       "y = get_model()(torch.ones(1, 2))\n", {(10, "TP102")}),
    # a CPU tensor that is not 0-dim decides where the result is, whatever the unknown operand
    # (a CUDA one would make the op raise: there would be no result)
    "cpu-tensor-with-unknown-operand-stays-on-cpu": ("w = torch.ones(3) * load_scale()\ny = w + torch.ones(3, device='cuda')\n",
                                                     {(5, "TP101")}),
    "unknown-with-zero-dim-cpu-stays-unknown": ("w = torch.tensor(2.0) * load_scale()\ny = w + torch.ones(3, device='cuda')\n",
                                                set()),
    # an op of the table on an unknown value still gives a tensor; clamp keeps its input's rank,
    # tile pads its sizes like repeat (so neither result may be a 0-dim CPU scalar)
    "clamp-keeps-rank": ("b = torch.clamp(torch.ones(4) - 1, 0, 1)\ny = b + torch.ones(4, device='cuda')\n", {(5, "TP101")}),
    "tile-keeps-device-and-rank": ("p = torch.zeros(1, 1, 3).tile(2, 1, 1)\ny = torch.cat([p, torch.ones(2, 1, 3, device='cuda')])\n",
                                   {(5, "TP101")}),
    # torchvision (v1): ToTensor / PILToTensor / to_tensor / pil_to_tensor make a CPU tensor from a PIL image
    # or an array (a tensor input raises TypeError); Normalize, Resize, crops and flips keep the input's
    # device, so Compose([... ToTensor(), Normalize(...)]) gives a CPU tensor; a Lambda after it could
    # put it anywhere (torchvision 0.28 on torch 2.13)
    "transforms-output-is-on-the-cpu": (TRANSFORMS + "img = preprocess(pic).unsqueeze(0)\nimg.to('cuda')\nout = net(img)\n"
                                        "x = TF.to_tensor(pic)\nout = net(x[None])\n"
                                        "y = net(T.PILToTensor()(pic).float()[None])\n",
                                        {(10, "TP201"), (11, "TP102"), (13, "TP102"), (14, "TP102")}),
    "transforms-output-moved": (TRANSFORMS + "img = preprocess(pic).unsqueeze(0).to('cuda')\nout = net(img)\n", set()),
    "transforms-kept-in-an-attribute": (TRANSFORMS + "class Infer:\n    def __init__(self):\n"
                                        "        self.tf = T.Compose([T.ToTensor(), T.Normalize((0.5,), (0.5,))])\n"
                                        "    def run(self, pic):\n        return net(self.tf(pic)[None])\n", {(13, "TP102")}),
    # a transform the class body makes (a class attribute, no method rebinding it), called on `self` or an instance
    "transforms-kept-in-a-class-attribute": (TRANSFORMS + "class Infer:\n    size = 224\n"
                                             "    tf = T.Compose([T.Resize(size), T.ToTensor(), T.Normalize((0.5,), (0.5,))])\n"
                                             "    def run(self, pic):\n        return net(self.tf(pic)[None])\n"
                                             "out = net(Infer().tf(pic)[None])\n", {(13, "TP102"), (14, "TP102")}),
    # twins: a method rebinds it (an instance attribute hides the class's), or a Lambda may move its output
    "transforms-class-attribute-rebound-or-unknown-are-quiet": (
        TRANSFORMS + "class Infer:\n    tf = T.Compose([T.ToTensor()])\n"
        "    def setup(self, tf):\n        self.tf = tf\n"
        "    def run(self, pic):\n        return net(self.tf(pic)[None])\n"
        "class Infer2:\n    tf = T.Compose([T.ToTensor(), T.Lambda(lambda t: t.cuda())])\n"
        "    def run(self, pic):\n        return net(self.tf(pic)[None])\n", set()),
    "transforms-with-a-lambda-after-to-tensor-are-unknown": (
        TRANSFORMS + "tf = T.Compose([T.ToTensor(), T.Lambda(lambda t: t.cuda())])\nout = net(tf(pic)[None])\n"
        "tf2 = T.Compose([T.ToTensor(), my_step])\nout = net(tf2(pic)[None])\n", set()),
    # a function that moves a module-level module in place (Module.to changes the object; no `global`
    # needed) leaves other functions unsure where it is at their entry: before or after the move
    "global-module-moved-by-another-function": ("model = nn.Linear(2, 2)\ndevice = torch.device('cuda')\n"
                                                "def evaluate():\n    return model(torch.ones(1, 2).to(device))\n"
                                                "def train():\n    model.to(device)\n    evaluate()\n"
                                                "    return model(torch.ones(1, 2))\nif __name__ == '__main__':\n    train()\n",
                                                {(7, "TP301"), (11, "TP102")}),
    # ... but a call made after the move runs with the moved module (the same object)
    "function-called-after-a-global-move-sees-it": ("model = nn.Linear(2, 2)\ndevice = torch.device('cuda')\n"
                                                    "def evaluate():\n    return model(torch.ones(1, 2))\n"
                                                    "def train():\n    model.to(device)\n    evaluate()\ntrain()\n",
                                                    {(7, "TP102")}),
    "function-called-before-a-global-move": ("model = nn.Linear(2, 2)\ndevice = torch.device('cuda')\n"
                                             "def evaluate():\n    return model(torch.ones(1, 2))\n"
                                             "def train():\n    evaluate()\n    model.to(device)\ntrain()\n", set()),
    "global-module-moved-at-module-level-is-known": ("model = nn.Linear(2, 2)\nmodel.to('cuda')\n"
                                                     "def evaluate():\n    return model(torch.ones(1, 2))\n",
                                                     {(7, "TP102")}),
    "local-module-of-the-same-name-is-not-the-global": ("model = nn.Linear(2, 2)\n"
                                                        "def evaluate():\n    return model(torch.ones(1, 2).to('cuda'))\n"
                                                        "def other():\n    model = nn.Linear(2, 2)\n    model.cuda()\n"
                                                        "    return model\n", {(6, "TP102"), (6, "TP301")}),
    "numpy-function-result-is-on-the-cpu": ("import numpy as np\nx = torch.tensor(np.genfromtxt('x.csv'))\n"
                                            "_, idx = torch.topk(torch.ones(5, device='cuda'), 2)\nrows = x[idx]\n",
                                            {(7, "TP101")}),
    # a weighted sum of accelerator losses (`total += weights[k] * loss`, the weight unknown) is on the
    # accelerator, and so is a running list of such sums that NumPy then converts
    "weighted-cuda-losses-in-a-list-to-numpy": ("import numpy as np\ndef evaluate(batches, weights):\n    losses = []\n"
                                                "    for out in batches:\n        total = 0.\n"
                                                "        for k in range(2):\n"
                                                "            total += weights[k] * torch.ones(3, device='cuda').sum()\n"
                                                "        losses.append(total)\n    return np.sum(losses)\n",
                                                {(12, "TP104")}),
    "unknown-times-cuda-scalar-is-on-cuda": ("import numpy as np\ndef f(w):\n    loss = w * torch.ones(3, device='cuda').sum()\n"
                                             "    return np.asarray(loss)\n", {(7, "TP104")}),
    # ... not where the other tensor is unknown: it may be the CPU tensor the result is on
    "unknown-times-cpu-scalar-stays-unknown": ("import numpy as np\ndef f(w):\n    loss = w * torch.ones(3).sum()\n"
                                               "    return np.asarray(loss)\n", set()),
    "torch-sparse-follows-its-tensors": ("import numpy as np\nemb = torch.ones(5, 4, device='cuda')\n"
                                         "adj = torch.ones(5, 5, device='cuda').to_sparse()\nout = torch.sparse.mm(adj, emb)\n"
                                         "s = np.sum(out)\n", {(8, "TP104")}),
    # tests whose answer the values give: `x is None` (None on every path), `t.is_cuda`, isinstance
    "ifexp-narrows-is-none": ("def pack(m):\n    m = m if m is None else m.cuda()\n    return m\n"
                              "p = pack(torch.ones(3)) + torch.ones(3)\n"
                              "tmp = [_ if _ is None else _.cuda() for _ in [torch.ones(3), None]]\nr = tmp[0] + torch.ones(3)\n",
                              {(7, "TP101"), (9, "TP101")}),
    "is-cuda-of-a-known-tensor": ("def g(t):\n    if t.is_cuda:\n        return t.cpu()\n    return t\n"
                                  "z = g(torch.ones(3, device='cuda')) + torch.ones(3, device='cuda')\n", {(8, "TP101")}),
    "isinstance-of-a-known-tensor": ("def h(v):\n    if isinstance(v, torch.Tensor):\n        return v.cpu()\n    return v\n"
                                     "w = h(torch.ones(3, device='cuda')) + torch.ones(3, device='cuda')\n", {(8, "TP101")}),
    "is-none-of-a-value-that-may-be-none-is-not-decided": (
        "def k(x, mask=None):\n    if mask is None:\n        mask = torch.ones(3, device='cuda')\n    return x * mask\n"
        "k(torch.ones(3, device='cuda'))\nm = torch.ones(3, device='cuda') if flag else None\n"
        "k(torch.ones(3, device='cuda'), m)\n", set()),
    # the first use of a CPU tensor that raises is reported, on each branch of an `if`
    "first-raising-use-on-each-branch": ("x = torch.ones(3)\ny = torch.ones(3, device='cuda')\nif flag:\n    z = x + y\n"
                                         "else:\n    z = x - y\nw = x * y\n", {(7, "TP101"), (9, "TP101")}),
    # a tensor of unknown rank where PyTorch reads a number: the call runs only if it is 0-dim (read as a number)
    "arange-of-tensors-of-unknown-rank-is-on-the-cpu": (
        "def g(q, n):\n    r = torch.arange(n)\n    return q * r\ng(torch.ones(4, device='cuda'), torch.tensor(vals, device='cuda'))\n"
        "def h(q, a, b):\n    return q * torch.arange(a, b)\n"
        "h(torch.ones(4, device='cuda'), torch.tensor(v0, device='cuda'), torch.tensor(v1, device='cuda'))\n",
        {(6, "TP101"), (9, "TP101")}),
    # an attribute that is None in __init__ may be set by another method: `self.old is None` is not decided
    "is-none-of-an-attribute-is-not-decided": ("class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
                                               "        self.old = None\n    def merge(self):\n        if self.old is None:\n"
                                               "            return None\n        return torch.zeros(2).cuda()\n",
                                               {(11, "TP301")}),
    # torchtext's legacy iterators make every field of a batch on their device=
    "torchtext-iterator-batches-on-its-device": (
        "from torchtext import data\ntrain_it, test_it = data.BucketIterator.splits((tr, te), batch_size=8, device=torch.device('cuda'))\n"
        "for batch in train_it:\n    text, lengths = batch.text\n    packed = nn.utils.rnn.pack_padded_sequence(text, lengths)\n"
        "    ok = nn.utils.rnn.pack_padded_sequence(text, lengths.cpu())\n", {(8, "TP101")}),
    "torchtext-iterator-default-is-the-cpu": (
        "from torchtext import data\nit = data.BucketIterator(tr, batch_size=8)\n"
        "for batch in it:\n    text, lengths = batch.text\n    packed = nn.utils.rnn.pack_padded_sequence(text, lengths)\n", set()),
    # copy.deepcopy: a copy where the original is; moving one leaves the other
    "deepcopy-is-where-the-original-is": (
        "import copy\nm = nn.Linear(2, 2)\nt = copy.deepcopy(m)\nm.cuda()\ny = t(torch.ones(1, 2, device='cuda'))\n"
        "u = copy.deepcopy(m)\nu.cpu()\nz = m(torch.ones(1, 2, device='cuda'))\n", {(8, "TP102")}),
    # an object passed on holds what the caller bound to its attributes (the module it moved)
    "object-passed-on-holds-its-moved-module": (
        "class Agent:\n    def __init__(self):\n        self.q = nn.Linear(2, 2)\n    def act(self, s):\n        return self.q(s)\n"
        "def run(agent):\n    return agent.act(torch.ones(1, 2))\n"
        "def main():\n    agent = Agent()\n    agent.q.to('cuda')\n    run(agent)\n", {(8, "TP102")}),
    # module code after an `if` calls a function: the function reads the globals as they are now
    "module-call-after-an-if-reads-current-globals": ("w = torch.ones(3, 3)\nif torch.cuda.is_available():\n    pass\n"
                                                      "w = torch.ones(3, 3, device='cuda')\ndef f(x):\n    return x + w\n"
                                                      "f(torch.ones(3, 3, device='cuda'))\n", set()),
    "module-call-after-an-if-reads-current-globals-cpu": ("w = torch.ones(3, 3, device='cuda')\nif torch.cuda.is_available():\n"
                                                          "    pass\nw = torch.ones(3, 3)\ndef f(x):\n    return x + w\n"
                                                          "f(torch.ones(3, 3, device='cuda'))\n", {(9, "TP101")}),
    # a dict's known entry taken out by key (`d.pop("k")`, `d.get("k")`), also one stored by `d["k"] = v`
    "dict-pop-known-entry": ("def f():\n    im = torch.randn(2, 3, device='cuda')\n    windows = {'crop': im, 'n': 1}\n"
                             "    crop = windows.pop('crop')\n    return nn.Linear(3, 3)(crop)\n", {(8, "TP102")}),
    "dict-get-stored-entry": ("def f(x):\n    d = {}\n    d['x'] = x.cuda()\n    return nn.Linear(3, 3)(d.get('x'))\n",
                              {(7, "TP102")}),
    "dict-get-missing-entry-is-unknown": ("def f(x, y):\n    d = {'x': x.cuda()}\n    return nn.Linear(3, 3)(d.get('y', y))\n", set()),
    # a dict returned after `d["k"] = v`: the caller gets the entry
    "dict-entry-stored-then-returned": ("def get_config():\n    config = {'lr': 1}\n    config['device'] = torch.device('cuda')\n"
                                       "    return config\ndef main():\n    config = get_config()\n    m = nn.Linear(3, 3)\n"
                                       "    x = torch.ones(2, 3, device=config['device'])\n    return m(x)\n", {(12, "TP102")}),
    # `"cuda:" + str(gpu)` is an accelerator whose index is chosen at run time, as f"cuda:{gpu}"
    "cuda-prefix-concatenated": ("dev = torch.device('cuda:' + str(args.gpu))\nx = torch.ones(2, device=dev) + torch.ones(2)\n",
                                 {(5, "TP101")}),
    "cpu-prefix-concatenated-is-no-accelerator": ("dev = torch.device('cpu' + suffix)\nx = torch.ones(2, device=dev) + torch.ones(2)\n",
                                                  set()),
    # a tensor is no NumPy array: `lib = np if isinstance(x, np.ndarray) else torch` picks torch for one
    "isinstance-ndarray-of-a-tensor-is-false": ("import numpy as np\ndef mae(a, b):\n    lib = np if isinstance(a, np.ndarray) else torch\n"
                                                "    return lib.mean(lib.abs(a - b))\nx = torch.ones(3, device='cuda')\n"
                                                "loss = mae(x, x)\nif np.equal(loss, 0.0):\n    pass\n", {(10, "TP104")}),
    "isinstance-ndarray-of-unknown-is-unknown": ("import numpy as np\ndef mae(a, b):\n    lib = np if isinstance(a, np.ndarray) else torch\n"
                                                 "    return lib.mean(lib.abs(a - b))\nloss = mae(y, y)\nif np.equal(loss, 0.0):\n    pass\n", set()),
    # `hist[phase].append(x)` under a key the analysis does not know: every entry may hold x afterwards
    "append-to-a-dict-entry-under-an-unknown-key": ("import numpy as np\nhist = {'train': [], 'val': []}\nfor phase in ['train', 'val']:\n"
                                                    "    hist[phase].append(torch.ones((), device='cuda'))\n"
                                                    "m = np.mean(hist[phase])\nn = np.mean(hist['val'])\n", {(8, "TP104"), (9, "TP104")}),
    "append-to-a-dict-entry-under-an-unknown-key-of-numbers": ("import numpy as np\nhist = {'train': [], 'val': []}\nfor phase in ['train', 'val']:\n"
                                                               "    hist[phase].append(torch.ones((), device='cuda').item())\n"
                                                               "m = np.mean(hist[phase])\n", set()),
    "append-to-a-dict-entry-made-by-a-comprehension": ("import numpy as np\nhist = {k: [] for k in names}\nfor k in names:\n"
                                                       "    hist[k].append(torch.ones((), device='cuda'))\n"
                                                       "m = np.mean(hist[k])\n", {(8, "TP104")}),
    # an item stored into a list at an index the analysis cannot follow: each item is what it was or the
    # stored value (`cores[d] = cores[d] / 2` keeps a list of CUDA tensors one)
    "store-at-an-unknown-index-of-a-list": ("cores = [torch.randn(2, 3, device='cuda') for _ in range(3)]\nfor d in dims:\n"
                                            "    cores[d] = cores[d] / 2\n    cores[d] = torch.cat((cores[d], torch.zeros(2, 1)), dim=1)\n",
                                            {(7, "TP101")}),
    "store-at-an-unknown-index-of-a-list-of-known-items": ("cores = [torch.randn(2, device='cuda'), torch.randn(3, device='cuda')]\n"
                                                           "cores[i] = cores[i] * 2\ny = torch.cat((cores[1], torch.zeros(1)))\n", {(6, "TP101")}),
    "store-of-another-device-at-an-unknown-index-is-unknown": ("cores = [torch.randn(2, 3, device='cuda') for _ in range(3)]\n"
                                                                "for d in dims:\n    cores[d] = torch.randn(2, 3)\n"
                                                                "    cores[d] = torch.cat((cores[d], torch.zeros(2, 1)), dim=1)\n", set()),
    "store-of-a-moved-item-at-an-unknown-index": ("cores = [torch.randn(2, 3) for _ in range(3)]\nfor d in dims:\n"
                                                  "    cores[d] = cores[d].cuda()\ny = torch.cat((cores[0], torch.zeros(2, 1)), dim=1)\n", set()),
    "store-into-a-slice-is-unknown": ("cores = [torch.randn(2, 3, device='cuda') for _ in range(3)]\ncores[1:] = parts\n"
                                      "y = torch.cat((cores[0], torch.zeros(2, 1)), dim=1)\n", set()),
    # `d[k]` right after `d[k] = v` (a dict or list, k a name neither rebound since): what was stored
    "item-stored-under-a-name-key-reads-back": ("def prepare(inputs, device):\n    inputs['mask'] = [1, 1]\n"
                                                "    for key in ['ids', 'mask']:\n        inputs[key] = torch.tensor(inputs[key])\n"
                                                "        inputs[key].to(device)\n    return inputs\n"
                                                "batch = prepare({'ids': [3, 4]}, torch.device('cuda'))\n", {(8, "TP201")}),
    "item-stored-under-a-name-key-and-moved-there": ("def prepare(inputs, device):\n"
                                                     "    for key in ['ids', 'mask']:\n        inputs[key] = torch.tensor(inputs[key])\n"
                                                     "        inputs[key] = inputs[key].to(device)\n    return inputs\n"
                                                     "batch = prepare({'ids': [3, 4], 'mask': [1, 1]}, torch.device('cuda'))\n"
                                                     "y = batch['ids'] + torch.ones(2, device='cuda')\n", set()),
    "item-under-a-rebound-name-key-is-not-read-back": ("items = {'a': [1], 'b': [2]}\nkey = 'a'\nitems[key] = torch.ones(2)\nkey = 'b'\n"
                                                       "y = items[key] + torch.ones(2, device='cuda')\n", set()),
    "item-of-an-unknown-container-is-not-read-back": ("def f(x):\n    x[i] = torch.zeros(2)\n    return x[i] + torch.ones(2, device='cuda')\n", set()),
    "item-under-a-constant-key-replaces-a-name-key": ("items = {'a': [1]}\nitems[k] = torch.ones(2)\nitems['a'] = torch.ones(2, device='cuda')\n"
                                                      "y = items[k] + torch.ones(2, device='cuda')\n", set()),
    # a callee that stores into the same container under a name of its own may have replaced the item
    "item-under-a-name-key-after-a-callee-stored-into-the-container": (
        "class Box:\n    pass\ndef fill(box, keys):\n    for j in keys:\n        box.cache[j] = torch.ones(2, device='cuda')\n"
        "box = Box()\nbox.cache = {}\nfor k in names:\n    box.cache[k] = torch.ones(2)\n    fill(box, names)\n"
        "    y = box.cache[k] + torch.ones(2, device='cuda')\n", set()),
    "store-into-an-item-of-an-item-is-unknown": ("cores = [[torch.randn(2, 3, device='cuda')] for _ in range(3)]\n"
                                                 "cores[i][j] = torch.zeros(2, 3)\ny = torch.cat((cores[0][0], torch.zeros(2, 1)), dim=1)\n", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_device_flow(name):
    body, expected = CASES[name]
    source = H + body
    findings = check_source(source, "flow.py")
    got = {(f.span.start_line + 1, f.code) for f in findings if f.severity <= Severity.INFORMATION}
    assert got == expected, "\n" + "\n".join(f"{i + 1:3}: {l}" for i, l in enumerate(source.splitlines())) + "\n" + \
        "\n".join(f"{f.span.start_line + 1}: {f.code} {f.message}" for f in findings)


def test_type_as_follows_the_other_tensor():
    source = H + "src = torch.ones(3, 1, device='cuda')\nys = torch.ones(1, 1, device='cuda')\nys = torch.cat([ys, torch.ones(1, 1).type_as(src.data)])\n"
    assert [f.code for f in check_source(source, "t.py") if f.severity <= Severity.WARNING] == []


def test_every_cpu_state_made_in_forward_is_reported():
    source = H + textwrap.dedent("""\
        class Seq(nn.Module):
            def __init__(self):
                super().__init__()
                self.cell = nn.LSTMCell(1, 8)
            def forward(self, x):
                h = torch.zeros(x.size(0), 8)
                c = torch.zeros(x.size(0), 8)
                return self.cell(x, (h, c))
    """)
    lines = sorted(f.span.start_line + 1 for f in check_source(source, "t.py") if f.code == "TP202")
    assert lines == [9, 10]


CALL_ENTRY_LOSS = """\
    class Loss(nn.Module):
        def __call__(self, y, y_hat):
            w = torch.ones(y.shape[-1])
            return (torch.abs(y - y_hat) * w).mean()
"""


def test_the_inputs_of_a_call_a_module_class_defines_are_its_call_inputs():
    # `loss(y, y_hat)` runs the `__call__` the class defines in place of nn.Module's: its tensor
    # arguments are the module call's inputs, as forward's are (TP202 for a CPU state meeting them)
    source = H + textwrap.dedent(CALL_ENTRY_LOSS)
    assert [(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING] \
        == [(6, "TP202")]
    # ... not those of another method of it (whatever its callers pass)
    other = source.replace("def __call__(", "def weigh(")
    assert [f.code for f in check_source(other, "t.py") if f.severity <= Severity.WARNING] == []


def test_calling_a_module_whose_class_defines_call_runs_that_call():
    # Python looks `crit(x)` up on the type: the class's own `__call__` runs, not nn.Module's forward
    source = H + textwrap.dedent("""\
        class Loss(nn.Module):
            def __call__(self, y, y_hat):
                return torch.abs(y - y_hat).cpu()
        crit = Loss()
        x = torch.ones(3, device="cuda")
        z = crit(x, x) * x
    """)
    assert [(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING] \
        == [(9, "TP101")]
    kept = source.replace(".cpu()", "")
    assert [f.code for f in check_source(kept, "t.py") if f.severity <= Severity.WARNING] == []


OPTIONAL_MASK = """\
    from typing import Optional, Union


    class Masked(nn.Module):
        def forward(self, n: int, mask: Optional[torch.Tensor] = None):
            return mask * torch.ones(n)
"""


def test_union_of_a_tensor_and_none_is_an_optional_tensor():
    # `Union[torch.Tensor, None]` is `Optional[torch.Tensor]`: a tensor argument of a module method
    source = H + textwrap.dedent(OPTIONAL_MASK)
    found = lambda text: [(f.span.start_line + 1, f.code) for f in check_source(text, "t.py") if f.severity <= Severity.WARNING]
    assert found(source) == [(9, "TP202")]
    assert found(source.replace("Optional[torch.Tensor]", "Union[torch.Tensor, None]")) == [(9, "TP202")]
    assert found(source.replace("Optional[torch.Tensor]", "Union[torch.Tensor, int, None]")) == []


REVIEWED_FALSE_POSITIVES = {
    # Shapes of findings judged false in the transformers/diffusers review (benchmarks/review/).
    "unresolved-base-submodule": """
        from transformers import PreTrainedModel
        class MyModel(PreTrainedModel):
            def __init__(self, config):
                super().__init__(config)
                self.emb = nn.Embedding(10, 4)
            def forward(self, input_ids):
                device = input_ids.device
                ids = torch.arange(3, device=device)
                return self.emb(ids)
    """,
    "unresolved-base-through-a-local-base": """
        from transformers import PreTrainedModel
        class VideoPreTrainedModel(PreTrainedModel):
            pass
        class VideoModel(VideoPreTrainedModel):
            def __init__(self, config):
                super().__init__(config)
                self.temporal_encoding = torch.nn.Parameter(torch.zeros(7, 1, 1, 64))
                self.projection = torch.nn.Linear(64, 64)
            def forward(self, pos, device):
                pos = pos.to(device, non_blocking=True)
                sine = self.projection(pos)
                return sine + self.temporal_encoding[0]
    """,
    "loss-weight-is-a-buffer": """
        class Criterion(nn.Module):
            def __init__(self):
                super().__init__()
                self.empty_weight = nn.Buffer(torch.ones(3))
            def forward(self, logits, labels):
                loss_fn = nn.CrossEntropyLoss(weight=self.empty_weight)
                return loss_fn(logits, labels)
    """,
    "tensor-of-a-tensor-keeps-device": """
        class Sampler(nn.Module):
            def forward(self, value, spatial_shapes):
                normalizer = torch.tensor(spatial_shapes)
                return value / normalizer
    """,
    "zero-dim-normalizer": """
        class Embed(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)
            def forward(self, ids, hidden_size: int):
                h = self.emb(ids)
                normalizer = torch.tensor(hidden_size ** 0.5, dtype=h.dtype)
                return h * normalizer
    """,
    "cpu-mask-into-a-user-submodule-that-moves-it": """
        class Text(nn.Module):
            def forward(self, x, mask):
                return x * mask.to(x.device)
        class Blip(nn.Module):
            def __init__(self):
                super().__init__()
                self.text_model = Text()
            def forward(self, image_embeds):
                atts = torch.ones(image_embeds.size()[:-1], dtype=torch.long)
                return self.text_model(image_embeds, atts)
    """,
    "int-index-is-zero-dim": """
        device = torch.device("cuda")
        sigmas = torch.linspace(1.0, 0.0, 10)
        sample = torch.randn(4, device=device)
        step = 3
        out = sample * sigmas[step + 1]
    """,
    "list-wrapped-later": """
        class Levit(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = []
                for _ in range(3):
                    self.layers.append(nn.Linear(4, 4))
                self.layers = nn.ModuleList(self.layers)
            def forward(self, x):
                for layer in self.layers:
                    x = layer(x)
                return x
    """,
}


@pytest.mark.parametrize("name", sorted(REVIEWED_FALSE_POSITIVES))
def test_reviewed_false_positives_stay_quiet(name):
    source = H + textwrap.dedent(REVIEWED_FALSE_POSITIVES[name])
    loud = [f for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]
    assert loud == [], [f"{f.span.start_line + 1}: {f.code} {f.message}" for f in loud]


def test_user_submodule_that_mixes_its_input_is_followed():
    source = H + textwrap.dedent("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
            def forward(self, x, bias):
                return self.fc(x) + bias
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
            def forward(self, x):
                return self.head(x, torch.ones(4))
    """)
    found = {(f.span.start_line + 1, f.code) for f in check_source(source, "t.py")}
    assert (15, "TP202") in found


def test_a_stateless_loss_is_on_its_inputs_device():
    """Issue 14 item 7: `loss = criterion(logits, labels)` with `nn.CrossEntropyLoss()` is on the
    accelerator when its inputs are, so `loss.item()` every step is hinted like F.cross_entropy's."""
    body = ("device = torch.device('cuda')\nmodel = nn.Linear(3, 2).to(device)\ncriterion = nn.CrossEntropyLoss()\n"
            "for x, y in DataLoader(ds):\n    x, y = x.to(device), y.to(device)\n    loss = criterion(model(x), y)\n"
            "    loss.backward()\n    print(loss.item())\n")
    findings = check_source(H + body, "t.py")
    assert [(f.code, f.severity) for f in findings] == [("TP402", Severity.HINT)]


def test_torch_normal_with_a_tensor_std_offers_no_device_fix():
    """`torch.normal(0, std)` follows `std` and takes no device=: never a CPU factory to fix."""
    body = "std = torch.ones(3, device='cuda')\nnoise = torch.normal(0., std)\ny = noise + std\n"
    assert check_source(H + body, "t.py") == []


def test_a_fix_adds_device_only_where_the_schema_takes_it():
    """Issue 11 item 4: normal(mean, std_tensor) has no device= (a TypeError there); normal(0, 1, size) has."""
    body = ("x = torch.ones(3, device='cuda')\nstd = torch.ones(3)\n"
            "a = torch.normal(0., std) + x\nb = torch.normal(0., 1., (3,)) + x\n")
    fixes = [f.fix.title for f in check_source(H + body, "t.py")]
    assert fixes == ["Move `torch.normal(0., std)` with `.to(\"cuda\")`",
                     "Create `torch.normal(0., 1., (3,))` with `device=\"cuda\"`"]


def test_move_call_roots_finds_every_name_the_walk_would():
    """`move_call_roots` reads the text to skip the walk of `globals_moved_in_functions` in files that
    move nothing: it must find every root the walk finds (on the corpus and the examples)."""
    import ast
    from pathlib import Path

    from torchplace_rules.flow.state import MODULE_MOVES, move_call_roots

    root = Path(__file__).resolve().parents[2]
    checked = 0
    for path in sorted((root / "tests" / "corpus" / "cases").rglob("*.py")) + sorted((root / "examples").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        roots = move_call_roots(text)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MODULE_MOVES:
                value = node.func.value
                while isinstance(value, ast.Attribute):
                    value = value.value
                if isinstance(value, ast.Name):
                    assert value.id in roots, f"{path}:{node.lineno}"
                    checked += 1
    assert checked > 300
    assert move_call_roots("x = 1\nreturn model \\\n    .module.to(d)\nself.a\n\ncos.cuda()\n") == {"model", "cos"}


def test_moving_to_another_tensor_offers_no_device_fix():
    """`.to(other)` takes other's device and dtype: `device=other` would raise a TypeError."""
    source = H + "x = torch.ones(3, device='cuda')\ny = torch.zeros(2).to(x)\nz = torch.zeros(2).to(x.device)\n"
    notes = {f.span.start_line + 1: f for f in check_source(source, "t.py") if f.code == "TP301"}
    assert sorted(notes) == [5, 6]
    assert notes[5].fix is None and notes[6].fix is not None


def test_a_batch_taken_with_next_is_moved_where_it_is_taken():
    source = H + "m = nn.Linear(2, 2).cuda()\nx, y = next(iter(DataLoader(ds)))\nout = m(x)\n"
    found = [f for f in check_source(source, "t.py") if f.code == "TP103"]
    assert [f.span.start_line + 1 for f in found] == [6]
    assert found[0].message.endswith("move the batch where it is taken")


LOSS_BY_CRITERION = """
    class AdversarialLoss(nn.Module):
        def __init__(self, criterion="least_squares"):
            super().__init__()
            if criterion == "bce":
                self.loss_fct = nn.BCELoss()
            elif criterion == "least_squares":
                self.loss_fct = nn.MSELoss()

        def forward(self, logits):
            target = torch.ones(1, device=TARGET).expand_as(logits)
            return self.loss_fct(logits, target)

    disc = nn.Conv2d(1, 1, 3).to("cuda:1")
    loss = AdversarialLoss()(disc(torch.randn(2, 1, 8, 8, device="cuda:1")))
"""


@pytest.mark.parametrize("target,expected", [('"cuda"', {(15, "TP101")}), ("logits.device", set())])
def test_a_module_that_is_one_loss_or_another_is_a_loss(target, expected):
    """`self.loss_fct` is `nn.BCELoss()` on one branch of `__init__` and `nn.MSELoss()` on the other:
    a loss either way, so its input (on cuda:1) and its target ("cuda", the current device cuda:0)
    must agree; a target made on the input's device is quiet."""
    source = H + textwrap.dedent(LOSS_BY_CRITERION).replace("TARGET", target)
    found = {(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING}
    assert found == expected
