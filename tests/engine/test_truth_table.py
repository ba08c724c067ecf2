"""PyTorch's real device semantics, as tests: what must and must not be reported.

Each case runs under a fake GPU (real PyTorch device checks) to prove the
claim, and through the engine to prove it reports accordingly.
"""
import pytest

from torchplace_rules import Severity, check_source

from .fake_gpu import run_on_fake_gpu, run_on_fake_mac

HEADER = "import torch\nimport torch.nn as nn\ndevice = torch.device('cuda')\n"

# (id, code, raises on a GPU?, expected error code or None)
CASES = [
    ("module-to-alone-is-in-place", "m = nn.Linear(3, 2)\nm.to(device)\ny = m(torch.ones(1, 3, device=device))\n", False, None),
    ("module-cuda-alone", "m = nn.Linear(3, 2)\nm.cuda()\ny = m(torch.ones(1, 3).to(device))\n", False, None),
    # an nn layer's `device` handed by position (`LayerNorm(shape, eps, affine, bias, device)`) places it there
    ("layer-positional-device", "m = nn.LayerNorm(3, 1e-5, True, True, device)\ny = m(torch.ones(1, 3, device=device))\n",
     False, None),
    ("layer-positional-device-cpu-input", "m = nn.LayerNorm(3, 1e-5, True, True, device)\ny = m(torch.ones(1, 3))\n",
     True, "TP102"),
    ("layer-positional-device-none", "m = nn.LayerNorm(3, 1e-5, True, True, None)\ny = m(torch.ones(1, 3, device=device))\n",
     True, "TP102"),
    # Module.to moves the object: a name bound to the same module (or a list holding it) sees it moved
    ("module-moved-through-an-alias", "m = nn.Linear(3, 2)\nalias = m\nalias.to(device)\ny = m(torch.ones(1, 3, device=device))\n",
     False, None),
    ("modules-moved-through-a-list", "a = nn.Linear(3, 3)\nb = nn.Linear(3, 2)\nfor layer in [a, b]:\n    layer.to(device)\n"
     "y = b(a(torch.ones(1, 3, device=device)))\n", False, None),
    # copy.deepcopy makes another module: moving the original leaves the copy on the CPU
    ("deepcopy-is-not-moved-with-the-original", "import copy\nm = nn.Linear(3, 2)\nc = copy.deepcopy(m)\nm.to(device)\n"
     "y = c(torch.ones(1, 3, device=device))\n", True, "TP102"),
    # ... nor is the original moved with its copy (a deep copy holds copies of its modules, not them)
    ("moving-a-copy-leaves-the-original", "import copy\nm = nn.Linear(3, 2)\nc = copy.deepcopy(m)\nc.to(device)\n"
     "y = m(torch.ones(1, 3, device=device))\n", True, "TP102"),
    ("moving-a-copy-leaves-the-original-quiet", "import copy\nm = nn.Linear(3, 2)\nc = copy.deepcopy(m)\nc.to(device)\n"
     "y = m(torch.ones(1, 3))\nz = c(torch.ones(1, 3, device=device))\n", False, None),
    ("inplace-add-keeps-device", "a = torch.ones(3, device=device)\nb = torch.ones(3, device=device)\na += b\nc = a * b\n", False, None),
    ("inplace-add-mixed-raises", "a = torch.ones(3, device=device)\nb = torch.ones(3)\na += b\n", True, "TP101"),
    ("zero-dim-cpu-times-cuda", "x = torch.ones(3, device=device)\ny = x * torch.tensor(2.0)\n", False, None),
    ("zero-dim-cpu-first", "x = torch.ones(3, device=device)\ny = torch.tensor(2.0) + x\n", False, None),
    # the legacy constructors: sizes (`torch.FloatTensor(3)`, `(2, 3)`) make one dimension each, no 0-dim
    # tensor; one 0-dim tensor or array as data makes a 0-dim tensor
    ("legacy-constructor-size-is-one-dim", "x = torch.ones(3, device=device)\ny = x + torch.FloatTensor(3)\n", True, "TP101"),
    ("legacy-constructor-sizes-give-the-rank", "x = torch.ones(2, 3, device=device)\ny = torch.Tensor(2, 3) * x\n",
     True, "TP101"),
    ("legacy-constructor-of-zero-dim-data", "import numpy as np\nx = torch.ones(3, device=device)\n"
     "y = x + torch.Tensor(np.array(2.0))\n", False, None),
    # matmul takes no 0-dim operand ("both arguments to matmul need to be at least 1D"): a CPU tensor of
    # unknown rank times a CUDA matrix raises whatever its rank
    ("matmul-cpu-of-unknown-rank-with-cuda", "r = torch.ones(2, 3, 3).repeat(*[1, 1, 1])\ny = r @ torch.ones(3, 3, device=device)\n",
     True, "TP101"),
    # bmm takes 3-D operands only and gives a 3-D result ("batch1 must be a 3D tensor"): never a 0-dim CPU scalar
    ("bmm-cpu-result-with-cuda", "q = torch.ones(2, 3, 4).view(2, 3, -1)\nr = torch.bmm(q, q.transpose(1, 2))\n"
     "y = r + torch.ones(2, 3, 3, device=device)\n", True, "TP101"),
    # Module.to moves what the module holds when it runs: a submodule assigned afterwards stays where it was made
    ("submodule-assigned-after-to-stays-on-the-cpu",
     "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.enc = nn.Linear(4, 4)\n"
     "    def act(self, s):\n        return self.enc(s)\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.head = Head()\nmodel = Net()\nmodel.to(device)\nmodel.head = Head()\n"
     "y = model.head.act(torch.ones(2, 4, device=device))\n", True, "TP102"),
    ("cpu-reduction-is-0dim", "x = torch.ones(3, device=device)\ns = torch.ones(3).sum()\ny = x * s\n", False, None),
    ("new-zeros-follows", "x = torch.ones(3, device=device)\ny = x + x.new_zeros(3)\n", False, None),
    ("zeros-like-follows", "x = torch.ones(3, device=device)\ny = x + torch.zeros_like(x)\n", False, None),
    ("device-from-tensor", "x = torch.ones(3, device=device)\ny = x + torch.ones(3, device=x.device)\n", False, None),
    ("set-default-device", "torch.set_default_device('cuda')\nx = torch.ones(3)\ny = x + torch.ones(3, device=device)\ntorch.set_default_device('cpu')\n", False, None),
    ("buffer-moves-with-module",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer('s', torch.ones(3))\n"
     "    def forward(self, x):\n        return x * self.s\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n", False, None),
    # a module that holds a module already on the GPU but was never moved itself: its own layers are
    # still on the CPU (Module.to moves the instance it is called on, and its submodules, only)
    ("never-moved-wrapper-of-a-gpu-module-keeps-its-own-layers",
     "class Head(nn.Module):\n    def __init__(self, encoder):\n        super().__init__()\n        self.encoder = encoder\n"
     "        self.classifier = nn.Linear(8, 3)\n    def forward(self, x):\n        return self.classifier(self.encoder(x))\n"
     "head = Head(nn.Linear(4, 8).to(device))\ny = head(torch.ones(2, 4, device=device))\n", True, "TP102"),
    ("wrapper-of-a-gpu-module-moved-as-a-whole",
     "class Head(nn.Module):\n    def __init__(self, encoder):\n        super().__init__()\n        self.encoder = encoder\n"
     "        self.classifier = nn.Linear(8, 3)\n    def forward(self, x):\n        return self.classifier(self.encoder(x))\n"
     "head = Head(nn.Linear(4, 8).to(device)).to(device)\ny = head(torch.ones(2, 4, device=device))\n", False, None),
    # `super().__init__(*modules)` of an nn.Sequential subclass registers them: `self[0]` moves with the
    # instance, and its output is where it is
    ("sequential-subclass-members-move-with-it",
     "class Stack(nn.Sequential):\n    def __init__(self):\n        super().__init__(nn.Linear(4, 4))\n"
     "    def forward(self, x):\n        return self[0](x)\n"
     "stack = Stack().to(device)\ny = stack(torch.ones(2, 4, device=device)) * torch.ones(2, 4, device=device)\n", False, None),
    ("sequential-subclass-member-output-meets-a-cpu-tensor",
     "class Stack(nn.Sequential):\n    def __init__(self):\n        super().__init__(nn.Linear(4, 4))\n"
     "    def forward(self, x):\n        return self[0](x)\n"
     "stack = Stack().to(device)\ny = stack(torch.ones(2, 4, device=device)) * torch.ones(2, 4)\n", True, "TP101"),
    # a module that is one loss on one path and another on the other (`nn.BCELoss()` or `nn.MSELoss()`
    # by a flag) is a loss either way: its input and target must be on one device
    ("one-loss-or-another-with-a-cpu-target-raises",
     "import random\ncrit = nn.BCELoss() if random.random() < 0.5 else nn.MSELoss()\n"
     "y = crit(torch.rand(3, device=device), torch.rand(3))\n", True, "TP101"),
    ("one-loss-or-another-with-its-inputs-together",
     "import random\ncrit = nn.BCELoss() if random.random() < 0.5 else nn.MSELoss()\n"
     "y = crit(torch.rand(3, device=device), torch.rand(3, device=device))\n", False, None),
    # a custom autograd function runs forward on the tensors `apply` receives (no_grad: forward alone runs)
    ("autograd-function-forward-cpu-factory-meets-its-input",
     "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
     "        return torch.cat((x, torch.zeros(x.shape[0], 1)), dim=1)\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return g[:, :-1]\n"
     "y = F.apply(torch.ones(2, 3, device=device))\n", True, "TP202"),
    ("autograd-function-forward-factory-on-its-input-device",
     "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n"
     "        return torch.cat((x, torch.zeros(x.shape[0], 1, device=x.device)), dim=1)\n"
     "    @staticmethod\n    def backward(ctx, g):\n        return g[:, :-1]\n"
     "y = F.apply(torch.ones(2, 3, device=device))\n", False, None),
    ("plain-attr-does-not-move",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.s = torch.ones(3)\n"
     "    def forward(self, x):\n        return x * self.s\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n", True, "TP203"),
    # made a Parameter only when a flag that defaults to False is set: a default construction keeps the plain
    # tensor, which Module.to() leaves on the CPU (latent diffusion's `self.logvar`, `learn_logvar=False`)
    ("plain-attr-made-a-parameter-only-under-an-unset-flag-does-not-move",
     "class M(nn.Module):\n    def __init__(self, learn=False):\n        super().__init__()\n"
     "        self.s = torch.full(fill_value=0.5, size=(3,))\n        if learn:\n            self.s = nn.Parameter(self.s)\n"
     "    def forward(self, x):\n        return x * self.s\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n",
     True, "TP203"),
    # forward's optional state made on the CPU when the caller passes none (an RNN's initial hidden state)
    ("forward-optional-state-made-on-the-cpu-by-default",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "    def forward(self, x, h=None):\n        if h is None:\n            h = torch.zeros(2, 3)\n"
     "        return self.fc(x) + h\nm = M().to(device)\ny = m(torch.ones(2, 3, device=device))\n", True, "TP202"),
    # a plain dict (or list, tuple) of tensors is never registered: Module.to() leaves them where they are,
    # even when the same tensors were registered as buffers (pytorch/pytorch#43815, #29807)
    ("plain-dict-of-tensors-does-not-move",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.d = {'s': torch.ones(3)}\n"
     "        self.register_buffer('s', self.d['s'])\n"
     "    def forward(self, x):\n        return x * self.d['s']\nm = M().to(device)\ny = m(torch.ones(3, device=device))\n",
     True, "TP203"),
    ("plain-list-of-registered-buffers-does-not-move",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.noise = []\n"
     "        for i in range(2):\n            name = 'noise_{}'.format(i)\n"
     "            self.register_buffer(name, torch.zeros(4, 1))\n            self.noise.append(getattr(self, name))\n"
     "    def forward(self, x):\n        return torch.cat([x, self.noise[0]], 1)\n"
     "m = M().to(device)\ny = m(torch.ones(4, 2, device=device))\n", True, "TP203"),
    # ... wherever it goes: passed to a submodule's forward it meets that module's CUDA tensors there
    ("plain-attr-passed-to-a-submodule-does-not-move",
     "class Inner(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "    def forward(self, x, bias):\n        return self.fc(x) + bias\n"
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.bias = torch.zeros(2, 4)\n"
     "        self.inner = Inner()\n    def forward(self, x):\n        return self.inner(x, self.bias)\n"
     "m = M().to(device)\ny = m(torch.ones(2, 4, device=device))\n", True, "TP101"),
    # an override of to() that moves some attributes and hands on to nn.Module's leaves the others
    ("to-override-moving-other-attributes-leaves-a-plain-attr",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "        self.noise = torch.zeros(3)\n        self.scale = torch.ones(3)\n"
     "    def forward(self, x):\n        return self.fc(x) * self.scale + self.noise\n"
     "    def to(self, device):\n        self.scale = self.scale.to(device)\n        return super().to(device)\n"
     "m = M().to(device)\ny = m(torch.ones(2, 3, device=device))\n", True, "TP203"),
    ("to-override-moving-the-attribute",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "        self.noise = torch.zeros(3)\n"
     "    def forward(self, x):\n        return self.fc(x) + self.noise\n"
     "    def to(self, device):\n        self.noise = self.noise.to(device)\n        return super().to(device)\n"
     "m = M().to(device)\ny = m(torch.ones(2, 3, device=device))\n", False, None),
    # Object state across calls (issue 10): a plain attribute a call fills stays where that call put it
    # when the module moves afterwards; the next call reads it there (torchvision PR #1312's anchors,
    # multidim-positional-encoding #33's cached encoding)
    ("lazy-cache-filled-by-a-first-call-is-not-moved",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def anchors(self, x):\n        if self.cache is not None:\n            return self.cache\n"
     "        self.cache = [torch.zeros(2, 4, device=x.device)]\n        return self.cache\n"
     "    def forward(self, x):\n        return self.fc(x) + self.anchors(x)[0]\n"
     "m = M()\ny = m(torch.ones(2, 4))\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\n", True, "TP101"),
    ("lazy-cache-filled-after-the-move-is-where-the-module-is",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def anchors(self, x):\n        if self.cache is not None:\n            return self.cache\n"
     "        self.cache = [torch.zeros(2, 4, device=x.device)]\n        return self.cache\n"
     "    def forward(self, x):\n        return self.fc(x) + self.anchors(x)[0]\n"
     "m = M()\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\ny = m(torch.ones(2, 4, device=device))\n", False, None),
    ("cache-refilled-when-its-device-differs",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def forward(self, x):\n"
     "        if self.cache is None or self.cache.device != x.device:\n            self.cache = torch.zeros(2, 4, device=x.device)\n"
     "        return self.fc(x) + self.cache\n"
     "m = M()\ny = m(torch.ones(2, 4))\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\n", False, None),
    ("attribute-a-method-set-before-the-move-is-not-moved",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def fill(self, x):\n        self.cache = torch.zeros(2, 4, device=x.device)\n"
     "    def forward(self, x):\n        return self.fc(x) + self.cache\n"
     "m = M()\nm.fill(torch.ones(2, 4))\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\n", True, "TP101"),
    ("attribute-the-caller-set-before-the-move-is-not-moved",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def forward(self, x):\n        return self.fc(x) + self.cache\n"
     "m = M()\nm.cache = torch.zeros(2, 4)\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\n", True, "TP101"),
    ("attribute-of-a-submodule-set-through-its-holder-is-not-moved",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.cache = None\n    def fill(self, x):\n        self.cache = torch.zeros(2, 4, device=x.device)\n"
     "    def forward(self, x):\n        return self.fc(x) + self.cache\n"
     "class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.inner = M()\n"
     "    def prepare(self, x):\n        self.inner.fill(x)\n    def forward(self, x):\n        return self.inner(x)\n"
     "o = Outer()\no.prepare(torch.ones(2, 4))\no.to(device)\ny = o(torch.ones(2, 4, device=device))\n", True, "TP101"),
    # ... but a buffer a method re-binds stays a buffer (nn.Module.__setattr__): it moves with the module
    ("buffer-a-method-rebinds-still-moves",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 4)\n"
     "        self.register_buffer('running', torch.zeros(2, 4))\n"
     "    def update(self, x):\n        self.running = torch.ones(2, 4, device=x.device)\n"
     "    def forward(self, x):\n        return self.fc(x) + self.running\n"
     "m = M()\nm.update(torch.ones(2, 4))\nm.to(device)\ny = m(torch.ones(2, 4, device=device))\n", False, None),
    # ... nor a tensor the constructor was given and kept in a plain attribute, nor one an `__init__`
    # helper made and kept there
    ("plain-attr-from-a-constructor-argument-does-not-move",
     "class M(nn.Module):\n    def __init__(self, w):\n        super().__init__()\n        self.w = w\n"
     "        self.fc = nn.Linear(3, 3)\n    def forward(self, x):\n        return torch.cat([self.fc(x), self.w])\n"
     "m = M(torch.ones(2, 3)).to(device)\ny = m(torch.ones(1, 3, device=device))\n", True, "TP203"),
    ("plain-attr-made-in-an-init-helper-does-not-move",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = nn.Parameter(torch.ones(1, 3))\n"
     "        self.make()\n    def make(self):\n        self.idx = torch.arange(3).view(1, -1)\n"
     "    def forward(self, x):\n        return x * self.w - self.idx\nm = M().to(device)\ny = m(torch.ones(1, 3, device=device))\n",
     True, "TP203"),
    # a device kept in a plain attribute is a string or torch.device: Module.to() leaves it as it was
    ("device-attr-from-a-default-does-not-move",
     "class M(nn.Module):\n    def __init__(self, device='cpu'):\n        super().__init__()\n        self.device = device\n"
     "        self.fc = nn.Linear(3, 3)\n    def forward(self, x):\n        return self.fc(x).to(self.device)\n"
     "m = M().to(device)\ny = torch.cat([m(torch.ones(1, 3, device=device)), torch.ones(1, 3, device=device)])\n", True, "TP101"),
    # a module with no parameters may be called with GPU tensors without being moved: its plain CPU
    # attributes meet them (gather has no 0-dim exemption)
    ("plain-attr-of-a-module-without-parameters-meets-gpu-inputs",
     "class M(nn.Module):\n    def __init__(self, w):\n        super().__init__()\n        self.w = w\n"
     "    def forward(self, x, labels):\n        return x * self.w.gather(0, labels)\n"
     "m = M(torch.ones(3))\ny = m(torch.ones(4, device=device), torch.zeros(4, dtype=torch.long, device=device))\n",
     True, "TP101"),
    # device=None is no device: the default device, or the source tensor's for *_like
    ("device-none-factory-is-on-the-cpu", "w = torch.ones(3, device=None)\ny = torch.ones(3, device=device) + w\n", True, "TP101"),
    ("device-none-like-follows", "x = torch.ones(3, device=device)\ny = x + torch.zeros_like(x, device=None)\n", False, None),
    # type_as(other) is to(other.options()): other's device with its index (not the current device)
    ("type-as-keeps-the-device-index", "a = torch.ones(3, device='cuda:1')\ny = a + torch.zeros(3).type_as(a)\n", False, None),
    ("cpu-plus-cuda-raises", "a = torch.ones(3, device=device)\nb = torch.ones(3)\nc = a + b\n", True, "TP101"),
    ("cat-mixed-raises", "a = torch.ones(3, device=device)\nc = torch.cat([a, torch.ones(3)])\n", True, "TP101"),
    ("matmul-mixed-raises", "a = torch.ones(3, 3, device=device)\nc = torch.matmul(a, torch.ones(3, 3))\n", True, "TP101"),
    ("compare-mixed-raises", "a = torch.ones(3, device=device)\nc = a == torch.ones(3)\n", True, "TP101"),
    ("cpu-input-to-cuda-linear", "m = nn.Linear(3, 2).to(device)\ny = m(torch.ones(1, 3))\n", True, "TP102"),
    ("cuda-input-to-cpu-linear", "m = nn.Linear(3, 2)\ny = m(torch.ones(1, 3, device=device))\n", True, "TP102"),
    ("paramless-module-any-device", "act = nn.ReLU().to(device)\ny = act(torch.ones(3))\n", False, None),
    ("tensor-to-discarded", "x = torch.ones(3)\nx.to(device)\ny = x + torch.ones(3, device=device)\n", True, "TP201"),
    ("tensor-to-assigned", "x = torch.ones(3)\nx = x.to(device)\ny = x + torch.ones(3, device=device)\n", False, None),
    # TensorIterator exempts 0-dim CPU tensors only: a 0-dim CUDA tensor meets a CPU one and raises,
    # and a 0-dim CUDA tensor combined with a 0-dim CPU one is on the GPU
    ("zero-dim-cuda-times-cpu-raises", "s = torch.ones((), device=device)\ny = torch.ones(3) * s\n", True, "TP101"),
    ("zero-dim-cuda-times-cuda", "s = torch.ones((), device=device)\ny = torch.ones(3, device=device) * s\n", False, None),
    ("zero-dim-cuda-plus-zero-dim-cpu-is-on-cuda",
     "a = torch.ones((), device=device) + torch.ones(())\ny = torch.ones(3) * a\n", True, "TP101"),
    # iterating a tensor gives its rows on its device (x.unbind(0)); the counter of enumerate is an int
    ("iterating-a-cuda-tensor-gives-cuda-rows",
     "x = torch.ones(4, 5, device=device)\nfor i, row in enumerate(x):\n    y = row * i + torch.ones(5)\n", True, "TP101"),
    ("iterating-a-cpu-vector-gives-cpu-scalars",
     "x = torch.ones(4)\nfor v in x:\n    y = torch.ones(3, device=device) * v\n", False, None),
    ("index-select-cpu-index-raises", "x = torch.ones(4, device=device)\ny = x.index_select(0, torch.arange(2))\n", True, "TP101"),
    # issue 11: the engine follows the table generated from torch
    ("normal-follows-std", "s = torch.ones(3, device=device)\ny = torch.normal(0., s) + s\n", False, None),
    ("where-zero-dim-cpu-operand", "x = torch.ones(3, device=device)\ny = torch.where(x > 0, x, torch.tensor(0.))\n", False, None),
    ("where-cpu-operand-raises", "x = torch.ones(3, device=device)\ny = torch.where(x > 0, x, torch.zeros(3))\n", True, "TP101"),
    ("stateless-loss-runs-on-its-inputs",
     "m = nn.Linear(3, 4).to(device)\ncrit = nn.CrossEntropyLoss()\n"
     "loss = crit(m(torch.ones(2, 3, device=device)), torch.zeros(2, dtype=torch.long, device=device))\ny = loss * torch.ones(1, device=device)\n",
     False, None),
    ("stateless-container-runs-on-its-input",
     "s = nn.Sequential(nn.ReLU(), nn.Dropout(0.1))\nx = torch.ones(3, device=device)\ny = s(x) + x\n", False, None),
    ("stateless-pool-runs-on-its-input", "p = nn.MaxPool2d(2)\ny = p(torch.ones(1, 1, 4, 4, device=device)) + torch.ones(1, device=device)\n", False, None),
    # a module's parameters and state_dict() values are where the module is (Module.to moved them)
    ("parameters-are-where-the-module-is",
     "m = nn.Linear(3, 3).to(device)\nfor p in m.parameters():\n    y = p + torch.ones(3, 3)\n", True, "TP101"),
    ("state-dict-values-are-where-the-module-is",
     "m = nn.Linear(3, 3).to(device)\nfor v in m.state_dict().values():\n    y = v + torch.ones(3, 3)\n", True, "TP101"),
    ("named-parameters-are-where-the-module-is",
     "m = nn.Linear(3, 3).to(device)\nfor n, p in m.named_parameters():\n    y = p * torch.ones(3)\n", True, "TP101"),
    ("parameters-of-a-moved-module-meet-its-device",
     "m = nn.Linear(3, 3).to(device)\nfor p in m.parameters():\n    y = p + torch.ones(3, device=device)\n", False, None),
    # the CPU-scalar exemption is for the CPU only: a tensor of unknown rank on cuda:0 (a parameter,
    # which may be 0-dim, moved with .cuda()) meets a cuda:1 tensor and raises, 0-dim or not
    ("maybe-0dim-cuda0-with-cuda1-raises",
     "m = nn.Linear(3, 3).to('cuda:1')\nfor p in m.parameters():\n    y = p - p.detach().cuda()\n", True, "TP101"),
    # nor for the tensor an in-place op writes into: a CPU receiver of unknown rank += a CUDA tensor raises
    ("inplace-into-a-maybe-0dim-cpu-tensor-raises",
     "m = nn.Linear(3, 3).to(device)\nc = nn.Linear(3, 3)\nfor a, b in zip(c.parameters(), m.parameters()):\n    a.data += b\n",
     True, "TP101"),
    # ... and a 0-dim CPU tensor is no exempt CPU scalar where it is the output (TensorIterator's
    # `!op.is_output`): `acc = torch.tensor(0.); acc += loss` with a CUDA loss raises, as do the
    # in-place methods; a 0-dim CPU operand added into a CUDA tensor is still fine
    ("inplace-add-into-a-0dim-cpu-tensor-raises",
     "acc = torch.tensor(0.0)\nacc += torch.ones(3, device=device).sum()\n", True, "TP101"),
    ("inplace-sub-of-a-cuda-scalar-in-a-loop-raises",
     "acc = torch.tensor(0.0)\nfor i in range(2):\n    acc -= torch.ones((), device=device)\n", True, "TP101"),
    ("inplace-method-into-a-0dim-cpu-tensor-raises",
     "acc = torch.tensor(1.0)\nacc.mul_(torch.ones(3, device=device).mean())\n", True, "TP101"),
    ("inplace-add-method-into-a-0dim-cpu-tensor-raises",
     "acc = torch.tensor(0.0)\nacc.add_(torch.ones(3, device=device).sum(), alpha=2)\n", True, "TP101"),
    ("inplace-add-of-a-0dim-cpu-tensor-into-cuda", "a = torch.ones(3, device=device)\na += torch.tensor(2.0)\n", False, None),
    ("inplace-add-of-a-0dim-cpu-tensor-into-a-cuda-scalar",
     "a = torch.ones(3, device=device).sum()\na.add_(torch.tensor(2.0))\n", False, None),
    ("inplace-add-of-a-number-into-a-0dim-cpu-tensor", "acc = torch.tensor(0.0)\nacc += 2\nacc.mul_(3)\n", False, None),
    ("zero-dim-cuda0-with-cuda1-raises", "s = torch.ones((), device='cuda:0')\ny = torch.ones(3, device='cuda:1') + s\n", True, "TP101"),
    # `.cuda()` is the current device, cuda:0 where the program never picks one: inside the forward of a
    # module put on cuda:3 it meets the module's input there and raises; on cuda:0 (or "cuda") it does not
    ("current-device-in-forward-of-a-module-on-cuda3-raises",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "    def forward(self, x):\n        return self.fc(x) - torch.ones(3).cuda()\n"
     "m = M().to('cuda:3')\ny = m(torch.ones(2, 3, device='cuda:3'))\n", True, "TP101"),
    # a module on cuda:1 called with an input moved by a bare `.cuda()` (the current device, cuda:0):
    # the call raises; on cuda:0 it runs
    ("module-on-cuda1-called-with-current-device-input-raises",
     "m = nn.Linear(3, 2).to('cuda:1')\ny = m(torch.ones(2, 3).cuda())\n", True, "TP102"),
    ("layer-of-a-module-on-cuda1-called-with-current-device-input-raises",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "    def forward(self, x):\n        return self.fc(x)\n    def run(self):\n        return self.forward(torch.ones(2, 3).cuda())\n"
     "m = M().to('cuda:1')\ny = m.run()\n", True, "TP102"),
    ("module-on-cuda0-called-with-current-device-input",
     "m = nn.Linear(3, 2).to('cuda:0')\ny = m(torch.ones(2, 3).cuda())\n", False, None),
    ("current-device-in-forward-of-a-module-on-cuda0",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 3)\n"
     "    def forward(self, x):\n        return self.fc(x) - torch.ones(3).cuda()\n"
     "m = M().to('cuda:0')\ny = m(torch.ones(2, 3, device='cuda:0'))\n", False, None),
    # a module left on the CPU and called with no tensor (`hnet(cond_id=0)`): what its forward makes
    # from its own parameters is on the CPU
    ("output-of-a-cpu-module-called-without-tensors",
     "class H(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(3, 6)\n"
     "        self.e = nn.Parameter(torch.ones(2, 3))\n    def forward(self, i):\n        return [self.fc(self.e[i])]\n"
     "w = H()(0)\ny = torch.nn.functional.linear(torch.ones(2, 6, device=device), w[0].view(1, 6))\n", True, "TP101"),
    # a never-moved model indexed by accelerator token ids: its embedding (a transformers model's first
    # layer, `from_pretrained` loads it on the CPU) raises (fitbert: 'in call to _th_index_select')
    ("cpu-embedding-with-accelerator-ids-raises",
     "m = nn.Embedding(10, 4)\ny = m(torch.ones(1, 2, dtype=torch.long, device=device))\n", True, "TP102"),
    ("loss-with-cpu-weight-raises",
     "crit = nn.CrossEntropyLoss(weight=torch.ones(3))\ny = crit(torch.ones(2, 3, device=device), torch.zeros(2, dtype=torch.long, device=device))\n",
     True, "TP102"),
    # Module.to() on a submodule reached through its owner moves that submodule alone; the owner's
    # own .to() later moves every submodule again
    ("submodule-moved-through-its-owner-alone",
     "class Owner(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.model = nn.Linear(3, 2)\n"
     "    def run(self, x):\n        return self.model(x)\nm = Owner()\nm.model.to(device)\ny = m.run(torch.ones(1, 3))\n",
     True, "TP102"),
    ("owner-moved-after-its-submodule",
     "class Owner(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.model = nn.Linear(3, 2)\n"
     "    def run(self, x):\n        return self.model(x)\nm = Owner()\nm.model.to(device)\nm.to('cpu')\n"
     "y = m.run(torch.ones(1, 3))\n", False, None),
    # an attribute `__init__` sets on one path only: where it is read, it is what that path bound
    ("attribute-set-on-one-path-of-init",
     "class Agent:\n    def __init__(self, recurrent):\n        self.net = nn.Linear(3, 3).to(device)\n"
     "        if recurrent:\n            self.memory = torch.zeros(1, 3)\n    def act(self):\n        return self.net(self.memory)\n"
     "y = Agent(True).act()\n", True, "TP102"),
    # `self.to(device)` in `__init__` moves what was registered before it (Module.to works in place)
    ("module-moved-by-its-own-init",
     "class M(nn.Module):\n    def __init__(self, device):\n        super().__init__()\n        self.fc = nn.Linear(3, 2)\n"
     "        self.to(device)\nm = M(device)\ny = m(torch.ones(1, 3))\n", True, "TP102"),
    # a lambda's body runs for each call (a CPU bound of clamp meets the CUDA input and raises)
    ("lambda-body-runs-for-its-call",
     "f = lambda t: torch.clamp(t, min=torch.zeros(4, 2))\ny = f(torch.ones(4, 2, device=device))\n", True, "TP101"),
    ("map-of-a-lambda-runs-it-on-each-item",
     "a, b = map(lambda t: t * 2, (torch.ones(3, device=device), torch.ones(3)))\ny = a + torch.ones(3)\n", True, "TP101"),
    # `x.type_as(x)` is x: still the CPU tensor it was
    ("type-as-itself-stays-on-the-cpu",
     "x = torch.zeros(2, 1)\nx = x.type_as(x)\ny = torch.ones(2, 1, device=device) * x\n", True, "TP101"),
    # nn.Module has no `device`: `m.device` is the attribute its `__init__` stored, wherever the module is
    ("module-device-attribute-is-the-stored-one",
     "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.device = 'cuda'\n"
     "m = M()\ny = torch.ones(3, device=m.device) + torch.ones(3)\n", True, "TP101"),
    # einsum's equation fills its `*args` too: it is no operand, so the result is where the operands are
    ("einsum-result-on-its-operands",
     "q = torch.ones(2, 3, device=device)\ns = torch.einsum('ij,kj->ik', q, q)\ny = s + torch.ones(2, 2)\n", True, "TP101"),
    ("einsum-list-form-result-on-its-operands",
     "q = torch.ones(2, 3, device=device)\ns = torch.einsum('ij,kj->ik', [q, q])\ny = s + torch.ones(2, 2)\n", True, "TP101"),
    # an accelerator scalar times an operand the analysis does not know (a weight read from a dict, a
    # parameter): a number, a 0-dim CPU tensor or a tensor on that accelerator give a result there,
    # a CPU tensor that is not 0-dim raises, so the result is on the accelerator wherever there is one
    ("cuda-scalar-times-unknown-weight-is-on-cuda",
     "import json\nw = json.loads('2.0')\nloss = w * torch.ones(3, device=device).sum()\ny = loss + torch.ones(3)\n", True, "TP101"),
    ("cuda-scalar-times-unknown-weight-meets-cuda",
     "import json\nw = json.loads('2.0')\nloss = w * torch.ones(3, device=device).sum()\ny = loss + torch.ones(3, device=device)\n",
     False, None),
    ("einsum-cuda-result-meets-cuda", "q = torch.ones(2, 3, device=device)\ny = torch.einsum('ij,kj->ik', q, q) + torch.ones(2, 2, device=device)\n", False, None),
    # torch.cat refuses 0-dim tensors and torch.stack adds a dimension: their CPU result is never a
    # 0-dim tensor PyTorch lets meet a CUDA one
    ("cat-of-unknown-rank-is-not-0dim", "r = torch.ones(2, 3).repeat(*[1, 1])\ny = torch.cat([r, r]) + torch.ones(4, 3, device=device)\n",
     True, "TP101"),
    ("stack-of-unknown-rank-is-not-0dim", "r = torch.ones(3).repeat(*[1])\ny = torch.stack([r, r]) * torch.ones(2, 3, device=device)\n",
     True, "TP101"),
    # a list item replaced at an index not known (`cores[d] = ...`) is one of the items or the new value:
    # all on the GPU here, so the CPU pad meets a CUDA tensor
    ("list-item-replaced-at-an-unknown-index-stays-cuda",
     "import random\ncores = [torch.ones(2, 3, device=device) for _ in range(3)]\nd = random.randrange(3)\n"
     "cores[d] = cores[d] / 2\ny = torch.cat((cores[d], torch.zeros(2, 1)), dim=1)\n", True, "TP101"),
    # `d[k].to(device)` right after `d[k] = torch.tensor(...)` moves a copy: d[k] stays on the CPU
    ("dict-item-stored-under-a-name-then-moved-and-discarded",
     "inputs = {'ids': [3, 4], 'mask': [1, 1]}\nfor key in ['ids', 'mask']:\n    inputs[key] = torch.tensor(inputs[key])\n"
     "    inputs[key].to(device)\ny = inputs['ids'] + torch.ones(2, device=device)\n", True, "TP201"),
    ("dict-item-stored-under-a-name-then-moved-and-rebound",
     "inputs = {'ids': [3, 4], 'mask': [1, 1]}\nfor key in ['ids', 'mask']:\n    inputs[key] = torch.tensor(inputs[key])\n"
     "    inputs[key] = inputs[key].to(device)\ny = inputs['ids'] + torch.ones(2, device=device)\n", False, None),
    # a parameter made of a constructor argument (`nn.Parameter(w.detach().clone())`) is where the argument is
    # (review s14, cause O): an instance given a device tensor runs on the device, one given a CPU tensor does not
    ("parameter-cloned-from-a-device-argument",
     "class Head(nn.Module):\n    def __init__(self, weight):\n        super().__init__()\n"
     "        self.weight = nn.Parameter(weight.detach().clone())\n    def forward(self, x):\n"
     "        return torch.nn.functional.linear(x, self.weight)\n"
     "body = nn.Linear(8, 4).to(device)\nhead = Head(body.weight)\ny = head(torch.ones(2, 8).to(device))\n", False, None),
    ("parameter-cloned-from-a-cpu-argument",
     "class Head(nn.Module):\n    def __init__(self, weight):\n        super().__init__()\n"
     "        self.weight = nn.Parameter(weight.detach().clone())\n    def forward(self, x):\n"
     "        return torch.nn.functional.linear(x, self.weight)\n"
     "body = nn.Linear(8, 4)\nhead = Head(body.weight)\ny = head(torch.ones(2, 8).to(device))\n", True, "TP102"),
    # W1 (review15b): a CPU module whose `forward` only copies its input into a slice of its buffer
    # (`copy_`, across devices) and hands it back; an advanced index (`index_put_`) does not copy across
    ("buffer-slice-written-from-a-device-input",
     "class Bank(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('bank', torch.zeros(8, 4))\n    def forward(self, x, p):\n"
     "        self.bank[p:p + x.shape[0]] = x.detach()\n        return x\n"
     "bank = Bank()\ny = bank(torch.ones(2, 4, device=device), 3)\n", False, None),
    ("buffer-rows-indexed-by-a-tensor-from-a-device-input",
     "class Bank(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('bank', torch.zeros(8, 4))\n    def forward(self, x, p):\n"
     "        self.bank[torch.arange(p, p + 2)] = x.detach()\n        return x\n"
     "bank = Bank()\ny = bank(torch.ones(2, 4, device=device), 3)\n", True, "TP102"),
    # W4 (review15b): one item of a 1-D CPU tensor (`schedule[epoch]`) is 0-dim and divides a CUDA tensor;
    # a one-item slice of it is 1-D and does not
    ("plain-1d-schedule-read-one-item",
     "class Loss(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('center', torch.zeros(1, 4))\n"
     "        self.schedule = torch.linspace(0.04, 0.07, 30)\n    def forward(self, x, epoch: int):\n"
     "        return (x - self.center) / self.schedule[epoch]\n"
     "loss = Loss().to(device)\ny = loss(torch.ones(2, 4, device=device), 3)\n", False, None),
    ("plain-1d-schedule-read-as-a-slice",
     "class Loss(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('center', torch.zeros(1, 4))\n"
     "        self.schedule = torch.linspace(0.04, 0.07, 30)\n    def forward(self, x, epoch: int):\n"
     "        return (x - self.center) / self.schedule[epoch:epoch + 1]\n"
     "loss = Loss().to(device)\ny = loss(torch.ones(2, 4, device=device), 3)\n", True, "TP203"),
    # `nn.ModuleList(self.blocks_list)` registers the very modules the plain list holds: `.to()` moves them
    # in place, so calling them through the plain list runs on the device (review s15, cause V1)
    ("plain-module-list-also-wrapped-in-a-module-list",
     "class Stack(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.blocks_list = [nn.Linear(4, 4) for _ in range(2)]\n        self.blocks = nn.ModuleList(self.blocks_list)\n"
     "    def forward(self, x):\n        for b in self.blocks_list:\n            x = b(x)\n        return x\n"
     "net = Stack().to(device)\ny = net(torch.ones(2, 4, device=device))\n", False, None),
    # `.type(dtype)` converts where the tensor is: a plain attribute converted and moved to the input's device at
    # the start of `forward` runs there; converted only, it stays on the CPU (review s15, cause V3)
    ("plain-attribute-converted-and-moved-in-forward",
     "class Ranker(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n        self.mask = torch.ones(n, n)\n"
     "    def forward(self, b):\n        self.mask = self.mask.type(b.dtype).to(b.device)\n        return (b @ b.T) * self.mask\n"
     "r = Ranker(4).to(device)\ny = r(torch.ones(4, 3, device=device))\n", False, None),
    ("plain-attribute-converted-only-in-forward",
     "class Ranker(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n        self.mask = torch.ones(n, n)\n"
     "    def forward(self, b):\n        mask = self.mask.type(b.dtype)\n        return (b @ b.T) * mask\n"
     # (TP203 only a hint: the flow does not model `.type()`, so only the text of forward puts it there)
     "r = Ranker(4).to(device)\ny = r(torch.ones(4, 3, device=device))\n", True, None),
    ("plain-module-list-registered-nowhere",
     "class Stack(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.blocks_list = [nn.Linear(4, 4) for _ in range(2)]\n"
     "    def forward(self, x):\n        for b in self.blocks_list:\n            x = b(x)\n        return x\n"
     "net = Stack().to(device)\ny = net(torch.ones(2, 4, device=device))\n", True, "TP203"),
    # torch.meshgrid gives one grid per input, each with one dimension per input (recall16b, s16): CPU
    # grids are never 0-dim, so they fail next to CUDA tensors, even a 0-dim one (TTS's `grid_y / ilen`)
    ("meshgrid-cpu-grid-plus-cuda-features",
     "feat = torch.ones(2, 3, 4, 5, device=device)\nys, xs = torch.meshgrid(torch.arange(4), torch.arange(5), indexing='ij')\n"
     "y = feat + xs\n", True, "TP101"),
    ("meshgrid-list-form-cpu-grid-plus-cuda",
     "feat = torch.ones(4, 5, device=device)\nys, xs = torch.meshgrid([torch.arange(4), torch.arange(5)], indexing='ij')\n"
     "y = ys * feat\n", True, "TP101"),
    ("meshgrid-cpu-grid-by-cuda-0-dim",
     "ilen = torch.tensor(5, device=device)\ngx, gy = torch.meshgrid(torch.arange(3), torch.arange(5), indexing='ij')\n"
     "y = gy.float() / ilen\n", True, "TP101"),
    ("meshgrid-of-one-input-is-1-d",
     "feat = torch.ones(5, device=device)\n(g,) = torch.meshgrid(torch.arange(5), indexing='ij')\ny = g + feat\n", True, "TP101"),
    ("meshgrid-of-a-list-held-by-a-name",
     "coords = [torch.arange(4), torch.arange(5)]\ngrids = torch.meshgrid(coords, indexing='ij')\n"
     "y = grids[0] + torch.ones(4, 5, device=device)\n", True, "TP101"),
    ("meshgrid-on-the-features-device",
     "feat = torch.ones(4, 5, device=device)\n"
     "ys, xs = torch.meshgrid(torch.arange(4, device=device), torch.arange(5, device=device), indexing='ij')\n"
     "y = feat + xs\n", False, None),
    # Y2 (review16b): a buffer-only module whose forward hands the buffer to a function that moves it to the
    # input (`kernel.to(device=x.device)`) runs on a CUDA input; the same function without the move raises
    ("buffer-moved-by-the-function-forward-hands-it-to",
     "def filt(x, k):\n    return x * k.to(device=x.device, dtype=x.dtype)\n"
     "class Blur(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('kernel', torch.ones(4))\n    def forward(self, x):\n        return filt(x, self.kernel)\n"
     "y = Blur()(torch.ones(2, 4, device=device))\n", False, None),
    ("buffer-handed-to-a-function-that-does-not-move-it",
     "def filt(x, k):\n    return x * k\n"
     "class Blur(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.register_buffer('kernel', torch.ones(4))\n    def forward(self, x):\n        return filt(x, self.kernel)\n"
     "y = Blur()(torch.ones(2, 4, device=device))\n", True, "TP102"),
    # Y3 (review16b): `register_buffer` keeps the tensor it is given where it is: a module built from a CUDA
    # tensor (through a local name and a base class's `__init__`) holds CUDA state without any `.to()`
    ("buffer-registered-from-a-device-tensor-argument",
     "class Base(nn.Module):\n    def __init__(self, ref):\n        super().__init__()\n        s = ref.flatten(1)\n"
     "        self.register_buffer('signal', s)\n    def forward(self, x):\n        return self.signal - x\n"
     "class FromRef(Base):\n    def __init__(self, ref):\n        super().__init__(ref * 2)\n"
     "t = torch.ones(2, 3, device=device)\ny = FromRef(t)(torch.ones(2, 3, device=device))\n", False, None),
    ("buffer-registered-from-a-cpu-tensor-argument",
     "class Base(nn.Module):\n    def __init__(self, ref):\n        super().__init__()\n        s = ref.flatten(1)\n"
     "        self.register_buffer('signal', s)\n    def forward(self, x):\n        return self.signal - x\n"
     "class FromRef(Base):\n    def __init__(self, ref):\n        super().__init__(ref * 2)\n"
     "t = torch.ones(2, 3)\ny = FromRef(t)(torch.ones(2, 3, device=device))\n", True, "TP102"),
    # torch.distributions: numbers as parameters are made tensors on the default device (broadcast_all:
    # torch.tensor(v)), and sample/rsample draw where the parameters are; a sample shape of n sizes gives
    # a rank-n tensor, no shape a 0-dim one (which arithmetic with CUDA tensors accepts)
    ("distribution-of-numbers-samples-on-the-cpu", "x = torch.ones(4, 2, device=device)\n"
     "s = torch.distributions.Uniform(low=3.0, high=30.0).sample((4,))\ny = x / s.unsqueeze(-1)\n", True, "TP101"),
    ("distribution-of-numbers-rsample-kept-in-an-attribute",
     "class Aug(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
     "        self.noise = torch.distributions.Normal(0.0, 1.0)\n    def forward(self, x):\n"
     "        return x + self.noise.rsample(sample_shape=(x.shape[0], 1))\n"
     "y = Aug().to(device)(torch.ones(4, 2, device=device))\n", True, "TP101"),
    ("distribution-sample-without-shape-is-zero-dim", "x = torch.ones(4, 2, device=device)\n"
     "y = x * torch.distributions.Uniform(0.0, 1.0).sample()\n", False, None),
    ("distribution-of-device-tensors-samples-there", "x = torch.ones(4, 2, device=device)\n"
     "d = torch.distributions.Normal(torch.zeros(2, device=device), torch.ones(2, device=device), validate_args=False)\ny = x + d.sample((4,))\n",
     False, None),
    ("distribution-of-numbers-sample-moved", "x = torch.ones(4, 2, device=device)\n"
     "y = x + torch.distributions.Normal(0.0, 1.0).sample((4, 2)).to(device)\n", False, None),
]
# Advanced indexing with CPU indices is allowed on CUDA, but FakeTensorMode in a
# CPU build cannot run it; the engine side is still checked.
ENGINE_ONLY = [
    # CPU index tensors among other indices (`pi[:, self.lidx, abs(self.midx)]`, `pi[:, 0, self.midx + self.lmax]`,
    # lmax an int) index a CUDA tensor (review s15, cause V2; the PyTorch side:
    # test_cpu_indices_among_others_may_index_an_accelerator_tensor): a plain attribute used only so never meets it
    ("plain-attribute-only-an-index-among-others",
     "class SH(nn.Module):\n    def __init__(self, lmax: int):\n        super().__init__()\n        self.lmax = lmax\n"
     "        self.register_buffer('c', torch.ones(lmax + 1, 2 * lmax + 1))\n"
     "        self.midx = torch.arange(-lmax, lmax + 1)\n        self.lidx = torch.arange(0, lmax + 1)\n"
     "    def forward(self, d):\n        pi = d[:, None, None] * self.c\n"
     "        return pi[:, self.lidx, abs(self.midx)] * pi[:, 0, self.midx + self.lmax]\n"
     "sh = SH(2).to(device)\ny = sh(torch.ones(4, device=device))\n", None),
    ("plain-attribute-an-index-and-an-operand",
     "class SH(nn.Module):\n    def __init__(self, lmax: int):\n        super().__init__()\n"
     "        self.register_buffer('c', torch.ones(lmax + 1, 2 * lmax + 1))\n"
     "        self.midx = torch.arange(0, 2 * lmax + 1)\n"
     "    def forward(self, d):\n        pi = d[:, None, None] * self.c\n        return pi[:, 0, self.midx] * self.midx\n"
     "sh = SH(2).to(device)\ny = sh(torch.ones(4, device=device))\n", "TP203"),
    # `torch.multinomial(w, n)` samples CPU indices from a CPU weight vector; they index a CUDA tensor (an engine-only row: see above)
    # (review s14, cause R): a plain attribute used only that way never meets the module's tensors
    ("plain-attribute-only-sampled-from",
     "class NegLoss(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
     "        self.weights = nn.Parameter(torch.ones(n, 8))\n        self.sample_weights = torch.ones(n) / n\n"
     "    def forward(self, emb):\n"
     "        negs = torch.multinomial(self.sample_weights, emb.size(0), replacement=True).view(-1)\n"
     "        return (self.weights[negs] * emb).sum()\n"
     "loss = NegLoss(10).to(device)\ny = loss(torch.ones(4, 8, device=device))\n", None),
    ("plain-attribute-sampled-from-then-combined",
     "class NegLoss(nn.Module):\n    def __init__(self, n):\n        super().__init__()\n"
     "        self.weights = nn.Parameter(torch.ones(n, 8))\n        self.sample_weights = torch.ones(n) / n\n"
     "    def forward(self, emb):\n"
     "        negs = torch.multinomial(self.sample_weights, emb.size(0), replacement=True).view(-1)\n"
     "        return (self.weights[negs] * emb).sum(1) * self.sample_weights[:4]\n"
     "loss = NegLoss(10).to(device)\ny = loss(torch.ones(4, 8, device=device))\n", "TP203"),  # (a slice of the
    # attribute is the attribute: reported once, where it is set)
    # the default collate stacks rows of the loader's tensor where it is (review s14, cause P; the PyTorch side:
    # test_default_collate_stacks_rows_where_the_tensor_is): a loader over an object moved to the device may
    # yield device batches, one over a CPU tensor yields CPU batches
    ("loader-over-a-moved-object-is-not-a-cpu-loader",
     "def train(table, data):\n    ids = data.idx.to(device)\n"
     "    for batch in torch.utils.data.DataLoader(ids, batch_size=4):\n        rows = table.index_select(0, batch)\n"
     "train(torch.ones(8, 3, device=device), object())\n", None),
    ("loader-over-a-cpu-tensor-yields-cpu-batches",
     "table = torch.ones(8, 3, device=device)\nids = torch.arange(8)\n"
     "for batch in torch.utils.data.DataLoader(ids, batch_size=4):\n"
     "    rows = table.index_select(0, batch)\n", "TP103"),
    # a copy of a moved module moved back leaves the original where it was moved (FakeTensor cannot swap a
    # fake CUDA parameter back to the CPU: the same as `moving-a-copy-leaves-the-original` the other way)
    ("moving-a-copy-leaves-the-moved-original", "import copy\nm = nn.Linear(3, 2).to(device)\nc = copy.deepcopy(m)\n"
     "c.cpu()\ny = m(torch.ones(1, 3))\n", "TP102"),
    ("moving-a-copy-leaves-the-moved-original-quiet", "import copy\nm = nn.Linear(3, 2).to(device)\nc = copy.deepcopy(m)\n"
     "c.cpu()\ny = m(torch.ones(1, 3, device=device))\nz = c(torch.ones(1, 3))\n", None),
    # where the program picks the current device (`torch.cuda.set_device`), `.cuda()` is not known to be cuda:0
    ("module-on-cuda1-where-the-program-picks-the-current-device",
     "torch.cuda.set_device(1)\nm = nn.Linear(3, 2).to('cuda:1')\ny = m(torch.ones(2, 3).cuda())\n", None),
    # every tensor of a tuple index counts: a CUDA mask in `x[:, mask]` of a CPU tensor raises as `x[mask]` does
    ("cuda-mask-in-a-tuple-index-into-cpu", "x = torch.ones(2, 4)\ny = x[:, torch.ones(4, device=device) > 0]\n", "TP101"),
    ("cpu-mask-in-a-tuple-index-into-cuda", "x = torch.ones(2, 4, device=device)\ny = x[:, torch.ones(4) > 0]\n", None),
    ("cpu-index-into-cuda", "x = torch.ones(4, device=device)\ny = x[torch.arange(2)]\n", None),
    # FakeTensor cannot read a fake tensor as a number, nor run data-dependent indexing; it lets a
    # 0-dim CPU index through where the CUDA wrapper raises (see the tests below).
    ("arange-of-cuda-0dim-is-cpu", "n = torch.tensor(5, device=device)\ny = torch.arange(n) + torch.ones(5, device=device)\n", "TP101"),
    ("full-of-cuda-0dim-is-cpu", "v = torch.ones(3, device=device).sum()\ny = torch.full((3,), v) * torch.ones(3, device=device)\n", "TP101"),
    ("index-select-0dim-cpu-index", "x = torch.ones(4, device=device)\ny = x.index_select(0, torch.tensor(1))\n", "TP101"),
    ("pack-padded-sequence-cuda-lengths",
     "from torch.nn.utils.rnn import pack_padded_sequence\nx = torch.ones(2, 3, 4, device=device)\n"
     "p = pack_padded_sequence(x, torch.tensor([3, 2], device=device), batch_first=True)\n", "TP101"),
    ("pack-padded-sequence-cpu-lengths",
     "from torch.nn.utils.rnn import pack_padded_sequence\nx = torch.ones(2, 3, 4, device=device)\n"
     "p = pack_padded_sequence(x, torch.tensor([3, 2]), batch_first=True)\n", None),
    ("setitem-checks-values", "x = torch.ones(4, device=device)\nx[x > 0] = torch.zeros(4)\n", "TP101"),
    ("setitem-0dim-value", "x = torch.ones(4, device=device)\nx[x > 0] = torch.tensor(0.)\n", None),
    # a write moves its indices to x's device (index_put_'s make_info); only a read checks them
    ("setitem-cuda-indices-into-a-cpu-tensor", "x = torch.zeros(4)\nx[torch.tensor([0, 1], device=device)] = 1.\n", None),
    ("getitem-cuda-indices-from-a-cpu-tensor", "x = torch.zeros(4)\ny = x[torch.tensor([0, 1], device=device)]\n", "TP101"),
    # an item written into a tensor is copied there: x[0] stays where x is (see the meta test below)
    ("setitem-item-stays-on-the-tensor",
     "x = torch.zeros(3, 4, device=device)\nx[0] = torch.ones(4)\ny = x[0] * torch.ones(4, device=device)\n", None),
    ("setitem-item-of-a-cpu-tensor-stays-on-the-cpu",
     "x = torch.zeros(3, 4)\nx[0] = torch.ones(4, device=device)\ny = x[0] * torch.ones(4, device=device)\n", "TP101"),
    ("module-built-with-device",
     "class Net(nn.Module):\n    def __init__(self, device=None):\n        super().__init__()\n"
     "        self.fc = nn.Linear(3, 2, device=device)\n    def forward(self, x):\n        return self.fc(x)\n"
     "net = Net(device=device)\ny = net(torch.ones(4, 3, device=device))\n", None),
]


