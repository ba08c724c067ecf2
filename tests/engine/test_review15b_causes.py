"""False findings of the s15 fresh precision review of 13 more repositories, review15b's domain
(benchmarks/review/false_finding_causes.md, causes W1 to W5), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above).
W1 has truth-table rows (tests/engine/test_truth_table.py)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nimport torch.distributed as dist\n"

BANK = """\
    class Bank(nn.Module):
        def __init__(self, size):
            super().__init__()
            self.size = size
            self.register_buffer("bank", torch.randn(size, 8))
            self.register_buffer("ptr", torch.zeros(1, dtype=torch.long))

        def forward(self, output, update=False):
            bank = self.bank.clone().detach()
            if update:
                self._enqueue(output)
            return output, bank

        @torch.no_grad()
        def _enqueue(self, batch):
            if dist.is_initialized():
                batch = gather(batch)
            n = batch.shape[0]
            p = int(self.ptr)
            self.bank[p:p + n] = batch.detach()
            self.ptr[0] = p + n


    def gather(x):
        out = [torch.empty_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(out, x)
        return torch.cat(out, dim=0)


    device = "cuda" if torch.cuda.is_available() else "cpu"
    bank = Bank(64)
    model = nn.Linear(4, 8).to(device)
    x = model(torch.randn(2, 4, device=device))
    bank(x, update=True)
"""

HEAD = """\
    class Detect(nn.Module):
        def __init__(self, nl):
            super().__init__()
            self.conv = nn.Conv2d(8, 8, 1)
            self.stride = torch.zeros(nl)

        def forward(self, x):
            return self.conv(x) * self.stride[0]


    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = nn.Sequential(nn.Conv2d(3, 8, 1), Detect(3))
            self.model[-1].stride = torch.tensor([8.0, 16.0, 32.0])

        def _apply(self, fn):
            self = super()._apply(fn)
            m = self.model[-1]
            m.stride = fn(m.stride)
            return self

        def forward(self, x):
            return self.model(x)


    model = Model().to("cuda")
    y = model(torch.randn(1, 3, 4, 4, device="cuda"))
"""

POS = """\
    class PosEnc(nn.Module):
        def __init__(self, dim, n, sep, has_cls):
            super().__init__()
            self.cls_on = has_cls
            self.sep = sep
            if sep:
                self.spatial = nn.Parameter(torch.zeros(1, n, dim))
                if has_cls:
                    self.cls = nn.Parameter(torch.zeros(1, 1, dim))
                else:
                    self.cls = torch.tensor([])  # for torchscriptability
                self.pos = torch.tensor([])
            else:
                self.pos = nn.Parameter(torch.zeros(1, n, dim))
                self.spatial = torch.tensor([])
                self.cls = torch.tensor([])

        def forward(self, x):
            if self.sep:
                pos = self.spatial.repeat(1, 1, 1)
                if self.cls_on:
                    pos = torch.cat([self.cls, pos], 1)
                x = x + pos
            else:
                x = x + self.pos
            return x


    m = PosEnc(8, 4, True, False).to("cuda")
    m(torch.randn(2, 4, 8, device="cuda"))
"""

SCHEDULE = """\
    class DINOLoss(nn.Module):
        def __init__(self, out_dim=16, warm=0.04, temp=0.07, warm_epochs=30):
            super().__init__()
            self.warm_epochs = warm_epochs
            self.register_buffer("center", torch.zeros(1, out_dim))
            self.schedule = torch.linspace(start=warm, end=temp, steps=warm_epochs)

        def forward(self, teacher_out, epoch: int):
            if epoch < self.warm_epochs:
                t = self.schedule[epoch]
            else:
                t = torch.tensor(0.07)
            return torch.softmax((teacher_out - self.center) / t, dim=-1)


    loss_fn = DINOLoss().to("cuda")
    loss = loss_fn(torch.randn(4, 16, device="cuda"), 3)
"""

CASES = {
    # W1: a CPU memory bank called with a device batch: `forward` hands the batch back and copies it
    # into a slice of its buffer (`copy_`, across devices), after a gather that only sends it (lightly)
    "memory-bank-copies-the-input-into-a-slice": (BANK, set()),
    "memory-bank-adds-its-buffer-to-the-input": (
        BANK.replace("return output, bank", "return output + bank[:2], bank"), {(34, "TP102")}),
    "memory-bank-writes-rows-picked-by-a-tensor": (
        BANK.replace("self.bank[p:p + n] = batch.detach()", "self.bank[torch.arange(p, p + n)] = batch.detach()")
        .replace("batch = gather(batch)", "dist.barrier()"),
        {(34, "TP102")}),
    "memory-bank-gather-combines-with-the-buffer": (
        BANK.replace("out = [torch.empty_like(x) for _ in range(dist.get_world_size())]",
                     "out = [x + torch.ones(8) for _ in range(dist.get_world_size())]"), {(34, "TP102")}),
    # W2: a detection head's plain `self.stride`, moved by the owning model's `_apply` override (YOLOv9)
    "head-attribute-moved-by-the-owner-apply": (HEAD, set()),
    "head-attribute-no-owner-moves": (HEAD.replace("m.stride = fn(m.stride)", "m.other = fn(m.stride)"), {(5, "TP203")}),
    # W3: placeholders set on the branch of a flag whose `forward` never reads them (PyTorchVideo)
    "placeholder-read-only-under-the-flag": (POS, set()),
    "plain-branch-read-unconditionally": (POS.replace("            return x\n", "            return x + self.spatial\n"),
                                          {(15, "TP203")}),
    "learnable-or-plain-weight-read-unconditionally": ("""\
        class Scale(nn.Module):
            def __init__(self, learn):
                super().__init__()
                if learn:
                    self.w = nn.Parameter(torch.ones(8))
                else:
                    self.w = torch.ones(8)

            def forward(self, x):
                return x * self.w
        m = Scale(False).to("cuda")
        m(torch.randn(2, 8, device="cuda"))
        """, {(7, "TP203")}),
    # W4: a 1-D schedule read one item at a time (`self.schedule[epoch]`: 0-dim) (lightly DINOLoss)
    "schedule-read-one-item": (SCHEDULE, set()),
    "schedule-read-as-a-slice": (SCHEDULE.replace("self.schedule[epoch]", "self.schedule[epoch:epoch + 1]"), {(6, "TP203")}),
    "schedule-read-at-tensor-indices": (SCHEDULE.replace("epoch: int", "epoch"), {(6, "TP203")}),
    "schedule-read-whole": (SCHEDULE.replace("t = self.schedule[epoch]", "t = self.schedule.mean() + self.schedule"),
                            {(6, "TP203")}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_review15b_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected, hints_of=("TP203",))  # (TP203 from forward's text alone is a hint)


UTILS = """\
    import torch
    import torch.distributed as dist


    def gather(x):
        out = [torch.empty_like(x) for _ in range(dist.get_world_size())]
        dist.all_gather(out, x)
        return torch.cat(out, dim=0)


    def mix(x, w):
        return x * w
"""


@pytest.mark.parametrize("helper, expected", [("gather(batch)", []), ("mix(batch, self.bank)", [(34, "TP102")])])
def test_w1_an_argument_is_followed_into_a_function_of_an_imported_module(tmp_path, helper, expected):
    """`utils.gather(batch)`, a function of a project module imported whole (lightly's
    `utils.concat_all_gather`), is read like a function imported by name."""
    import textwrap

    from torchplace_rules import Config, check_path
    from torchplace_rules.project_index import ProjectIndex

    main = H + "import utils\n" + textwrap.dedent(BANK).replace("batch = gather(batch)", "batch = utils." + helper)
    main = main.replace("def gather(x):", "def _unused(x):")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "utils.py").write_text(textwrap.dedent(UTILS))
    (tmp_path / "main.py").write_text(main)
    got = [(f.span.start_line + 1 - H.count("\n") - 1, f.code)
           for f in check_path(tmp_path / "main.py", Config(), project=ProjectIndex(tmp_path)) if f.code.startswith("TP1")]
    assert got == expected


def test_w2_module_to_goes_through_an_apply_override():
    """PyTorch side of W2: `Module.to()`/`.double()` call `_apply(fn)`, so an override that re-binds a
    submodule's plain tensor to `fn(...)` moves (here: converts) it with the parameters."""
    import torch
    from torch import nn

    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.stride = torch.zeros(3)

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.model = nn.Sequential(nn.Linear(2, 2), Head())

        def _apply(self, fn, *args, **kwargs):
            self = super()._apply(fn, *args, **kwargs)
            m = self.model[-1]
            m.stride = fn(m.stride)
            return self

    model = Model().double()
    assert model.model[-1].stride.dtype == torch.float64
    assert Head().double().stride.dtype == torch.float32  # without the override it stays
