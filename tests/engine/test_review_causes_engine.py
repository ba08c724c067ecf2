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