@pytest.mark.parametrize("name,code,raises,expected", CASES, ids=[c[0] for c in CASES])
def test_semantics(name, code, raises, expected):
    source = HEADER + code
    error = run_on_fake_gpu(source)
    assert (error is not None) == raises, f"PyTorch disagrees with the table for {name}: {error!r}"
    loud = _loud_codes(source, expected)
    assert expected in loud if expected is not None else loud == [], loud


def _loud_codes(source: str, expected):
    """The codes of the findings at warning severity and above (with their messages where they are not the expected)."""
    loud = [f for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]
    return [f.code if f.code == expected else f"{f.code} {f.severity.label}: {f.message}" for f in loud]


# A machine with MPS and no CUDA (Apple silicon: the macOS builds of torch have no CUDA, so
# `torch.cuda.is_available()` is False there; `torch.backends.mps.is_available()` is True).  A device
# chosen by a test for CUDA alone is the CPU there while one chosen by a chain that falls through to
# MPS is mps: each case runs clean on a CUDA machine and raises (or not) on the Mac, and the engine
# reports it (a warning: only on such a machine) or stays quiet.
MAC_HEADER = "import torch\nimport torch.nn as nn\n"
CUDA_OR_CPU = "DEVICE = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
CUDA_MPS_CPU = ("if torch.cuda.is_available():\n    device = torch.device('cuda')\nelif torch.backends.mps.is_available():\n"
                "    device = torch.device('mps')\nelse:\n    device = torch.device('cpu')\n")
