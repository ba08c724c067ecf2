"""False findings of the engine branch's precision review (benchmarks/README.md, "Interprocedural
engine after merging main"), each as a regression snippet with a true twin.  Lines count from the
snippet; warnings count (assert_findings keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import os\nimport torch\nimport torch.nn as nn\n"
CASES = {
    # TP204: the module whose state is loaded and the checkpoint's directory went to an earlier call
    "early-stopping-wrote-the-checkpoint": ("""\
        def train(model, path, stopper, device):
            model.to(device)
            stopper(0.1, model, path)
            best = path + "/" + "checkpoint.pth"
            model.load_state_dict(torch.load(best))
        train(nn.Linear(2, 2), "ckpt", print, torch.device("cuda"))
        """, set()),
    "test-only-load-of-an-earlier-run": ("""\
        def test(model, setting, device):
            model.to(device)
            model.load_state_dict(torch.load(os.path.join("./checkpoints/" + setting, "checkpoint.pth")))
        test(nn.Linear(2, 2), "s", torch.device("cuda"))
        """, {(3, "TP204")}),
    # TP202: while the module is built its tensors are not moved yet
    "factory-combined-in-init": ("""\
        class Diffusion(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.ones(4))
                betas = self.coefficients() * self.scale
                self.register_buffer("betas", betas)

            def coefficients(self):
                return torch.linspace(0.1, 0.2, 4)

            def forward(self, x):
                return x * self.betas
        Diffusion().cuda()(torch.ones(4, device="cuda"))
        """, set()),
    "factory-combined-in-forward": ("""\
        class Diffusion(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.ones(4))

            def forward(self, x):
                return x * self.scale * torch.linspace(0.1, 0.2, 4)
        Diffusion().cuda()(torch.ones(4, device="cuda"))
        """, {(7, "TP202")}),
    # TP203: a list of the instance's own (registered) submodules is no plain module list
    "list-of-own-attributes": ("""\
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.b1 = nn.Linear(4, 4)
                self.b2 = nn.Linear(4, 4)
                self.blocks = [self.b1, self.b2]

            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x
        Block().cuda()(torch.ones(4, device="cuda"))
        """, set()),
    # .type(T) with T of unknown device: the tensor's device is unknown, not "where it was"
    "type-with-a-conditional-tensor-type": ("""\
        cuda = torch.cuda.is_available()
        Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
        alpha = torch.rand(4).cuda()
        def penalty(imgs):
            real = imgs.type(Tensor)
            return alpha * real
        for imgs in torch.utils.data.DataLoader(torch.ones(8, 4)):
            penalty(imgs)
        """, {(3, "TP301")}),  # (the information note on `alpha`; no TP103/TP101 on `real`)
    # TP102 (review of this session's merged engine: MONAI's FocalLoss/DiceLoss tests): a module whose only
    # state is buffers fails only where its forward combines them with the input; MONAI moves them first
    "buffer-only-module-moves-its-buffer-in-forward": ("""\
        class WeightedLoss(nn.Module):
            def __init__(self, weight=None):
                super().__init__()
                self.register_buffer("w", torch.as_tensor(weight) if weight is not None else None)
            def forward(self, x, y):
                if self.w is not None:
                    self.w = self.w.to(x)
                return ((x - y) ** 2).mean()
        x = torch.ones(2, 3, device="cuda")
        loss = WeightedLoss(1.0)(x, x)
        """, set()),
    "module-with-parameters-never-moved": ("""\
        class Head(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
                self.register_buffer("w", torch.ones(3))
            def forward(self, x):
                return self.fc(x)
        y = Head()(torch.ones(2, 3, device="cuda"))
        """, {(8, "TP102")}),
    # TP203 (speechbrain SrpPhat/Music): a plain attribute handed by keyword to a staticmethod of the
    # class that moves it (`doas = doas.to(XXs.device)`) before any use
    "plain-attribute-moved-by-a-staticmethod-it-is-passed-to": ("""\
        class Locate(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)
                self.doas = torch.randn(4, 3)
            def forward(self, x):
                return Locate._pick(self.lin(x), doas=self.doas)
            @staticmethod
            def _pick(scores, doas):
                doas = doas.to(scores.device)
                return scores @ doas.T
        model = Locate().to("cuda")
        """, set()),
    "plain-attribute-used-by-a-staticmethod-it-is-passed-to": ("""\
        class Locate(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(3, 3)
                self.doas = torch.randn(4, 3)
            def forward(self, x):
                return Locate._pick(self.lin(x), doas=self.doas)
            @staticmethod
            def _pick(scores, doas):
                return scores @ doas.T
        model = Locate().to("cuda")
        """, {(5, "TP203")}),
    # TP203 (trl's ULDLoss): the class moves the tensor to the device its caller gives, in a helper
    # __init__ calls; `__call__` uses it with tensors on its input's device
    "attribute-moved-to-the-constructor-device": ("""        class Loss(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                self.device = device
                self._build()
            def _build(self):
                self.mapping = torch.full((5,), -1, dtype=torch.long)
                if self.device is not None:
                    self.mapping = self.mapping.to(self.device)
            def __call__(self, logits):
                idx = torch.tensor([1, 2], device=logits.device)
                return self.mapping[idx]
        Loss(device="cuda")(torch.ones(3, device="cuda"))
        """, set()),
    "attribute-moved-to-the-cpu-is-still-plain": ("""        class Loss(nn.Module):
            def __init__(self, device=None):
                super().__init__()
                self.device = device
                self.mapping = torch.full((5,), -1, dtype=torch.long)
                self.mapping = self.mapping.to("cpu")
            def forward(self, logits):
                return self.mapping[torch.tensor([1, 2], device=logits.device)]
        """, {(5, "TP203")}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_review_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


def test_attribute_reshaped_then_moved_is_no_evidence():
    """Pyraformer: `self.indexes.repeat(...).to(x.device)` moves the attribute where it is used."""
    assert_findings(H, """\
        def refer_points(n):
            return torch.zeros(n, 4, dtype=torch.long).unsqueeze(0)

        class Encoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.indexes = refer_points(3)

            def forward(self, x):
                seq = self.fc(x)
                indexes = self.indexes.repeat(seq.size(0), 1, 1).to(seq.device)
                return torch.gather(seq, 1, indexes)
        Encoder().cuda()(torch.ones(2, 3, 4, device="cuda"))
        """, set())
