"""Device flow across calls (issue 10), construct by construct.

Each case is a program and the (line, code) findings at information severity and
above it must get; an empty set means the analysis must stay quiet.  Lines count
from the first line of the snippet (the header is not counted).
"""
import textwrap

import pytest

from torchplace_rules import check_source

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nimport functools\nfrom dataclasses import dataclass\n"
OFFSET = H.count("\n")

SAMPLER = """\
        class Sampler(nn.Module):
            def __init__(self):
                super().__init__()
                self.proj = nn.Linear(3, 3)
            def forward(self, x):
                table = x.detach().cpu()
                idx = self.proj(x).argmax(dim=1)
                return table[idx]
"""

# a module with a lazy cache: None until a call fills it
CACHED = """\
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.cache = None
"""

SCALE = """\
        class Scale(nn.Module):
            def __init__(self, w):
                super().__init__()
                self.w = w
                self.fc = nn.Linear(3, 3)
            def forward(self, x):
                return torch.cat([self.fc(x), self.w])
"""

GAN_LOSS = """\
        class GAN(nn.Module):
            def __init__(self):
                super().__init__()
                self.disc = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())
            def forward(self, x):
                return self.disc(x)
            def adversarial_loss(self, y_hat, y):
                return nn.functional.binary_cross_entropy(y_hat, y)
"""

TABLE = """\
        class Table(nn.Module):
            def __init__(self, w):
                super().__init__()
                self.w = w
            def pick(self, x, idx):
                return x + self.w.index_select(0, idx)
"""

WEIGHTED = """\
        class Weighted(nn.Module):
            def __init__(self, w):
                super().__init__()
                self.w = w
            def forward(self, x, labels):
                return x * self.w.gather(0, labels)
        loss_fn = Weighted(torch.ones(3))
"""

SHAPED = """\
        class Scale(nn.Module):
            def __init__(self, shape):
                super().__init__()
                self.w = nn.Parameter(torch.ones(3))
                self._make(shape)
            def _make(self, shape):
                self.s = torch.full(shape, 2.0).float()
            def use(self):
                return {op}
        m = Scale(cfg.shape).cuda()
"""

WAVE = """\
        class Wave(nn.Module):
            def __init__(self, size=3, device="cpu"):
                super().__init__()
                self.device = device
                self.fc = nn.Linear(size, size)
            def forward(self, x):
                return self.fc(x).to(self.device)
"""

HEAD = """\
        class Head(nn.Module):
            def __init__(self, encoder):
                super().__init__()
                self.encoder = encoder
                self.classifier = nn.Linear(8, 3)
            def forward(self, x):
                return self.classifier(self.encoder(x))
"""

STACK = """\
        class Stack(nn.Sequential):
            def __init__(self):
                super().__init__(nn.Linear(4, 4))
            def forward(self, x):
                return self[0](x)
"""