MPS_FIRST = ("if torch.backends.mps.is_available():\n    device = torch.device('mps')\nelif torch.cuda.is_available():\n"
             "    device = 'cuda'\nelse:\n    device = 'cpu'\n")
MAC_CASES = [
    ("cuda-or-cpu-meets-cuda-mps-cpu", CUDA_OR_CPU + CUDA_MPS_CPU + "y = torch.ones(2, 3, device=DEVICE) + torch.ones(2, 3, device=device)\n",
     True, "TP101"),
    ("cuda-or-cpu-string-meets-mps-first", "DEVICE = 'cuda' if torch.cuda.is_available() else 'cpu'\n" + MPS_FIRST
     + "y = torch.cat([torch.ones(2, 3).to(DEVICE), torch.ones(2, 3).to(device)])\n", True, "TP101"),
    ("moved-only-if-cuda-meets-cuda-mps-cpu", CUDA_MPS_CPU + "x = torch.ones(2, 3)\nif torch.cuda.is_available():\n"
     "    x = x.to('cuda')\ny = x * torch.ones(2, 3, device=device)\n", True, "TP101"),
    ("module-on-cuda-mps-cpu-input-on-cuda-or-cpu", CUDA_OR_CPU + CUDA_MPS_CPU
     + "m = nn.Linear(3, 2).to(device)\ny = m(torch.ones(4, 3).to(DEVICE))\n", True, "TP102"),
    ("module-on-cuda-or-cpu-input-on-mps-first", CUDA_OR_CPU + MPS_FIRST
     + "m = nn.Linear(3, 2).to(DEVICE)\ny = m(torch.ones(4, 3, device=device))\n", True, "TP102"),
    # the same choices made by functions that return a device
    ("function-returning-cuda-or-cpu-meets-one-falling-through-to-mps",
     "def get_device():\n    if torch.cuda.is_available():\n        return torch.device('cuda')\n"
     "    if torch.backends.mps.is_available():\n        return torch.device('mps')\n    return torch.device('cpu')\n"
     "def old_device():\n    if torch.cuda.is_available():\n        return 'cuda'\n    return 'cpu'\n"
     "m = nn.Linear(3, 2).to(get_device())\ny = m(torch.ones(4, 3, device=old_device()))\n", True, "TP102"),
    ("functions-both-falling-through-to-mps",
     "def get_device():\n    if torch.cuda.is_available():\n        return torch.device('cuda')\n"
     "    if torch.backends.mps.is_available():\n        return torch.device('mps')\n    return torch.device('cpu')\n"
     "def other_device():\n    if torch.cuda.is_available():\n        return 'cuda'\n    elif torch.backends.mps.is_available():\n"
     "        return 'mps'\n    else:\n        return 'cpu'\n"
     "m = nn.Linear(3, 2).to(get_device())\ny = m(torch.ones(4, 3, device=other_device()))\n", False, None),
    # the answer kept in a name (`use_cuda = torch.cuda.is_available()`) is the same test
    ("cuda-test-kept-in-a-name", "use_cuda = torch.cuda.is_available()\nDEVICE = torch.device('cuda' if use_cuda else 'cpu')\n"
     "if use_cuda:\n    device = 'cuda'\nelif torch.backends.mps.is_available():\n    device = 'mps'\nelse:\n    device = 'cpu'\n"
     "m = nn.Linear(3, 2).to(device)\ny = m(torch.ones(4, 3, device=DEVICE))\n", True, "TP102"),
    ("both-fall-through-to-mps", CUDA_MPS_CPU + "d2 = 'cuda' if torch.cuda.is_available() else ('mps' if torch.backends.mps.is_available() else 'cpu')\n"
     "y = torch.ones(2, 3, device=d2) + torch.ones(2, 3, device=device)\n", False, None),
    ("both-cuda-or-cpu", CUDA_OR_CPU + "d2 = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
     "m = nn.Linear(3, 2).to(DEVICE)\ny = m(torch.ones(4, 3, device=d2))\n", False, None),
    ("zero-dim-cuda-or-cpu-meets-mps", CUDA_OR_CPU + CUDA_MPS_CPU
     + "s = torch.ones(3, device=DEVICE).sum()\ny = s * torch.ones(2, 3, device=device)\n", False, None),
]


@pytest.mark.parametrize("name,code,raises,expected", MAC_CASES, ids=[c[0] for c in MAC_CASES])
def test_semantics_on_a_mac(name, code, raises, expected):
    source = MAC_HEADER + code
    assert run_on_fake_gpu(source) is None, f"{name} must run on a CUDA machine"
    error = run_on_fake_mac(source)
    assert (error is not None) == raises, f"PyTorch disagrees with the table for {name} on a Mac: {error!r}"
    assert _loud_codes(source, expected) == ([] if expected is None else [expected])
    assert all(f.severity == Severity.WARNING for f in check_source(source, "t.py") if f.code == expected)


@pytest.mark.parametrize("name,code,expected", ENGINE_ONLY, ids=[c[0] for c in ENGINE_ONLY])
def test_engine_only(name, code, expected):
    loud = [f for f in check_source(HEADER + code, "t.py") if f.severity <= Severity.WARNING]
    assert [f.code for f in loud] == ([] if expected is None else [expected])


# -- Issue 11: PyTorch's own device contracts, each checked against torch and against the table
# (torchplace_rules/data/torch_semantics.json, generated from torch). Where FakeTensor cannot run
# a case, or is more lenient than the CUDA kernels, the test pins PyTorch's source behaviour
# (native_functions.yaml read through torchgen, or the installed headers) and says so; the
# "meta" device stands in for an accelerator where only "not the CPU" matters.
import inspect  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import torch  # noqa: E402