CASES = {
    # -- values that cross a call ------------------------------------------------------------
    "helper-called-with-cuda-builds-cpu": ("""\
        def add_bias(x):
            return x + torch.ones(3)
        y = add_bias(torch.ones(3, device="cuda"))
        """, {(2, "TP101")}),
    "helper-called-only-with-cpu-is-quiet": ("""\
        def add_bias(x):
            return x + torch.ones(3)
        y = add_bias(torch.ones(3))
        z = add_bias(torch.zeros(3))
        """, set()),
    "finding-in-callee-reported-once": ("""\
        def add_bias(x):
            return x + torch.ones(3)
        a = add_bias(torch.ones(3, device="cuda"))
        b = add_bias(torch.ones(4, device="cuda"))
        """, {(2, "TP101")}),
    "tensor-returned-in-a-tuple": ("""\
        def sample(n):
            idx = torch.randint(0, 10, (n,))
            w = torch.rand(n)
            return idx, w
        t, w = sample(4)
        t.to("cuda")
        """, {(6, "TP201")}),
    "default-argument-is-bound": ("""\
        def make(n, device="cpu"):
            return torch.zeros(n, device=device)
        y = torch.ones(3, device="cuda") + make(3)
        """, {(3, "TP101")}),
    # a number left to its default is a number: arithmetic with it keeps the tensor's device
    "numeric-default-argument-is-a-number": ("""\
        class Shift:
            def __init__(self, eps=1e-6, scale=-1):
                self.eps = eps
                self.scale = scale
            def __call__(self, x):
                return (x + self.eps) * self.scale
        feats = Shift()(torch.ones(shape))
        y = torch.cat([feats, torch.ones(3, device="cuda")])
        """, {(8, "TP101")}),
    "default-argument-overridden": ("""\
        def make(n, device="cpu"):
            return torch.zeros(n, device=device)
        y = torch.ones(3, device="cuda") + make(3, device="cuda")
        """, set()),
    "star-args-and-kwargs-forwarded": ("""\
        def inner(x, scale=None):
            return x * scale
        def outer(*args, **kwargs):
            return inner(*args, **kwargs)
        y = outer(torch.ones(3, device="cuda"), scale=torch.ones(3))
        """, {(2, "TP101")}),
    "nested-function-sees-its-scope": ("""\
        def run(x):
            bias = torch.ones(3)
            def step():
                return x + bias
            return step()
        y = run(torch.ones(3, device="cuda"))
        """, {(4, "TP101")}),
    "partial-binds-arguments": ("""\
        def combine(a, b):
            return a * b
        f = functools.partial(combine, torch.ones(3, device="cuda"))
        y = f(torch.ones(3))
        """, {(2, "TP101")}),
    "recursion-is-bounded": ("""\
        def walk(x, n):
            if n == 0:
                return x
            return walk(x + 1, n - 1)
        y = walk(torch.ones(3, device="cuda"), 5) + torch.ones(3)
        """, set()),
    "generator-yields-its-items": ("""\
        def batches(xs):
            for x in xs:
                yield x.to("cuda")
        for b in batches([torch.ones(3)]):
            y = b + torch.ones(3)
        """, {(5, "TP101")}),
    # -- methods and objects -------------------------------------------------------------------
    "predictor-object-call": ("""\
        class Predictor:
            def __init__(self, model):
                self.model = model.to("cuda")
            def __call__(self, x):
                return self.model(x.to("cuda"))
        predict = Predictor(nn.Linear(3, 3))
        out = predict(torch.ones(1, 3))
        arr = out.numpy()
        """, {(8, "TP104")}),
    # indices on the module's device into a CPU tensor raise where the module is on the GPU only
    "index-on-the-modules-device-into-a-cpu-tensor": (SAMPLER + """\
        m = Sampler().to("cuda")
        y = m(torch.ones(2, 3, device="cuda"))
        """, {(8, "TP101")}),
    "index-on-the-modules-device-module-on-cpu": (SAMPLER + """\
        m = Sampler()
        y = m(torch.ones(2, 3))
        """, set()),
    "method-returns-small-result-object": ("""\
        @dataclass
        class Output:
            logits: torch.Tensor
        class Head:
            def run(self, x):
                return Output(logits=x.to("cuda"))
        out = Head().run(torch.ones(3))
        y = out.logits + torch.ones(3)
        """, {(8, "TP101")}),
    "staticmethod-and-classmethod": ("""\
        class Maker:
            @staticmethod
            def zeros(n):
                return torch.zeros(n)
            @classmethod
            def build(cls, n):
                return cls.zeros(n)
        y = Maker.build(3) + torch.ones(3, device="cuda")
        """, {(8, "TP101")}),
    "property-value": ("""\
        class Box:
            def __init__(self):
                self.t = torch.ones(3, device="cuda")
            @property
            def doubled(self):
                return self.t * 2
        y = Box().doubled + torch.ones(3)
        """, {(7, "TP101")}),
    "attributes-set-by-another-method": ("""\
        class Runner:
            def __init__(self, device):
                self.device = device
            def setup(self, model):
                self.model = model.to(self.device)
            def step(self, x):
                return self.model(x)
        r = Runner("cuda")
        r.setup(nn.Linear(3, 3))
        y = r.step(torch.ones(1, 3))
        """, {(7, "TP102")}),
    "super-init-sets-attributes": ("""\
        class Base:
            def __init__(self, model):
                self.model = model.to("cuda")
        class Trainer(Base):
            def __init__(self, model):
                super().__init__(model)
            def predict(self, x):
                return self.model(x)
        y = Trainer(nn.Linear(3, 3)).predict(torch.ones(1, 3))
        """, {(8, "TP102")}),
    "module-moved-through-another-object": ("""\
        class Holder:
            pass
        def place(holder, model):
            holder.model = model.to("cuda")
        h = Holder()
        place(h, nn.Linear(3, 3))
        y = h.model(torch.ones(1, 3))
        """, {(7, "TP102")}),
    "helper-moves-module-in-place": ("""\
        def setup(m):
            m.to("cuda")
        m = nn.Linear(3, 3)
        setup(m)
        y = m(torch.ones(1, 3))
        """, {(5, "TP102")}),
    "module-method-result-on-module-device": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def embed(self, x):
                return self.fc(x)
        net = Net().to("cuda")
        e = net.embed(torch.ones(1, 3, device="cuda"))
        y = e + torch.ones(1, 3)
        """, {(9, "TP101")}),
    "lazily-filled-cache": ("""\
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.cache = None
                self.fc = nn.Linear(3, 3)
            def forward(self, x):
                if self.cache is None:
                    self.cache = torch.arange(3)
                return self.fc(x) + self.cache
        """, {(8, "TP202")}),
    "placeholder-replaced-before-use": ("""\
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.h = None
                self.fc = nn.Linear(3, 3)
            def forward(self, x):
                self.h = torch.zeros(3, device=x.device)
                return self.fc(x) + self.h
        """, set()),
    "loss-inputs-must-agree": ("""\
        criterion = nn.CrossEntropyLoss()
        out = torch.ones(2, 3, device="cuda")
        loss = criterion(out, torch.tensor([0, 1]))
        """, {(3, "TP101")}),
    "helper-returns-tensor-on-its-arguments-device": ("""\
        def like(x):
            return torch.zeros_like(x)
        y = torch.ones(3, device="cuda") + like(torch.ones(3, device="cuda"))
        """, set()),
    "container-written-under-unknown-key-is-forgotten": ("""\
        def move(batch, device):
            for k in list(batch):
                batch[k] = batch[k].to(device)
            return batch
        b = move({"x": torch.ones(3)}, "cuda")
        y = b["x"] + torch.ones(3, device="cuda")
        """, set()),
    # -- what a module instance keeps in plain attributes -----------------------------------------
    # Module.to() moves parameters, buffers and submodules, not a tensor the constructor was given
    # and kept in a plain attribute: reported where `__init__` keeps it (the use meets the weights)
    "constructor-argument-kept-in-a-plain-attribute": (SCALE + """\
        m = Scale(torch.ones(2, 3)).to("cuda")
        y = m(torch.ones(1, 3, device="cuda"))
        """, {(4, "TP203")}),
    "constructor-argument-already-on-the-gpu": (SCALE + """\
        m = Scale(torch.ones(2, 3, device="cuda")).to("cuda")
        y = m(torch.ones(1, 3, device="cuda"))
        """, set()),
    "constructor-argument-registered-as-a-buffer": (SCALE.replace("self.w = w", 'self.register_buffer("w", w)') + """\
        m = Scale(torch.ones(2, 3)).to("cuda")
        y = m(torch.ones(1, 3, device="cuda"))
        """, set()),
    # a tensor the instance keeps meets a GPU tensor the caller passes: there the op fails
    "plain-attribute-of-an-instance-meets-a-gpu-argument": (TABLE + """\
        t = Table(torch.ones(5, 3))
        y = t.pick(torch.ones(2, 3, device="cuda"), torch.tensor([0, 1], device="cuda"))
        """, {(6, "TP101")}),
    # a class that overrides `to` may move what it keeps itself
    "instance-of-a-class-overriding-to-is-unknown": (TABLE.replace("            def pick", """\
            def to(self, device):
                self.w = self.w.to(device)
                return super().to(device)
            def pick""") + """\
        t = Table(torch.ones(5, 3))
        y = t.pick(torch.ones(2, 3, device="cuda"), torch.tensor([0, 1], device="cuda"))
        """, set()),
    # a module with no parameters runs where its input is; what it keeps is where `__init__` put it
    "module-without-parameters-keeps-a-cpu-attribute": (WEIGHTED + """\
        y = loss_fn(torch.ones(4, device="cuda"), torch.zeros(4, dtype=torch.long, device="cuda"))
        """, {(6, "TP101")}),
    "module-without-parameters-input-on-the-cpu": (WEIGHTED + """\
        y = loss_fn(torch.ones(4), torch.zeros(4, dtype=torch.long))
        """, set()),
    # a tensor a helper method of `__init__` makes however it likes (`.view(...)` of a factory):
    # a plain CPU attribute like one `__init__` makes itself
    "plain-attribute-made-in-an-init-helper": ("""\
        class Kernel(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.n = n
                self.w = nn.Parameter(torch.ones(1, n))
                self._tmp_variables()
            def _tmp_variables(self):
                self.idx = torch.arange(self.n).view(1, -1)
            def kernel(self):
                return self.w - self.idx
        k = Kernel(3).cuda()
        """, {(8, "TP203")}),
    # ... one of unknown rank (it may be 0-dim) is evidence where it meets them in an op that wants
    # every operand on one device, not in arithmetic (a 0-dim CPU tensor meets a CUDA one there)
    "plain-attribute-of-unknown-rank-in-arithmetic": (SHAPED.format(op="self.w * self.s"), set()),
    "plain-attribute-of-unknown-rank-joined": (SHAPED.format(op="torch.cat([self.w, self.s])"), {(7, "TP203")}),
    # module code runs `__init__` for its instances whatever the arguments (the classes' own
    # analysis comes after it): a device attribute from a default stays where the default says
    "device-attribute-from-a-default-at-module-level": ("""\
        class Wave(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                self.device = device if device is not None else torch.device("cpu")
                self.fc = nn.Linear(3, 3)
            def forward(self, x):
                return self.fc(x).to(self.device)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.wave = Wave()
                self.head = nn.Linear(3, 2)
            def forward(self, x):
                return self.head(self.wave(x))
        net = Net().to("cuda")
        y = net(torch.ones(1, 3, device="cuda"))
        """, {(14, "TP102")}),
    # ... and in a function, where an instance made with nothing known is run for its defaults
    # when a device default says more than the class's own analysis assumes
    "device-attribute-from-a-default-in-a-function": (WAVE + """\
        def run(size):
            net = Wave(size).to("cuda")
            head = nn.Linear(3, 2).to("cuda")
            return head(net(torch.ones(1, 3, device="cuda")))
        """, {(11, "TP102")}),
    "device-attribute-passed-by-the-caller": (WAVE + """\
        def run(size):
            net = Wave(size, device="cuda").to("cuda")
            head = nn.Linear(3, 2).to("cuda")
            return head(net(torch.ones(1, 3, device="cuda")))
        """, set()),
    "device-attribute-of-a-class-overriding-to": (WAVE.replace("            def forward", """\
            def to(self, device):
                self.device = device
                return super().to(device)
            def forward""") + """\
        net = Wave().to("cuda")
        y = nn.Linear(3, 2).to("cuda")(net(torch.ones(1, 3, device="cuda")))
        """, set()),
    # a tensor made on the CPU for one instance only (`device="cpu"` by default) is evidence where the
    # flow sees it meet the module's tensors, not wherever `forward` reads it (here the input is moved)
    "cpu-attribute-of-one-instance-used-after-moving-the-input": ("""\
        class Spec(nn.Module):
            def __init__(self, device="cpu"):
                super().__init__()
                self.device = device
                self.window = torch.ones(4).to(device)
            def forward(self, x):
                x = x.to(self.device)
                return x * self.window
        m = Spec().cuda()
        y = m(torch.ones(4, device="cuda"))
        """, set()),
    # `obj.device` of a module whose `__init__` stored `self.device` is that attribute (nn.Module has
    # no `device`): a module without parameters is not "on" the CPU for it
    "device-attribute-stored-by-init-read-outside": ("""\
        class Features(nn.Module):
            def __init__(self):
                super().__init__()
                self.device = "cuda" if torch.cuda.is_available() else "cpu"
            def search(self, query, bank):
                idx = torch.cdist(query, bank.to(self.device)).argmin(dim=1)
                return bank.cpu()[idx]
        feats = Features()
        y = feats.search(torch.randn(4, 8, device=feats.device), torch.randn(16, 8))
        """, {(7, "TP101")}),
    # einsum's equation is no operand (its result is where the operands are); einops reshapes a
    # tensor where it is: a CPU bias added to attention scores made from them raises
    "einsum-result-is-on-its-operands": ("""\
        def scores(q, k):
            return torch.einsum("b h i d, b h j d -> b h i j", q, k)
        q = torch.randn(2, 2, 5, 4, device="cuda")
        y = scores(q, q) + torch.zeros(1, 2, 5, 5)
        """, {(4, "TP101")}),
    "einops-rearrange-keeps-the-device": ("""\
        from einops import rearrange
        q = torch.randn(2, 5, 8, device="cuda")
        y = rearrange(q, "b n (h d) -> b h n d", h=2) + torch.zeros(1, 2, 5, 4)
        """, {(3, "TP101")}),
    "einops-of-an-unknown-value-is-unknown": ("""\
        import einops
        def f(x):
            return einops.rearrange(x, "b c -> c b") + torch.zeros(3, 3)
        """, set()),
    # `self.to(device)` (or `self = self.to(device)`) in `__init__` moves the instance: it is where the
    # call's argument says, not unknown
    "module-moved-by-its-own-init": ("""\
        class Encoder(nn.Module):
            def __init__(self, device):
                super().__init__()
                self.mlp = nn.Linear(4, 4)
                self.to(device)
            def forward(self, x, idx):
                return torch.gather(self.mlp(x), 1, idx)
        enc = Encoder(torch.device("cuda"))
        y = enc(torch.randn(2, 4, device="cuda"), torch.zeros(2, 4, dtype=torch.long))
        """, {(9, "TP102")}),
    "module-rebinding-self-to-its-moved-self": ("""\
        class Encoder(nn.Module):
            def __init__(self, device):
                super().__init__()
                self.mlp = nn.Linear(4, 4)
                self.device = device
                self = self.to(device)
            def forward(self, x, idx):
                return torch.gather(self.mlp(x), 1, idx)
        enc = Encoder(torch.device("cuda"))
        y = enc(torch.randn(2, 4, device="cuda"), torch.zeros(2, 4, dtype=torch.long))
        """, {(10, "TP102")}),
    "module-moved-by-its-own-init-after-choosing-the-device": ("""\
        class Encoder(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                self.mlp = nn.Linear(4, 4)
                if device is None:
                    device = "cuda" if torch.cuda.is_available() else "cpu"
                self.to(device)
        enc = Encoder()
        y = enc.mlp(torch.randn(2, 4))
        """, {(9, "TP102")}),
    # on some paths only, or with a layer made after it, the instance's device is not known
    "module-moved-by-its-own-init-on-one-path": ("""\
        class Encoder(nn.Module):
            def __init__(self, device, move):
                super().__init__()
                self.mlp = nn.Linear(4, 4)
                if move:
                    self.to(device)
        enc = Encoder(torch.device("cuda"), False)
        y = enc.mlp(torch.randn(2, 4))
        """, set()),
    "module-with-a-layer-made-after-its-own-move": ("""\
        class Encoder(nn.Module):
            def __init__(self, device):
                super().__init__()
                self.mlp = nn.Linear(4, 4)
                self.to(device)
                self.head = nn.Linear(4, 2)
        enc = Encoder(torch.device("cuda"))
        y = enc.head(torch.randn(2, 4))
        """, set()),
    # a lambda is a function: called where it is stored (an attribute, a name, `map`), its body runs
    # for that call, seeing the scope it was made in
    "lambda-held-in-an-attribute-reads-a-stale-device": ("""\
        class Biquad(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                self.device = device
                self.param = nn.Parameter(torch.randn(4, 2))
                self.map = lambda x: torch.clamp(x, min=torch.zeros(4, 2, device=self.device))
            def forward(self, x):
                return x * self.map(self.param)
        m = Biquad().to("cuda")
        y = m(torch.ones(4, 2, device="cuda"))
        """, {(6, "TP101")}),
    "lambda-called-by-name-sees-its-closure": ("""\
        def run(x):
            bias = torch.zeros(3)
            shift = lambda t: t + bias
            return shift(x)
        y = run(torch.ones(3, device="cuda"))
        """, {(3, "TP101")}),
    "map-of-a-lambda-over-a-tuple": ("""\
        def heads(x):
            q, k = x.chunk(2, dim=-1)
            q, k = map(lambda t: t.reshape(2, 3, -1), (q, k))
            return q + torch.zeros(2, 3, 2)
        y = heads(torch.ones(2, 3, 4, device="cuda"))
        """, {(4, "TP101")}),
    "lambda-moving-its-argument": ("""\
        to_gpu = lambda t: t.to("cuda")
        y = to_gpu(torch.ones(3)) + torch.ones(3, device="cuda")
        """, set()),
    # a CPU tensor a module's method makes and hands to another method of the same module (`self.loss`),
    # which combines it with the module's output: created in the first, failing in the second
    "cpu-tensor-made-in-a-method-passed-to-a-method-on-self": (GAN_LOSS + """\
            def discriminator_loss(self, x):
                fake = torch.zeros(x.size(0), 1)
                fake = fake.type_as(fake)
                return self.adversarial_loss(self.disc(x), fake)
        gan = GAN().to("cuda")
        """, {(10, "TP202")}),
    # the same method called on another object: what it is passed is that caller's business
    "cpu-tensor-passed-to-a-method-of-another-object": (GAN_LOSS + """\
        def score(gan, x):
            return gan.adversarial_loss(gan(x), torch.zeros(x.size(0), 1))
        gan = GAN().to("cuda")
        """, set()),
    "device-attribute-stored-by-init-cpu-stays": ("""\
        class Features(nn.Module):
            def __init__(self):
                super().__init__()
                self.device = "cpu"
            def search(self, query, bank):
                idx = torch.cdist(query, bank.to(self.device)).argmin(dim=1)
                return bank.cpu()[idx]
        feats = Features()
        y = feats.search(torch.randn(4, 8, device=feats.device), torch.randn(16, 8))
        """, set()),
    # a list a module's method returns is a list on every path: `weights is None` is false in the callee
    "list-returned-by-a-module-method-is-not-none": ("""\
        class Maker(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def make(self):
                out = []
                out.append(self.fc.weight.detach().cpu())
                return out
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def forward(self, x, weights=None):
                if weights is None:
                    weights = [self.fc.weight]
                return torch.nn.functional.linear(x, weights[0])
        net = Net().to("cuda")
        y = net(torch.ones(2, 3, device="cuda"), weights=Maker().to("cuda").make())
        """, {(16, "TP101")}),
    # -- a dict the caller filled in before passing it -----------------------------------------
    # `config["device"] = ...` binds an entry of the caller's dict: the callee gets the dict with it
    "dict-entry-stored-before-the-call-reaches-the-callee": ("""\
        def build(options):
            net = nn.Linear(3, 3).to(options["device"])
            return net(torch.zeros(2, 3))
        config = {"epochs": 1}
        config["device"] = torch.device("cuda")
        y = build(config)
        """, {(3, "TP102")}),
    "dict-entry-stored-before-the-call-on-the-cpu-is-quiet": ("""\
        def build(options):
            net = nn.Linear(3, 3).to(options["device"])
            return net(torch.zeros(2, 3))
        config = {"epochs": 1}
        config["device"] = torch.device("cpu")
        y = build(config)
        """, set()),
    # -- a module that holds modules placed apart from it ------------------------------------
    # Head(encoder) of an encoder already on the GPU is on no one device: never moved, its own
    # classifier is still on the CPU, and forward feeds it the encoder's CUDA output
    "never-moved-wrapper-of-a-placed-module-keeps-its-own-layers-on-the-cpu": (HEAD + """\
        encoder = nn.Linear(4, 8).to("cuda")
        head = Head(encoder)
        y = head(torch.randn(2, 4, device="cuda"))
        """, {(7, "TP102")}),
    "wrapper-of-a-placed-module-moved-as-a-whole-is-quiet": (HEAD + """\
        encoder = nn.Linear(4, 8).to("cuda")
        head = Head(encoder).to("cuda")
        y = head(torch.randn(2, 4, device="cuda"))
        """, set()),
    "wrapper-of-a-placed-module-moved-to-an-unknown-device-is-quiet": (HEAD + """\
        def run(device):
            encoder = nn.Linear(4, 8).to("cuda")
            head = Head(encoder)
            head.to(device)
            return head(torch.randn(2, 4, device="cuda"))
        """, set()),
    # where another move may have happened, the wrapper is not taken as made
    "wrapper-whose-layer-the-caller-moved-is-quiet": (HEAD + """\
        encoder = nn.Linear(4, 8).to("cuda")
        head = Head(encoder)
        head.classifier.to("cuda")
        y = head(torch.randn(2, 4, device="cuda"))
        """, set()),
    "wrapper-handed-to-an-unknown-function-is-quiet": (HEAD + """\
        import somelib
        encoder = nn.Linear(4, 8).to("cuda")
        head = Head(encoder)
        somelib.prepare(head)
        y = head(torch.randn(2, 4, device="cuda"))
        """, set()),
    "wrapper-a-function-moves-is-quiet-where-another-calls-it": (HEAD + """\
        head = Head(nn.Linear(4, 8).to("cuda"))
        def setup():
            head.to("cuda")
        def evaluate():
            return head(torch.randn(2, 4, device="cuda"))
        """, set()),
    "wrapper-of-a-class-with-a-method-moving-itself-is-quiet": (HEAD + """\
            def place(self):
                self.to("cuda")
        head = Head(nn.Linear(4, 8).to("cuda"))
        head.place()
        y = head(torch.randn(2, 4, device="cuda"))
        """, set()),
    # -- subclasses of nn.Sequential: `self[i]` is a member, where the instance is -------------
    # the members `super().__init__(...)` registered are known: a Linear gives its output where it
    # is, whatever the input (here one of unknown device)
    "registered-member-of-a-sequential-subclass-gives-its-output-on-the-device": (STACK + """\
        stack = Stack().to("cuda")
        def run(x):
            return stack(x) + torch.ones(2, 4)
        """, {(8, "TP101")}),
    # a member added after `__init__` registered them (here a ReLU, whose output is where its
    # input is) is not one of the known members
    "member-appended-to-a-sequential-subclass-is-not-known": ("""\
        class Stack(nn.Sequential):
            def __init__(self):
                super().__init__(nn.Linear(4, 4))
                self.append(nn.ReLU())
            def forward(self, x):
                return self[1](x)
        stack = Stack().to("cuda")
        def run(x):
            return stack(x) + torch.ones(2, 4)
        """, set()),

    # an instance never moved, all it holds on the CPU, called with a CPU input: "the module's device"
    # is the CPU in that call, so its layers' output meets a tensor a helper put on the GPU
    "unmoved-module-output-meets-a-helpers-cuda-tensor": ("""\
        def mask(n):
            return torch.ones(n, n, device="cuda").unsqueeze(0)
        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)
                self.mask = mask
            def forward(self, x):
                q = self.q(x)
                return torch.bmm(q, q.transpose(1, 2)) + self.mask(3)
        if __name__ == "__main__":
            Attn()(torch.randn(2, 3, 4))
        """, {(10, "TP101")}),
    # twins: a layer `__init__` put on the GPU itself, or the instance moved, or a GPU device it holds
    "module-with-a-layer-placed-in-init-is-not-on-the-cpu": ("""\
        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4).to("cuda")
            def forward(self, x):
                q = self.q(x.to("cuda"))
                return torch.bmm(q, q.transpose(1, 2)) + torch.ones(2, 3, 3, device="cuda")
        if __name__ == "__main__":
            Attn()(torch.randn(2, 3, 4))
        """, set()),
    "moved-module-output-meets-a-cuda-tensor": ("""\
        class Attn(nn.Module):
            def __init__(self):
                super().__init__()
                self.q = nn.Linear(4, 4)
            def forward(self, x):
                q = self.q(x)
                return torch.bmm(q, q.transpose(1, 2)) + torch.ones(2, 3, 3, device="cuda")
        if __name__ == "__main__":
            Attn().to("cuda")(torch.randn(2, 3, 4, device="cuda"))
        """, set()),
    # a head assigned after the model was moved is where it was made: its method's layers get the
    # GPU input on the CPU (Module.to moved what the model held then, not what is assigned later)
    "head-assigned-after-the-move-gets-a-cuda-input": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 4)
            def act(self, state):
                return self.enc(state)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
        model = Net()
        model.to("cuda")
        model.head = Head()
        y = model.head.act(torch.ones(2, 4, device="cuda"))
        """, {(6, "TP102")}),
    "head-assigned-before-the-move-moves-with-it": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 4)
            def act(self, state):
                return self.enc(state)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
        model = Net()
        model.head = Head()
        model.to("cuda")
        y = model.head.act(torch.ones(2, 4, device="cuda"))
        """, set()),
    # the model's method hands its GPU input (on "the module's device" there) to the head it holds:
    # in the head's method that input is on the GPU, not on the head's device
    "input-handed-to-a-head-assigned-after-the-move": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 4)
            def act(self, state):
                return self.enc(state)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
            def run(self, x):
                return self.head.act(x)
        def main():
            model = Net()
            model.to("cuda")
            model.head = Head()
            return model.run(torch.ones(2, 4, device="cuda"))
        """, {(6, "TP102")}),
    "input-handed-to-a-head-assigned-before-the-move": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 4)
            def act(self, state):
                return self.enc(state)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = Head()
            def run(self, x):
                return self.head.act(x)
        def main():
            model = Net()
            model.head = Head()
            model.to("cuda")
            return model.run(torch.ones(2, 4, device="cuda"))
        """, set()),
    # Object state across calls (issue 10 item 2): what a call leaves in a plain attribute is where that
    # call put it; a later `Module.to()` moves parameters, buffers and submodules, not it.
    "lazy-cache-of-a-first-cpu-call-read-after-the-move": (CACHED + """\
            def forward(self, x):
                if self.cache is None:
                    self.cache = [torch.zeros(2, 4, device=x.device)]
                return self.fc(x) + self.cache[0]
        m = M()
        m(torch.ones(2, 4))
        m.cuda()
        m(torch.ones(2, 4, device="cuda"))
        """, {(9, "TP101")}),
    # (an attribute still None when the call is made: the first call takes the filling branch only)
    "lazy-cache-first-call-fills-it-where-its-input-is": (CACHED + """\
            def forward(self, x):
                if self.cache is not None:
                    return self.fc(x) + self.cache[0]
                self.cache = [torch.zeros(2, 4, device=x.device)]
                return self.fc(x) + self.cache[0]
        m = M().cuda()
        m(torch.ones(2, 4, device="cuda"))
        m(torch.ones(2, 4, device="cuda"))
        """, set()),
    "attribute-a-submodule-call-set-read-by-a-sibling-method": ("""\
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.sim = None
            def forward(self, x):
                h = self.fc(x)
                self.sim = h.detach()
                return h
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = Enc()
            def fetch(self):
                return self.enc.sim.cpu()
            def forward(self, x):
                h = self.enc(x)
                return torch.cat([h, self.fetch()])
        net = Net().cuda()
        net(torch.ones(2, 4, device="cuda"))
        """, {(18, "TP101")}),
    "caller-set-attribute-used-in-a-module-moved-after": (CACHED + """\
            def forward(self, x):
                return self.fc(x) + self.cache
        m = M()
        m.cache = torch.zeros(2, 4)
        m.cuda()
        m(torch.ones(2, 4, device="cuda"))
        """, {(7, "TP101")}),
    "head-whose-layer-init-put-on-the-gpu": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc = nn.Linear(4, 4).to("cuda")
            def act(self, state):
                return self.enc(state)
        head = Head()
        y = head.act(torch.ones(2, 4, device="cuda"))
        """, set()),

}


@pytest.mark.parametrize("name", sorted(CASES))
def test_interprocedural(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


def test_a_callee_finding_names_the_call_site():
    source = H + textwrap.dedent("""\
        def add_bias(x):
            return x + torch.ones(3)
        y = add_bias(torch.ones(3, device="cuda"))
        """)
    finding = next(f for f in check_source(source, "flow.py") if f.code == "TP101")
    assert (3 + OFFSET - 1, "in this call") in [(r.span.start_line, r.message) for r in finding.related]