from torchplace_rules import torch_semantics as ts  # noqa: E402

sys.path.insert(0, str(Path(__file__).parents[2] / "shared_rules" / "tools"))

def _overload(name, args, kwargs=None, method=False):
    callable_ = ts.lookup_method(name) if method else ts.lookup_function(name)
    return callable_.bind(args, kwargs or {}).overload


def _roles(overload):
    return {p.name: p.role for p in overload.checked}


def test_normal_with_a_tensor_std_follows_it_and_takes_no_device():
    assert run_on_fake_gpu(HEADER + "s = torch.ones(3, device=device)\ny = torch.normal(0., s)\n"
                           "assert y.device.type == 'cuda'\n") is None
    err = run_on_fake_gpu(HEADER + "s = torch.ones(3, device=device)\ny = torch.normal(0., s, device=device)\n")
    assert isinstance(err, TypeError), err
    o = _overload("torch.normal", ["number", "tensor"])
    assert (o.result, o.follows, o.takes_device) == ("inputs", ("std",), False)


@pytest.mark.parametrize("make", [
    lambda n: torch.arange(n), lambda n: torch.full((2,), n), lambda n: torch.linspace(n, n, 3),
    lambda n: torch.randint(n, (2,)),
])
def test_a_zero_dim_tensor_where_a_number_is_read_does_not_place_the_result(make):
    n = torch.tensor(5)  # lives on the CPU; the result goes to the default device
    with torch.device("meta"):
        assert make(n).device.type == "meta"


def test_table_reads_zero_dim_tensors_as_numbers():
    assert _overload("torch.arange", ["tensor0"]).param("end").reads_number
    assert _overload("torch.full", ["other", "tensor0"]).param("fill_value").reads_number
    o = _overload("torch.linspace", ["tensor0", "tensor0", "number"])
    assert o.result == "factory" and o.param("start").reads_number


@pytest.mark.parametrize("module,call", [
    ("nn.CrossEntropyLoss()", "m(torch.ones(2, 3, device=device), torch.zeros(2, dtype=torch.long, device=device))"),
    ("nn.MSELoss()", "m(torch.ones(3, device=device), torch.ones(3, device=device))"),
    ("nn.MaxPool2d(2)", "m(torch.ones(1, 1, 4, 4, device=device))"),
    ("nn.Sequential(nn.ReLU(), nn.Dropout(0.1))", "m(torch.ones(3, device=device))"),
])
def test_modules_without_state_run_wherever_their_input_is(module, call):
    code = HEADER + f"m = {module}\ny = {call}\nassert y.device.type == 'cuda'\n"
    assert run_on_fake_gpu(code) is None
    name = module.split("(")[0].replace("nn.", "torch.nn.")
    held = ts.lookup_module_class(name)
    assert held.runs_anywhere or held.container


def test_a_loss_with_a_cpu_weight_needs_its_input_on_the_cpu():
    code = HEADER + ("m = nn.CrossEntropyLoss(weight=torch.ones(3))\n"
                     "y = m(torch.ones(2, 3, device=device), torch.zeros(2, dtype=torch.long, device=device))\n")
    assert run_on_fake_gpu(code) is not None
    assert ts.lookup_module_class("torch.nn.CrossEntropyLoss").holds_state({"weight": object()}) is True


def test_modules_built_with_device_are_placed_there():
    assert torch.nn.Linear(3, 2, device="meta").weight.device.type == "meta"
    assert ts.lookup_module_class("torch.nn.Linear").factory_kwargs


def test_zero_dim_cpu_tensors_meet_cuda_ones_in_tensor_iterator_ops():
    assert run_on_fake_gpu(HEADER + "x = torch.ones(3, device=device)\ny = torch.mul(x, torch.tensor(2.))\n") is None
    assert _overload("torch.mul", ["tensor", "tensor0"]).param("other").accepts_zero_dim_cpu()


def test_cpu_indices_may_index_an_accelerator_tensor_but_not_the_reverse():
    # CPU indices into a non-CPU tensor: torch runs it. The reverse raises in the index meta
    # function's check_indices_on_cpu_or_selfdevice (FakeTensor cannot run data-dependent
    # indexing, and meta's Python kernel skips that check): pinned to
    # aten/src/ATen/native/TensorAdvancedIndexing.cpp ("indices should be either on cpu or on
    # the same device as the indexed tensor").
    assert torch.ones(4, device="meta")[torch.tensor([0, 1])].device.type == "meta"
    assert _roles(_overload("__getitem__", ["tensor"], method=True)) == {"self": "s", "indices": "i"}


def test_cpu_indices_among_others_may_index_an_accelerator_tensor():
    # the same with a CPU index tensor among slices and other CPU index tensors (`pi[:, lidx, abs(midx)]`):
    # every index is checked against the CPU or self's device, as above
    pi = torch.ones(3, 4, 5, device="meta")
    lidx, midx = torch.tensor([0, 1]), torch.tensor([-1, 2])
    assert pi[:, lidx, abs(midx)].device.type == "meta"
    assert pi[:, 0, midx + 2].device.type == "meta"


def test_setitem_checks_its_values():
    # x[mask] = values runs index_put_: _index_put_impl_ moves a 0-dim value to self's device,
    # any other value meets self in a TensorIterator; no index device is checked: make_info moves
    # every index to self's device ("Ensure indices are on the same device as self",
    # TensorAdvancedIndexingUtils.h), unlike the read's index meta function (pinned to the source:
    # FakeTensor cannot run data-dependent indexing and lets both through).
    setitem = _overload("__setitem__", ["tensor", "tensor"], method=True)
    assert _roles(setitem) == {"self": "s", "value": "z"} and setitem.param("indices").role == "f"
    index_put = _overload("index_put_", ["tensors", "tensor"], method=True)
    assert _roles(index_put) == {"self": "s", "values": "z"} and index_put.param("indices").role == "f"


def test_an_item_written_into_a_tensor_is_copied_there():
    # FakeTensorMode in a CPU build cannot index a fake cuda tensor; "meta" stands in for the
    # accelerator: `x[i] = v` runs copy_ into a view of x, whatever device v is on.
    x = torch.zeros(3, 4, device="meta")
    x[0] = torch.ones(4)
    i = 1
    x[i] = torch.ones(4)
    assert x.device.type == x[0].device.type == x[i].device.type == "meta"


def test_where_moves_zero_dim_operands_but_not_others():
    # Truth over folklore: where_self_out moves 0-dim condition/self/other to the device
    # (aten/src/ATen/native/TensorCompare.cpp, "allow CPU scalars on non-cpu device").
    assert run_on_fake_gpu(HEADER + "x = torch.ones(3, device=device)\ny = torch.where(x > 0, x, torch.tensor(0.))\n") is None
    assert run_on_fake_gpu(HEADER + "x = torch.ones(3, device=device)\ny = torch.where(x > 0, x, torch.zeros(3))\n")
    assert set(_roles(_overload("torch.where", ["tensor", "tensor", "tensor"])).values()) == {"z"}


def _cuda_wrapper_checks(overload: str) -> bool:
    """native_functions.yaml (torchgen, as torch's build reads it): a CUDA kernel whose generated
    wrapper runs check_and_update_common_device on every tensor argument, 0-dim included
    (torchgen/dest/register_dispatch_key.py gen_device_check)."""
    from torch_semantics import aten  # the generator's reader of the yaml (shared_rules/tools)
    return aten.check(overload) == "exact"


@pytest.mark.parametrize("code,table,param,leaf", [
    ("y = x.index_select(0, torch.tensor([1]))", ("index_select", ["number", "tensor"], True), "index", "index_select"),
    ("y = torch.gather(x, 0, torch.tensor([1]))", ("torch.gather", ["tensor", "number", "tensor"], False), "index", "gather"),
    ("y = F.embedding(torch.tensor([1]), torch.ones(4, 2, device=device))",
     ("torch.nn.functional.embedding", ["tensor", "tensor"], False), "input", "index_select"),
    ("y = F.cross_entropy(torch.ones(2, 4, device=device), torch.tensor([0, 1]))",
     ("torch.nn.functional.cross_entropy", ["tensor", "tensor"], False), "target", "nll_loss_forward"),
    ("y = torch.stack([x, torch.ones(4)])", ("torch.stack", ["tensors"], False), "tensors", "cat"),
])
def test_ops_without_the_zero_dim_exemption(code, table, param, leaf):
    header = HEADER + "import torch.nn.functional as F\nx = torch.ones(4, device=device)\n"
    assert run_on_fake_gpu(header + code) is not None  # a CPU operand raises
    # FakeTensor lets a 0-dim CPU operand through everywhere; the CUDA kernel these ops reach
    # checks every tensor argument (pinned to the generated wrapper, see _cuda_wrapper_checks).
    assert _cuda_wrapper_checks(leaf)
    name, args, method = table
    assert _overload(name, args, method=method).param(param).accepts_zero_dim_cpu() is False


def test_pack_padded_sequence_wants_cpu_lengths():
    from torch.nn.utils.rnn import pack_padded_sequence
    with pytest.raises(RuntimeError, match="'lengths' argument should be a 1D CPU int64 tensor"):
        pack_padded_sequence(torch.ones(2, 3, 4), torch.tensor([3, 2], device="meta"), batch_first=True)
    o = ts.lookup_function("torch.nn.utils.rnn.pack_padded_sequence").overloads[0]
    assert o.param("lengths").role == "c"


def test_a_cpu_generator_cannot_drive_a_cuda_factory():
    # FakeTensor does not check generators; the kernels call at::check_generator, which raises
    # "Expected a 'cuda' device type for generator but found 'cpu'" (installed header below).
    header = Path(torch.__file__).parent / "include" / "ATen" / "core" / "Generator.h"
    assert "device type for generator but found" in header.read_text()
    assert _overload("torch.randn", ["number"], {"generator": "other"}).param("generator").role == "g"
    assert torch.Generator().device.type == "cpu"


def test_like_and_new_factories_follow_their_tensor():
    assert run_on_fake_gpu(HEADER + "x = torch.ones(3, device=device)\ny = torch.zeros_like(x)\n"
                           "assert y.device.type == 'cuda'\n") is None
    m = torch.ones(3, device="meta")
    assert {m.new_zeros(2).device.type, m.new_tensor([1, 2]).device.type, m.new_full((2,), 1.).device.type} == {"meta"}
    assert _overload("torch.zeros_like", ["tensor"]).result == "like"
    assert _overload("new_zeros", ["other"], method=True).follows == ("self",)
    assert ts.lookup_method("new_tensor").overloads[0].result == "like"


def test_torch_tensor_of_a_tensor_keeps_its_device_and_of_a_list_reads_numbers():
    # tensor_new.cpp internal_new_from_data: a Tensor `data` keeps its device; a sequence is
    # stored element by element on the host (item() per 0-dim tensor), then moved to device=
    # or the default device.
    with pytest.warns(UserWarning, match="copy construct from a tensor"):
        assert torch.tensor(torch.ones(2, device="meta")).device.type == "meta"
    with torch.device("meta"):
        assert torch.tensor([torch.tensor(1.), torch.tensor(2.)]).device.type == "meta"
    assert ts.lookup_function("torch.tensor").overloads[0].result == "data"


def test_a_tensor_takes_no_string_key():
    # python_variable_indexing.cpp reads a str index as a sequence of indices (one per character) and
    # fails to make index tensors of its items: `t["preds"]` raises on any tensor, on any device.  What a
    # part of an unknown module's output tuple gives for a string key is no tensor's part (review19b's N1);
    # the whole output may be a mapping of tensors (`out["logits"]` of a ModelOutput) and stays one.
    for key in ("preds", "a"):
        with pytest.raises((TypeError, IndexError)):
            torch.ones(2, 3, device="meta")[key]
    source = HEADER + ("import numpy as np\nm = torch.hub.load('o/r', 'm').to(device)\n"
                       "logits, extra = m(torch.ones(2, device=device))\n"
                       "y = np.array(extra['preds'])\nz = np.array(logits[0])\n"
                       "w = np.array(m(torch.ones(2, device=device))['logits'])\n")
    assert _loud_codes(source, "TP104") == ["TP104", "TP104"]


def test_fake_tensor_is_more_lenient_than_cuda_kernels_in_these_cases():
    # Two CPU scalars in one TensorIterator op: TensorIterator.cpp compute_types allows one
    # ("Trying to pass too many CPU scalars to non-CPU kernel!"); a CPU conv weight: _convolution's
    # check_input_same_type_as_parameters ("Input type ... and weight type ... should be the
    # same"). FakeTensor accepts both; the table keeps the kernels' rules.
    assert run_on_fake_gpu(HEADER + "y = torch.addcmul(torch.ones(3, device=device), torch.tensor(2.), torch.tensor(3.))\n") is None
    assert run_on_fake_gpu(HEADER + "import torch.nn.functional as F\n"
                           "y = F.conv2d(torch.ones(1, 2, 4, 4, device=device), torch.ones(2, 2, 3, 3))\n") is None
    assert _roles(_overload("torch.addcmul", ["tensor", "tensor0", "tensor0"]))["tensor1"] == "s1"
    assert _roles(_overload("torch.nn.functional.conv2d", ["tensor", "tensor"]))["weight"] == "s"


def test_the_output_of_a_tensor_iterator_op_is_no_exempt_cpu_scalar():
    # TensorIteratorBase::compute_types lets a 0-dim CPU operand through only when it is not an
    # output (`!op.is_output`, aten/src/ATen/TensorIterator.cpp): an in-place op's receiver and
    # out= are strict (`s`), the other operands keep their exemption (`s1`)
    for code in ("y = torch.tensor(0.).add_(torch.ones((), device=device))\n",
                 "y = torch.tensor(0.).pow_(torch.ones((), device=device))\n",
                 "y = torch.sign(torch.ones((), device=device), out=torch.tensor(0.))\n"):
        assert isinstance(run_on_fake_gpu(HEADER + code), RuntimeError), code
    assert run_on_fake_gpu(HEADER + "y = torch.ones(3, device=device).add_(torch.tensor(2.))\n") is None
    assert run_on_fake_gpu(HEADER + "y = torch.sign(torch.tensor(2.), out=torch.ones((), device=device))\n") is None
    add_ = _overload("add_", ["tensor"], method=True)
    assert (add_.result, _roles(add_)["self"], _roles(add_)["other"]) == ("receiver", "s", "s1")
    assert _overload("torch.sign", ["tensor"], {"out": "tensor"}).param("out").role == "s"
    for name in ("__iadd__", "__imul__", "__ior__", "floor_divide_", "clamp_", "lerp_"):
        for o in ts.lookup_method(name).overloads:
            assert _roles(o).get("self") in ("s", "f", "?", None), (name, o.source)
    # binary_cross_entropy_with_logits: only with pos_weight does log_sigmoid(input) become an
    # in-place output (Loss.cpp, seen in the kernels it runs); without it a 0-dim CPU input is read
    # like any TensorIterator operand. One role per overload: the lenient one.
    import torch.nn.functional as F
    from torch_semantics import tracing
    x, t, w = torch.randn(3), torch.rand(3), torch.rand(3)
    roles = lambda **kw: tracing.roles_from(tracing.trace(lambda: F.binary_cross_entropy_with_logits(x, t, **kw),
                                                          {"input": x, "target": t, **kw}))
    assert (roles()["input"], roles(pos_weight=w)["input"]) == ("s1", "s")
    assert _roles(_overload("torch.nn.functional.binary_cross_entropy_with_logits", ["tensor", "tensor"]))["input"] == "s1"


def test_torchvision_to_tensor_is_on_the_cpu_and_tensor_transforms_keep_the_device():
    """What `flow/torchvision_transforms.py` encodes (skipped where torchvision is not installed;
    run on torchvision 0.28 with torch 2.13 when the model was written)."""
    tv = pytest.importorskip("torchvision")
    import numpy as np
    from torchvision import transforms as T
    from torchvision.transforms import functional as TF

    pic = np.zeros((8, 6, 3), dtype=np.uint8)
    made = T.Compose([T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])(pic)
    assert (made.device.type, made.dim()) == ("cpu", 3)
    assert TF.to_tensor(pic).device.type == "cpu" and T.ToTensor()(np.zeros((4, 5), np.float32)).dim() == 3
    with pytest.raises(TypeError, match="pic should be"):
        T.ToTensor()(torch.ones(3, 4, 4, device="meta"))
    # every transform the engine takes as device-keeping, on a `meta` tensor (their data-dependent
    # checks, such as Normalize's `if (std == 0).any()`, cannot run there: taken as False)
    from unittest import mock

    from torchplace_rules.flow.torchvision_transforms import DEVICE_KEEPING_TRANSFORMS
    made = {"Normalize": ([0.5] * 3, [0.5] * 3), "Resize": (16,), "CenterCrop": (16,), "RandomCrop": (16,),
            "RandomResizedCrop": (16,), "ColorJitter": (0.5, 0.5, 0.5, 0.1), "RandomGrayscale": (1.0,),
            "ConvertImageDtype": (torch.float16,), "RandomErasing": (1.0,), "GaussianBlur": (3,), "Pad": (1,),
            "RandomPerspective": (0.5, 1.0), "RandomInvert": (1.0,), "RandomPosterize": (2, 1.0),
            "RandomSolarize": (0.5, 1.0), "RandomAdjustSharpness": (2, 1.0), "RandomAutocontrast": (1.0,),
            "RandomHorizontalFlip": (1.0,), "RandomVerticalFlip": (1.0,)}
    for name in sorted(DEVICE_KEEPING_TRANSFORMS):
        step = getattr(T, name)(*made.get(name, ()))
        x = torch.zeros(3, 64, 64, dtype=torch.uint8 if name == "RandomPosterize" else torch.float32, device="meta")
        with mock.patch.object(torch.Tensor, "__bool__", lambda self: False):
            y = step(x)
        assert (y.device.type, y.dim()) == ("meta", 3), name
    from torchvision.transforms import v2
    assert v2.ToImage()(torch.zeros(3, 4, 4, device="meta")).device.type == "meta"  # why v2 is left out
    assert tv.__version__


def test_a_dataloader_stacks_its_samples_where_they_are():
    """`DataLoader(tensor)` and `DataLoader([samples])` (default collate) yield batches on the device
    of the samples' tensors ("meta" standing in for an accelerator); a loop over them needs no move."""
    from torch.utils.data import DataLoader, TensorDataset
    rows = torch.zeros(8, 3, device="meta")
    assert next(iter(DataLoader(rows, batch_size=4, shuffle=True))).device.type == "meta"
    assert {t.device.type for t in next(iter(DataLoader(TensorDataset(rows, rows), batch_size=4)))} == {"meta"}
    assert next(iter(DataLoader([(rows[0], 1), (rows[1], 0)], batch_size=2)))[0].device.type == "meta"
    assert next(iter(DataLoader(torch.zeros(8, 3), batch_size=4))).device.type == "cpu"
    loop = "model = nn.Linear(3, 2).to(device)\nfor b in DataLoader({}, batch_size=4):\n    y = model({})\n"
    head = HEADER + "from torch.utils.data import DataLoader\n"
    codes = lambda src: [f.code for f in check_source(head + src, "t.py") if f.severity <= Severity.WARNING]
    assert codes(loop.format("torch.ones(8, 3).to(device)", "b")) == []
    assert codes(loop.format("[(torch.ones(3, device=device), 1), (torch.ones(3, device=device), 0)]", "b[0]")) == []
    assert codes(loop.format("torch.ones(8, 3)", "b")) == ["TP103"]
    assert codes(loop.format("[(torch.ones(3), 1), (torch.ones(3), 0)]", "b[0]")) == ["TP103"]


def test_a_dataloader_makes_cpu_tensors_of_python_numbers_only_in_batches():
    """Default collate turns the Python numbers of a batch into CPU tensors, whatever device the
    other fields are on; with `batch_size=None` (`default_convert`) a number stays a number.  A
    dataset of the project whose `__getitem__` gives `self.labels[i]` of a list of ints."""
    from torch.utils.data import DataLoader, Dataset
    rows = torch.zeros(4, 3, device="meta")

    class DS(Dataset):
        def __getitem__(self, i):
            return rows[i], [0, 1, 1, 0][i]

        def __len__(self):
            return 4
    x, y = next(iter(DataLoader(DS(), batch_size=2)))
    assert (x.device.type, y.device.type, y.dim()) == ("meta", "cpu", 1)
    assert type(next(iter(DataLoader(DS(), batch_size=None)))[1]) is int
    with pytest.raises(RuntimeError):
        x.to("meta").sum(1) + y
    head = HEADER + ("from torch.utils.data import DataLoader, Dataset\n"
                     "class DS(Dataset):\n    def __init__(self, labels):\n        self.labels = labels\n"
                     "    def __getitem__(self, i):\n        return torch.zeros(3), self.labels[i]\n"
                     "    def __len__(self):\n        return len(self.labels)\n"
                     "model = nn.Linear(3, 2).to(device)\n")
    loop = "for x, y in DataLoader(DS([0, 1, 1]){}):\n    loss = model(x.to(device)).sum(1) + y\n"
    codes = lambda src: [f.code for f in check_source(head + src, "t.py") if f.severity <= Severity.WARNING]
    assert codes(loop.format(", batch_size=2")) == ["TP103"]
    assert codes(loop.format("")) == ["TP103"]
    assert codes(loop.format(", batch_size=None")) == []
    assert codes(loop.format(", batch_size=2").replace("+ y", "+ y.to(device)")) == []


def test_sklearn_metrics_read_their_inputs_with_numpy():
    """TP104 reports a `sklearn.metrics` function given an accelerator tensor: it reads its inputs
    with `np.asarray`, which raises for a tensor off the CPU ("meta" stands in for the accelerator;
    the message is the one a CUDA tensor gives, with its device type)."""
    metrics = pytest.importorskip("sklearn.metrics")
    on_device = torch.zeros(4, dtype=torch.long, device="meta")
    on_cpu = torch.zeros(4, dtype=torch.long)
    for name in ("confusion_matrix", "accuracy_score", "f1_score", "roc_auc_score", "mean_squared_error", "roc_curve",
                 "average_precision_score"):
        with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
            getattr(metrics, name)(on_cpu, on_device)
    assert metrics.accuracy_score(on_cpu, on_cpu) == 1.0
    src = HEADER + "from sklearn import metrics\ny = torch.zeros(4, device=device)\nm = metrics.f1_score({})\n"
    codes = lambda args: [f.code for f in check_source(src.format(args), "t.py") if f.severity <= Severity.WARNING]
    assert codes("y.cpu(), y") == ["TP104"]
    assert codes("y.cpu(), y.cpu()") == []


def test_pyplot_reads_its_data_with_numpy():
    """TP104 reports a `matplotlib.pyplot` plotting function given an accelerator tensor (or a list of
    them): it reads its data with NumPy, which raises off the CPU ("meta" stands in for the
    accelerator).  `axhline(y)` reads a number (float()), which a 0-dim tensor answers: not a sink."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from torchplace_rules.rules.tp104_numpy_on_device import PYPLOT_DATA
    vector, matrix = torch.ones(4, device="meta"), torch.ones(3, 3, device="meta")
    two_d = {"imshow", "matshow", "pcolormesh", "contour", "contourf"}
    for name in sorted(PYPLOT_DATA):
        one = ("plot", "hist", "boxplot", "semilogx", "semilogy", "loglog", "stem")
        data = (matrix,) if name in two_d else (vector,) if name in one else (vector, vector)
        with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
            getattr(plt, name)(*data)
        plt.close("all")
    with pytest.raises(TypeError, match="can't convert meta"):
        plt.plot([torch.ones((), device="meta")] * 3)
    plt.plot(torch.ones(4))
    plt.axhline(torch.ones(()))
    plt.close("all")
    src = HEADER + "import matplotlib.pyplot as plt\ny = torch.zeros(4, device=device)\nplt.plot({})\n"
    codes = lambda args: [f.code for f in check_source(src.format(args), "t.py") if f.severity <= Severity.WARNING]
    assert codes("y") == codes("[y.sum(), y.sum()]") == ["TP104"]
    assert codes("y.cpu()") == codes("[y.sum().item()]") == []


def test_pyplot_reads_its_data_keywords_with_numpy():
    """TP104 reports a pyplot plotting function given an accelerator tensor by a data keyword
    (`plt.scatter(x, y, c=labels)`): matplotlib reads those with NumPy too, whatever their shape.  Some
    read one item first with float() (`c=`, `xerr=`), which a CUDA tensor answers (a sync) and a meta
    tensor does not: `Synced` is a meta tensor that answers it, and converts with torch's own `__array__`
    (which raises off the CPU: "meta" stands in for the accelerator).  Not `label=` or `color=` strings."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from torchplace_rules.rules.tp104_numpy_on_device import PYPLOT_DATA_KEYWORDS

    class Synced(torch.Tensor):
        def item(self):
            return 1.0

        def __float__(self):
            return 1.0

    def synced(*shape):
        return torch.Tensor._make_subclass(Synced, torch.ones(shape, device="meta"))

    v = np.ones(4)
    others = {"scatter": dict(x=v, y=v), "hist": dict(x=v), "bar": dict(x=v, height=v), "barh": dict(y=v, width=v),
              "errorbar": dict(x=v, y=v), "fill_between": dict(x=v, y1=v), "imshow": dict(X=np.ones((3, 3)))}
    for name, keywords in PYPLOT_DATA_KEYWORDS.items():
        for keyword in keywords:
            for shape in ((3, 3) if keyword == "X" else (4,), ()):
                with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
                    getattr(plt, name)(**{**others[name], keyword: synced(*shape)})
                plt.close("all")
    plt.scatter(v, v, c=torch.ones(4), s=torch.ones(4))
    plt.close("all")
    src = HEADER + "import matplotlib.pyplot as plt\ny = torch.zeros(4, device=device)\nplt.{}\n"
    codes = lambda call: [f.code for f in check_source(src.format(call), "t.py") if f.severity <= Severity.WARNING]
    assert codes("scatter(y.cpu(), y.cpu(), c=y)") == codes("scatter(y.cpu(), y.cpu(), s=y)") == ["TP104"]
    assert codes("bar(y.cpu(), y.cpu(), bottom=y)") == codes("errorbar(y.cpu(), y.cpu(), yerr=y)") == ["TP104"]
    assert codes("hist(y.cpu(), weights=y)") == codes("fill_between(y.cpu(), y.cpu(), where=y)") == ["TP104"]
    assert codes("scatter(y.cpu(), y.cpu(), c=y.cpu())") == codes("scatter(y.cpu(), y.cpu(), label='y')") == []
    assert codes("plot(y.cpu(), color='r')") == []


def test_a_tensor_stored_into_a_numpy_array_slot_is_converted_with_numpy():
    """`a[i] = t`: where the slot is itself an array (a slice, one index into a 2-d array) NumPy converts
    t with `__array__` (.numpy(), which raises off the CPU: "meta" stands in for the accelerator); a
    scalar slot reads a number (float(t): `.item()`, which a CUDA tensor answers).  TP104 reports the
    first kind only."""
    import numpy as np
    t = torch.ones((), device="meta")
    for shape, key in (((5, 1), 0), ((5,), slice(1, 3)), ((5, 2), slice(None))):
        with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
            np.zeros(shape)[key] = t
    calls = []

    class Probe:  # which protocol NumPy uses for a scalar slot
        def __array__(self, dtype=None, copy=None):
            calls.append("__array__")
            return np.array(1.0)

        def __float__(self):
            calls.append("__float__")
            return 1.0
    np.zeros(5)[0] = Probe()
    np.zeros((5, 2))[0, 1] = Probe()
    np.zeros((5, 2))[0] = Probe()
    assert calls == ["__float__", "__float__", "__array__"]
    src = (HEADER + "import numpy as np\nloss = torch.ones((), device=device)\ng = np.zeros((9, 1))\nv = np.zeros(9)\n"
           "for i in range(9):\n    {}\n")
    codes = lambda stmt: [f.code for f in check_source(src.format(stmt), "t.py") if f.severity <= Severity.WARNING]
    assert codes("g[i] = loss") == codes("g[1:3] = loss") == codes("v[:] = loss") == ["TP104"]
    assert codes("v[i] = loss") == codes("g[i, 0] = loss") == codes("g[i] = loss.cpu()") == []


def test_numpy_converts_every_item_of_a_sequence_but_not_a_shape():
    """NumPy converts each item of a list or tuple it makes an array of with `Tensor.__array__`
    (.numpy(), which raises off the CPU: "meta" stands in for the accelerator), whatever the other
    items are (numbers, CPU tensors, strings, None): one accelerator item is enough.  A shape
    (`np.zeros((n, 3))`, `np.full(n, 0)`) is read item by item with `__index__`, which a 0-dim CUDA
    tensor answers, and `np.random.shuffle` swaps a list's items in place: neither converts."""
    import numpy as np
    t = torch.ones((), device="meta")
    for make in (lambda: np.array([1.0, t]), lambda: np.array((t, 2)), lambda: np.mean([0.5, t]),
                 lambda: np.sum([torch.ones(()), t]), lambda: np.array(["a", None, t], dtype=object),
                 lambda: np.array([[1.0, 2.0], [t, 3.0]])):
        with pytest.raises(TypeError, match="can't convert meta device type tensor to numpy"):
            make()
    calls = []

    class Probe:  # a 0-dim CUDA tensor: answers __index__, raises in __array__
        def __array__(self, dtype=None, copy=None):
            calls.append("__array__")
            raise TypeError("can't convert cuda:0 device type tensor to numpy")

        def __index__(self):
            return 2
    p = Probe()
    np.zeros((p, 3)), np.ones([3, p]), np.empty(p), np.full((p,), 0.0), np.random.shuffle([1, p])
    assert calls == []
    src = HEADER + "import numpy as np\nloss = torch.ones((), device=device)\ndef f(n, m):\n    return {}\n"
    codes = lambda expr: [f.code for f in check_source(src.format(expr), "t.py") if f.severity <= Severity.WARNING]
    assert codes("np.array([n, loss.item(), loss * 100])") == codes("np.mean((m, loss))") == ["TP104"]
    assert codes("np.array([n, [m, loss]])") == ["TP104"]
    assert codes("np.array([n, loss.item(), m])") == codes("np.zeros((loss, n))") == codes("np.zeros((loss, 3))") == []
    assert codes("np.full(loss, 0)") == codes("np.ones([4, loss])") == []


def test_numbers_from_len_range_and_numpy_vectors():
    """`len(x)` is an int, `range(...)` and a NumPy vector (`np.random.permutation(n)`, `np.arange(n)`)
    yield numbers: an index made from them selects (a row of a 2-d array is an array)."""
    src = (HEADER + "import numpy as np\nloss = torch.ones((), device=device)\ng = np.zeros((9, 1))\n"
           "for i in {}:\n    g[i] = loss\n")
    codes = lambda it: [f.code for f in check_source(src.format(it), "t.py") if f.severity <= Severity.WARNING]
    for iterable in ("range(3)", "np.random.permutation(len(g))", "np.arange(4)", "g[:, 0].astype(int)"):
        assert codes(iterable) == (["TP104"] if iterable != "g[:, 0].astype(int)" else []), iterable


def test_an_int_device_is_an_accelerator_index():
    """`x.to(gpu)` / `model.to(gpu)` with gpu an int: PyTorch reads an int as an index of the current
    accelerator, never the CPU (the CPU build: "Cannot access accelerator device when none is
    available").  Which index is not proven: the CPU side conflicts (an error), and another CUDA
    device of known index only for some indices (a warning that names the condition)."""
    for make in (lambda: torch.device(0), lambda: torch.ones(2).to(1), lambda: torch.nn.Linear(2, 2).to(0)):
        with pytest.raises(RuntimeError, match="accelerator"):
            make()
    src = (HEADER + "def helper(net, x, k):\n    net.to(k)\n    y = x.to(k)\n    return net(y), net({})\n"
           "helper(nn.Linear(3, 3), torch.ones(3), {})\n")
    codes = lambda arg, dev: [f.code for f in check_source(src.format(arg, dev), "t.py") if f.severity <= Severity.WARNING]
    assert codes("torch.ones(3)", "0") == ["TP102"]
    assert codes("y", "0") == codes("y", "'cpu'") == []
    other = HEADER + "def f(x, k):\n    return x.to(k) + torch.ones(3, device='cuda:1')\nf(torch.ones(3), 0)\n"
    assert [(f.code, f.severity) for f in check_source(other, "t.py") if f.severity <= Severity.WARNING] == [
        ("TP101", Severity.WARNING)]


def test_torch_nn_private_bases_are_modules():
    """`class DiceLoss(_Loss)`, `class MyNorm(_BatchNorm)`: torch.nn's private bases are nn.Module
    subclasses, so a project class deriving from one is a module (flow/torch_api.PRIVATE_MODULE_BASES)."""
    import importlib

    from torchplace_rules.flow.torch_api import PRIVATE_MODULE_BASES
    for qual in sorted(PRIVATE_MODULE_BASES):
        module, _, name = qual.rpartition(".")
        assert issubclass(getattr(importlib.import_module(module), name), torch.nn.Module), qual


def test_a_subclass_of_a_private_torch_base_is_a_module():
    code = (HEADER + "from torch.nn.modules.loss import _Loss\n"
            "class L(_Loss):\n    def __init__(self):\n        super().__init__()\n        self.fn = nn.MSELoss()\n"
            "    def forward(self, x):\n        t = torch.ones(()).fill_(1.0).type(x.type()).expand_as(x)\n        return self.fn(x, t)\n"
            "y = L()(torch.ones(2, 3, device='cuda:1'))\n")
    assert isinstance(run_on_fake_gpu(code.replace(".type(x.type())", ".cuda()")), Exception)  # .type('torch.cuda.*') of a CPU tensor: the current GPU
    assert [(f.code, f.span.start_line + 1) for f in check_source(code, "t.py") if f.severity <= Severity.WARNING] == [("TP101", 11)]


def test_module_to_rebinds_buffers_so_a_list_of_them_keeps_the_old_tensors():
    """`Module._apply` rebinds `self._buffers[name]` to the converted tensor: a plain list filled with
    `getattr(self, name)` still holds the tensors as registered (pytorch/pytorch#29807)."""
    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.noise = []
            for i in range(2):
                self.register_buffer(f"noise_{i}", torch.zeros(4, 1))
                self.noise.append(getattr(self, f"noise_{i}"))

    m = M().to("meta")
    assert m.noise_0.device.type == "meta" and m.noise[0].device.type == "cpu"
    assert m.noise[0] is not m.noise_0


# -- Optimizer state and module moves (flow/optimizers.py).  The fake GPU's Module.to above makes new
# Parameter objects, which is what a move to the meta device does and not what a CPU->CUDA move does,
# so these facts are checked one by one: (1) load_state_dict casts the loaded state to each parameter's
# device at load time, (2) Module._apply keeps the Parameter objects the optimizer holds and leaves
# its state alone, (3) a step whose state is on another device than the parameters raises.
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402

from torchplace_rules.flow.optimizers import STATEFUL  # noqa: E402


def _stepped_state(cls, **kwargs) -> dict:
    """The state one real CPU step leaves (momentum buffers, moments, step counts)."""
    layer = torch.nn.Linear(3, 2)
    opt = cls(layer.parameters(), **kwargs)
    layer(torch.ones(1, 3)).sum().backward()
    opt.step()
    return opt.state_dict()


def _cuda(value):
    """A (fake) CUDA copy of a state tensor (the CPU build cannot dispatch `Tensor.to("cuda")`)."""
    return torch.ops.aten._to_copy(value, device=torch.device("cuda", 0)) if isinstance(value, torch.Tensor) else value


def _optimizer(name: str):
    return getattr(torch.optim, name), ({"lr": 0.1, "momentum": 0.9} if name == "SGD" else {"lr": 0.1})


def test_load_state_dict_casts_the_state_to_the_parameters_device_at_load_time():
    saved = _stepped_state(torch.optim.SGD, lr=0.1, momentum=0.9)  # CPU momentum buffers
    on_meta = torch.nn.Linear(3, 2, device="meta")
    opt = torch.optim.SGD(on_meta.parameters(), lr=0.1, momentum=0.9)
    opt.load_state_dict(saved)
    assert {s["momentum_buffer"].device.type for s in opt.state.values()} == {"meta"}
    on_cpu = torch.nn.Linear(3, 2)
    opt = torch.optim.SGD(on_cpu.parameters(), lr=0.1, momentum=0.9)
    opt.load_state_dict(saved)
    assert {s["momentum_buffer"].device.type for s in opt.state.values()} == {"cpu"}


def test_a_module_move_keeps_the_parameter_objects_and_leaves_the_optimizer_state():
    """A move that converts in place (float64 here, which a CPU build can show; a CPU->CUDA move takes
    the same branch: `param.data = param_applied` where `_has_compatible_shallow_copy_type`, which a
    CPU and a CUDA dense tensor have) keeps the Parameter objects, returns the module, and the state
    `load_state_dict` cast stays as it was."""
    model = torch.nn.Linear(3, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    opt.load_state_dict(_stepped_state(torch.optim.SGD, lr=0.1, momentum=0.9))
    before = [id(p) for p in model.parameters()]
    assert model.to(torch.float64) is model  # (so `model = model.cuda()` rebinds the same module)
    assert [id(p) for p in model.parameters()] == before
    assert [id(p) for group in opt.param_groups for p in group["params"]] == before
    assert {s["momentum_buffer"].dtype for s in opt.state.values()} == {torch.float32}
    source = inspect.getsource(torch.nn.Module._apply)
    assert "param.data = param_applied" in source and "_has_compatible_shallow_copy_type" in source


def test_sgd_without_momentum_keeps_no_state_tensors():
    saved = _stepped_state(torch.optim.SGD, lr=0.1)
    assert all(not isinstance(v, torch.Tensor) for s in saved["state"].values() for v in s.values())


@pytest.mark.parametrize("name", sorted(STATEFUL | {"SGD"}))
def test_a_step_with_its_state_on_another_device_than_the_parameters_raises(name, monkeypatch):
    cls, kwargs = _optimizer(name)
    state = _stepped_state(cls, **kwargs)["state"][0]
    for module in list(sys.modules.values()):  # the step count read as a number (FakeTensor has no data)
        if getattr(module, "__name__", "").startswith("torch.optim.") and hasattr(module, "_get_value"):
            monkeypatch.setattr(module, "_get_value", lambda x: 0.5)
    for state_on_cpu in (True, False):
        with FakeTensorMode(allow_non_fake_inputs=True):
            param = torch.nn.Parameter(torch.empty(2, 3, device="cuda" if state_on_cpu else "cpu"))
            param.grad = torch.empty(2, 3, device=param.device)
            opt = cls([param], foreach=False, **kwargs)
            opt.state[param] = {k: _cuda(v) if not state_on_cpu and k != "step" else v for k, v in state.items()}
            with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
                opt.step()
        with FakeTensorMode(allow_non_fake_inputs=True):  # the same step with state where the parameters are
            param = torch.nn.Parameter(torch.empty(2, 3, device="cuda"))
            param.grad = torch.empty(2, 3, device="cuda")
            opt = cls([param], foreach=False, **kwargs)
            opt.state[param] = {k: _cuda(v) if k != "step" else v for k, v in state.items()}
            opt.step()


def test_default_collate_stacks_rows_where_the_tensor_is():
    """A DataLoader over a tensor batches its rows with `default_collate`, which stacks them where they
    are: rows of a CUDA tensor make CUDA batches, rows of a CPU tensor CPU ones (review s14, cause P)."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.utils.data import default_collate

    with FakeTensorMode(allow_non_fake_inputs=True):
        for where in ("cuda", "cpu"):
            ids = torch.ops.aten._to_copy(torch.arange(8), device=torch.device(where))
            assert default_collate([ids.select(0, i) for i in range(4)]).device.type == where  # ids[i]


_AUTOGRAD_BACKWARD = """\
import torch


class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(w)
        return x * w

    @staticmethod
    def backward(ctx, grad):
        w, = ctx.saved_tensors
        pad = torch.zeros(grad.shape[0], 1)
        return torch.cat((pad, grad * w), dim=1)[:, 1:], None


def run(device):
    x = torch.ones(4, 3, device=device, requires_grad=True)
    F.apply(x, torch.ones(4, 3, device=device)).sum().backward()
"""


def test_autograd_passes_backward_gradients_and_saved_tensors_on_the_inputs_device():
    """Autograd calls `backward` with gradients on the device of forward's outputs and `ctx.saved_tensors`
    gives back forward's tensors where they were: with the inputs on an accelerator (the `meta` device stands
    in: the CPU build runs autograd on it), a CPU tensor `backward` makes and combines with them raises."""
    scope = {}
    exec(compile(_AUTOGRAD_BACKWARD, "<autograd>", "exec"), scope)
    scope["run"]("cpu")  # on the CPU it runs
    with pytest.raises(RuntimeError, match="device"):
        scope["run"]("meta")
    loud = [(f.code, f.span.start_line + 1) for f in check_source(_AUTOGRAD_BACKWARD + "run('cuda')\n", "t.py")
            if f.severity <= Severity.WARNING]
    assert loud == [("TP202", 13)]


def test_torch_draws_on_the_default_device_with_a_cpu_generator():
    """flow/default_device.py.  FakeTensor and meta tensors do not check a generator's device, and the CPU
    build refuses `torch.cuda.FloatTensor`; pinned from torch 2.13's source instead: `random_split` draws
    `randperm(sum(lengths), generator=generator)` with `torch.default_generator` (a CPU generator) unless
    one is passed; RandomSampler (a DataLoader's with `shuffle=True`) makes a CPU `torch.Generator()` when
    it has none and draws `randperm(n, generator=generator)`; neither passes a device, so the factory runs
    on the default device, where the CUDA kernel's check_generator raises (test above).  A CPU default
    runs clean."""
    from torch.utils.data import DataLoader, RandomSampler, random_split
    from torch.utils.data import dataset as dataset_module

    assert inspect.signature(random_split).parameters["generator"].default is torch.default_generator
    assert torch.default_generator.device.type == "cpu"
    assert "randperm(sum(lengths), generator=generator)" in inspect.getsource(dataset_module.random_split)
    sampler = inspect.getsource(RandomSampler.__iter__)
    assert "generator = torch.Generator()" in sampler and "torch.randperm(n, generator=generator)" in sampler
    assert isinstance(DataLoader(list(range(4)), shuffle=True).sampler, RandomSampler)
    assert "_C._set_default_tensor_type" in inspect.getsource(torch.set_default_tensor_type)
    assert len(random_split(list(range(10)), [8, 2])[0]) == 8  # the CPU default: clean
    code = (HEADER + "from torch.utils.data import random_split\ntorch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
            "a, b = random_split(list(range(10)), [8, 2])\n")
    assert _loud_codes(code, "TP101") == ["TP101"]


def test_ctc_loss_reads_its_lengths_as_numbers():
    # FakeTensor (a dispatch mode) forces ctc_loss's composite path; plain tensors take the fast path of
    # LossCTC.cpp's ctc_loss.Tensor: both length tensors are copied to the CPU as int64 and handed to
    # `_ctc_loss` as integer lists, so their device is free (the profiler shows the lists).
    from torch.profiler import profile
    lp, tg = torch.randn(7, 2, 5).log_softmax(2), torch.randint(1, 5, (2, 3))
    with profile(record_shapes=True) as prof:
        torch.nn.functional.ctc_loss(lp, tg, torch.full((2,), 7, dtype=torch.int32), torch.full((2,), 3))
    calls = [e.concrete_inputs for e in prof.events() if e.name == "aten::_ctc_loss"]
    assert calls and calls[0][2:4] == [[7, 7], [3, 3]]
    o = ts.lookup_function("torch.nn.functional.ctc_loss").overloads[0]
    assert (o.param("input_lengths").role, o.param("target_lengths").role) == ("n", "n")


def test_data_parallel_scatters_the_tensors_of_tuples_lists_and_dicts(monkeypatch):
    """`DataParallel.forward` hands its inputs to `scatter`, which moves every tensor a tuple, list or
    dict holds (at any depth) to the target GPUs; a mapping that is no dict (a BatchEncoding is a
    UserDict) is handed on as is (`flow/project_calls._scattered`).  The move itself needs CUDA:
    `Scatter` is replaced by one that tags what it would move."""
    from collections import UserDict

    from torch.nn.parallel import scatter_gather

    class Tagging:
        @staticmethod
        def apply(gpus, chunks, dim, tensor):
            return tuple(("moved", gpu) for gpu in gpus)

    monkeypatch.setattr(scatter_gather, "Scatter", Tagging)
    t = torch.ones(2)
    mapping = UserDict(a=t)
    (args,) = scatter_gather.scatter(([t, (t, [t]), {"a": t}, mapping, 3],), [0])
    moved = ("moved", 0)
    assert args == ([moved, (moved, [moved]), {"a": moved}, mapping, 3],)
    assert args[0][3]["a"] is t


def test_class_tests_of_a_module_class_of_single_bases_down_to_nn_module():
    """`flow/class_tests.py`: a project class whose one base is `nn.Module` has `nn.Module` as
    `__bases__[0]` and derives from no class of torch but `nn.Module` (and `object`); no name under
    `torch` other than `Module` is bound to `nn.Module`, and none under `torch.nn` to `object`, so
    `C.__bases__[0] is T` and `issubclass(C, T)` are False for every other class `T` named there."""
    import torch.nn as nn

    class MulX(nn.Module):
        pass

    class Deeper(MulX):
        pass

    assert MulX.__bases__[0] is nn.Module and Deeper.__bases__[0] is MulX
    assert MulX.__mro__ == (MulX, nn.Module, object)
    assert not issubclass(Deeper, nn.modules.conv._ConvNd) and issubclass(Deeper, nn.Module)
    for name, module in list(sys.modules.items()):
        if name == "torch" or name.startswith("torch."):
            for attr, value in list(getattr(module, "__dict__", {}).items()):
                assert value is not nn.Module or attr == "Module", (name, attr)
                assert value is not object or attr == "object" or not name.startswith("torch.nn"), (name, attr)
