"""Context that changes a finding's meaning (issue 11, item 3): each false finding of the public
repository review whose cause is context or a rule's own test (`benchmarks/review/
false_finding_causes.md`, causes 2, 4, 5, 7, 9, 11-15) stays quiet at warning level and above,
and a true-positive twin of each snippet is still reported.  Every snippet is our own code."""
import ast
import textwrap

import pytest

from torchplace_rules import Severity, apply_fixes, check_source
from torchplace_rules.rule_support import accepts_device


def loud(source: str, path: str = "snippet.py") -> set:
    return {(f.span.start_line + 1, f.code) for f in check_source(textwrap.dedent(source), path)
            if f.severity <= Severity.WARNING}


# s12 review cause F (SPADE): save and load helpers share the file's format template; the writer saves
# the state moved to the CPU (`net.cpu().state_dict()`), so the file holds CPU tensors
SAVE_LOAD_HELPERS = """
        import os
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"


        def save_network(net, label, epoch, opt):
            save_path = os.path.join(opt.checkpoints_dir, opt.name, "%s_net_%s.pth" % (epoch, label))
            torch.save(net.cpu().state_dict(), save_path)


        def load_network(net, label, epoch, opt):
            save_filename = "%s_net_%s.pth" % (epoch, label)
            save_dir = os.path.join(opt.checkpoints_dir, opt.name)
            weights = torch.load(os.path.join(save_dir, save_filename))
            net.load_state_dict(weights)
            return net
    """


QUIET = {
    "c02-saved-then-loaded-same-literal": """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        for epoch in range(3):
            torch.save(model.state_dict(), "best_model.pt")
        model.load_state_dict(torch.load("best_model.pt"))
    """,
    "c02-tmp-path-of-the-test": """
        import torch
        import torch.nn as nn

        device = "cuda" if torch.cuda.is_available() else "cpu"


        def test_checkpoint_roundtrip(tmp_path, trainer):
            model = nn.Linear(4, 2).to(device)
            path = tmp_path / "save_test.ckpt"
            trainer.save_checkpoint(path)
            checkpoint = torch.load(path, weights_only=True)
            assert "state_dict" in checkpoint
    """,
    "c02-format-template": """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        best_epoch = 0
        for epoch in range(10):
            torch.save(model.state_dict(), '{}.pkl'.format(epoch))
        model.load_state_dict(torch.load('{}.pkl'.format(best_epoch)))
    """,
    "c02-open-for-writing": """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 2).to(device)
        with open(args.save, "wb") as f:
            torch.save(model, f)
        with open(args.save, "rb") as f:
            model = torch.load(f)
    """,
    "c02-tempfile-directory": """
        import tempfile
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        probe = torch.nn.Linear(4, 2).to(device)
        with tempfile.TemporaryDirectory() as tmpdir:
            torch.save(probe.state_dict(), tmpdir + "/probe.bin")
            probe.load_state_dict(torch.load(tmpdir + "/probe.bin"))
    """,
    "c02-path-from-the-writer-object": """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


        def test_resume(dirname, engine, model):
            handler = ModelCheckpoint(dirname, "prefix")
            handler(engine, {"model": model})
            fname = handler.last_checkpoint
            checkpoint = torch.load(fname)
    """,
    "c02-helper-called-first": """
        import os
        import torch

        def run_training(root_dir, device="cuda:0"):
            model = torch.nn.Linear(4, 2).to(device)
            model_filename = os.path.join(root_dir, "best.pth")
            torch.save(model.state_dict(), model_filename)

        def run_inference(root_dir, device="cuda:0"):
            model = torch.nn.Linear(4, 2).to(device)
            model_filename = os.path.join(root_dir, "best.pth")
            model.load_state_dict(torch.load(model_filename))

        def test_train_and_infer(tmp):
            device = "cuda:0" if torch.cuda.is_available() else "cpu"
            run_training(tmp, device=device)
            run_inference(tmp, device=device)
    """,
    "c04-cpu-only-program": """
        import torch
        import torch.nn as nn


        class Sequence(nn.Module):
            def __init__(self):
                super().__init__()
                self.cell = nn.LSTMCell(1, 51)

            def forward(self, x):
                h = torch.zeros(x.size(0), 51, dtype=torch.double)
                c = torch.zeros(x.size(0), 51, dtype=torch.double)
                return self.cell(x, (h, c))[0]


        seq = Sequence().double()
        y = seq(torch.randn(3, 1, dtype=torch.double)).detach().numpy()
    """,
    "c04-test-local-class": """
        import torch


        def test_method_lookup():
            class Original(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.sub = torch.nn.Linear(2, 3)

                def helper(self):
                    return self.sub(torch.rand(2, 2))

            assert Original().helper().shape == (2, 3)
    """,
    "c05-which-gpu-index": """
        import argparse
        import torch
        import torch.nn as nn

        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", default=None, type=int, help="GPU id to use")
        parser.add_argument("--resume", default="")


        def main_worker(gpu, ngpus_per_node, args):
            model = nn.Linear(4, 2)
            if args.gpu is not None:
                torch.cuda.set_device(args.gpu)
                model = model.cuda(args.gpu)
            elif not args.distributed or args.rank % ngpus_per_node == 0:
                model = nn.DataParallel(model).cuda()
            criterion = nn.CrossEntropyLoss().cuda(args.gpu)
            if args.resume:
                if args.gpu is None:
                    checkpoint = torch.load(args.resume)
                else:
                    checkpoint = torch.load(args.resume, map_location="cuda:{}".format(args.gpu))
                model.load_state_dict(checkpoint["state_dict"])
    """,
    "c05-hard-coded-device-handed-to-a-helper": """
        import torch
        import torch.nn as nn


        def sample(model, n, device):
            return model(torch.randn(n, 4, device=device))


        if __name__ == "__main__":
            device = "cuda"
            model = nn.Linear(4, 2).to(device)
            checkpoint = torch.load("checkpoints/best_model.pth")
            model.load_state_dict(checkpoint["model_state_dict"])
            sample(model, 8, device)
    """,
    "c05-cuda-only-program": """
        import torch
        import torch.nn as nn

        model = nn.Linear(4, 2).cuda()
        checkpoint = torch.load("checkpoints/best_model.pth")
        model.load_state_dict(checkpoint["model_state_dict"])
        x = torch.randn(8, 4).cuda()
        out = model(x)
    """,
    # s12 review cause E (nerf-pytorch): a CPU fallback in the file, but the entry makes CUDA the
    # default tensor type before anything runs, so no machine without a GPU runs the program
    "c05-entry-makes-cuda-the-default-tensor-type": """
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


        def train(path):
            model = nn.Linear(4, 2).to(device)
            ckpt = torch.load(path)
            model.load_state_dict(ckpt["model"])
            return model


        if __name__ == "__main__":
            torch.set_default_tensor_type("torch.cuda.FloatTensor")
            train("run/000100.tar")
    """,
    "c05-module-sets-the-default-device": """
        import torch
        import torch.nn as nn

        torch.set_default_device("cuda")
        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        model.load_state_dict(torch.load("checkpoints/best_model.pth"))
    """,
    "c05-default-type-given-as-the-class": """
        import torch
        import torch.nn as nn

        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = nn.Linear(4, 2).to(device)
        if __name__ == "__main__":
            torch.set_default_tensor_type(torch.cuda.FloatTensor)
            model.load_state_dict(torch.load("checkpoints/best_model.pth"))
    """,
    "c15-helpers-sharing-a-path-template-save-from-the-cpu": SAVE_LOAD_HELPERS,
    "c07-moved-or-rebound-where-used": """
        import numpy as np
        import torch
        import torch.nn as nn


        class Dice(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.alpha = torch.zeros((n,))

            def forward(self, score):
                self.alpha = self.alpha.to(score.device)
                return self.alpha * score


        class Context(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.kernel = torch.eye(n)
                self.first_call = True

            def forward(self, x):
                if self.first_call:
                    self.first_call = False
                    self.kernel = self.kernel.unsqueeze(1)
                return nn.functional.conv1d(x, self.kernel.to(x.device), groups=x.shape[1])


        class Sampler(nn.Module):
            def __init__(self):
                super().__init__()
                self.timesteps = torch.arange(10)
                self.steps = None

            def set_timesteps(self, n, device=None):
                self.timesteps = torch.from_numpy(np.arange(n)).to(device)
                self.steps = len(self.timesteps)
    """,
    "c09-host-only-attribute": """
        import torch
        import torch.nn as nn


        class Searched(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.active = torch.ones(n)
                self.cells = nn.ModuleList(nn.Linear(4, 4) for _ in range(n))

            def forward(self, x):
                for i, cell in enumerate(self.cells):
                    if self.active[i]:
                        x = cell(x)
                return x
    """,
    "c11-expected-exception": """
        import unittest

        import torch
        import torch.nn as nn


        class TestErrors(unittest.TestCase):
            def test_cpu_cuda_error(self):
                x = torch.ones(3, 3, device="cuda")
                layer = nn.Linear(3, 1)
                with self.assertRaises(RuntimeError):
                    layer(x)
    """,
    "c11-pytest-raises": """
        import pytest
        import torch


        def test_mismatch():
            a = torch.ones(3, device="cuda")
            with pytest.raises(Exception, match="same device"):
                a + torch.ones(3)
    """,
    "c12-argument-read-on-the-host": """
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3, padding=1)

            def forward(self, x, boxes):
                feat = self.conv(x)
                x0, y0, x1, y1 = (int(v) for v in boxes[0])
                return feat[:, :, y0:y1, x0:x1]


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        net = Net().to(device)
        boxes = (torch.tensor([0, 0, 4, 4]),)
        image = torch.rand(1, 3, 16, 16).to(device)
        out = net(image, boxes)
    """,
    "c12-argument-used-as-slice-bounds-in-a-helper": """
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3, padding=1)

            def crop(self, feat, location):
                return feat[:, :, location[1]:location[3], location[0]:location[2]]

            def forward(self, x, parts):
                feat = self.conv(x)
                location = (parts[0] // (512 / 64)).int()
                return self.crop(feat, location)


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        net = Net().to(device)
        out = net(torch.rand(1, 3, 16, 16).to(device), torch.tensor([[0, 0, 4, 4]]))
    """,
    "c13-argument-of-another-method": """
        import torch
        from torch import Tensor


        class Servable(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(32, 2)

            def serve_step(self, x: Tensor) -> dict[str, Tensor]:
                assert torch.equal(x, torch.arange(32, dtype=torch.float))
                return {"output": torch.tensor([0, 1])}
    """,
    "c14-warm-up-on-a-temporary": """
        import torch


        def main(device):
            torch.zeros(1).to(device)
            return device


        main(torch.device("cuda" if torch.cuda.is_available() else "cpu"))
    """,
    "c15-project-writes-cpu-tensors": """
        import torch
        import torch.nn as nn


        class TransformerNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)


        def train(path, device):
            net = TransformerNet().to(device)
            net.eval().cpu()
            torch.save(net.state_dict(), path)


        def stylize(path, device):
            net = TransformerNet()
            state_dict = torch.load(path)
            net.load_state_dict(state_dict)
            return net.to(device)
    """,
}

# The twin of each quiet snippet: the same construct without the context that excused it.
REPORTED = {
    "c02-loaded-before-it-is-written": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        model.load_state_dict(torch.load("best_model.pt"))
        for epoch in range(3):
            torch.save(model.state_dict(), "best_model.pt")
    """, {(7, "TP204")}),
    "c02-path-from-outside-the-test": ("""
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"


        def test_weights(data_dir):
            weights = torch.load(data_dir / "weights.pt")
            assert weights.shape == (3,)
    """, {(8, "TP204")}),
    "c02-downloaded-into-a-temporary-directory": ("""
        import tempfile
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"


        def test_hosted_weights(name):
            with tempfile.TemporaryDirectory() as tempdir:
                download(name=name, bundle_dir=tempdir)
                model = build().to(device)
                model.load_state_dict(torch.load(f"{tempdir}/models/model.pt"))
    """, {(12, "TP204")}),
    "c04-program-that-moves-the-module": ("""
        import torch
        import torch.nn as nn


        class Sequence(nn.Module):
            def __init__(self):
                super().__init__()
                self.cell = nn.LSTMCell(1, 51)

            def forward(self, x):
                h = torch.zeros(x.size(0), 51)
                return self.cell(x, (h, h))[0]


        seq = Sequence().cuda()
        y = seq(torch.randn(3, 1).cuda())
    """, {(12, "TP202")}),
    "c04-test-local-class-on-cuda": ("""
        import torch


        def test_method_lookup():
            class Original(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.sub = torch.nn.Linear(2, 3)

                def helper(self):
                    return self.sub(torch.rand(2, 2))

            assert Original().cuda().helper().shape == (2, 3)
    """, {(12, "TP202")}),
    "c05-program-with-a-cpu-path": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        checkpoint = torch.load("checkpoints/best_model.pth")
        model.load_state_dict(checkpoint["model_state_dict"])
    """, {(7, "TP204")}),
    "c05-default-tensor-type-set-only-with-a-gpu": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        if __name__ == "__main__":
            if torch.cuda.is_available():
                torch.set_default_tensor_type("torch.cuda.FloatTensor")
            model = nn.Linear(4, 2).to(device)
            model.load_state_dict(torch.load("checkpoints/best_model.pth"))
    """, {(10, "TP204")}),
    "c05-default-type-set-by-a-function-not-the-entry": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


        def use_gpu_tensors():
            torch.set_default_tensor_type("torch.cuda.FloatTensor")


        model = nn.Linear(4, 2).to(device)
        model.load_state_dict(torch.load("checkpoints/best_model.pth"))
    """, {(13, "TP204")}),
    "c05-default-type-cpu": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        torch.set_default_tensor_type("torch.FloatTensor")
        model = nn.Linear(4, 2).to(device)
        model.load_state_dict(torch.load("checkpoints/best_model.pth"))
    """, {(8, "TP204")}),
    "c15-a-writer-of-the-template-saves-from-the-device": (
        SAVE_LOAD_HELPERS.replace("net.cpu().state_dict()", "net.state_dict()"), {(16, "TP204")}),
    "c15-another-files-template": ("""
        import os
        import torch

        device = "cuda" if torch.cuda.is_available() else "cpu"


        def save_network(net, label, epoch, opt):
            torch.save(net.cpu().state_dict(), os.path.join(opt.checkpoints_dir, "%s_net_%s.pth" % (epoch, label)))


        def load_pretrained(net, opt):
            weights = torch.load(os.path.join(opt.checkpoints_dir, "pretrained_%s.pth" % opt.name))
            net.load_state_dict(weights)
            return net
    """, {(13, "TP204")}),
    "c05-gpu-index-with-a-cpu-fallback": ("""
        import argparse
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", default=None, type=int)
        args = parser.parse_args()
        device = "cpu" if args.gpu is None else "cuda:{}".format(args.gpu)
        model = torch.nn.Linear(4, 2).to(device)
        criterion = torch.nn.CrossEntropyLoss().cuda(args.gpu)
        checkpoint = torch.load("checkpoints/best_model.pth")
        model.load_state_dict(checkpoint["model_state_dict"])
    """, {(11, "TP204")}),
    "c05-gpu-index-that-leaves-the-cpu-default": ("""
        import argparse
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument("--gpu", default=None, type=int)
        args = parser.parse_args()
        model = torch.nn.Linear(4, 2)
        if args.gpu is not None:
            model = model.cuda(args.gpu)
        checkpoint = torch.load("checkpoints/best_model.pth")
        model.load_state_dict(checkpoint["model_state_dict"])
    """, {(11, "TP204")}),
    "c05-device-handed-in-by-the-caller": ("""
        import torch
        import torch.nn as nn


        def restore(path, device):
            model = nn.Linear(4, 2).to(device)
            if device == "cuda":
                model = model.cuda()
            checkpoint = torch.load(path)
            model.load_state_dict(checkpoint["model_state_dict"])
            return model
    """, {(10, "TP204")}),
    "c05-cpu-option": ("""
        import argparse
        import torch

        parser = argparse.ArgumentParser()
        parser.add_argument("--use_cpu", action="store_true")
        args = parser.parse_args()
        model = torch.nn.Linear(4, 2)
        if not args.use_cpu:
            model = model.cuda()
        checkpoint = torch.load("checkpoints/best_model.pth")
        model.load_state_dict(checkpoint["model_state_dict"])
    """, {(11, "TP204")}),
    "c07-attribute-used-as-made": ("""
        import torch
        import torch.nn as nn


        class Dice(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.alpha = torch.zeros((n,))

            def forward(self, score):
                return self.alpha * score
    """, {(9, "TP203")}),
    "c09-attribute-in-device-arithmetic": ("""
        import torch
        import torch.nn as nn


        class Searched(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.active = torch.ones(n)
                self.cells = nn.ModuleList(nn.Linear(4, 4) for _ in range(n))

            def forward(self, x):
                for cell in self.cells:
                    x = cell(x) * self.active
                return x
    """, {(9, "TP203")}),
    "c11-mismatch-outside-the-block": ("""
        import unittest

        import torch
        import torch.nn as nn


        class TestErrors(unittest.TestCase):
            def test_cpu_cuda_error(self):
                x = torch.ones(3, 3, device="cuda")
                layer = nn.Linear(3, 1)
                with self.assertRaises(RuntimeError):
                    layer(x)
                layer(x)
    """, {(14, "TP102")}),
    "c12-argument-meets-the-weights": ("""
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3, padding=1)

            def forward(self, x, mask):
                return self.conv(x) * mask


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        net = Net().to(device)
        mask = torch.ones(1, 8, 16, 16)
        out = net(torch.rand(1, 3, 16, 16).to(device), mask)
    """, {(18, "TP102")}),
    "c13-forward-input": ("""
        import torch


        class Servable(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.layer = torch.nn.Linear(32, 2)

            def forward(self, x):
                return self.layer(x) + torch.arange(2, dtype=torch.float)
    """, {(11, "TP202")}),
    "c14-discarded-move-of-a-name": ("""
        import torch


        def main(device):
            t = torch.zeros(1)
            t.to(device)
            t.uniform_(0, 1).to(device)
            return t
    """, {(7, "TP201"), (8, "TP201")}),
    "c15-project-writes-device-tensors": ("""
        import torch
        import torch.nn as nn


        class TransformerNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)


        def train(path, device):
            net = TransformerNet().to(device)
            torch.save(net.state_dict(), path)


        def stylize(path, device):
            net = TransformerNet()
            state_dict = torch.load(path)
            net.load_state_dict(state_dict)
            return net.to(device)
    """, {(19, "TP204")}),
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_context_keeps_the_review_false_findings_quiet(name):
    source = QUIET[name]
    path = "test_snippet.py" if "def test_" in source else "snippet.py"
    assert loud(source, path) == set()


@pytest.mark.parametrize("name", sorted(REPORTED))
def test_the_twin_without_that_context_is_reported(name):
    source, expected = REPORTED[name]
    path = "test_snippet.py" if "def test_" in source else "snippet.py"
    assert loud(source, path) == expected


def test_discarded_to_on_a_tensor_subclass_does_not_move_it():
    # cause 10: a class deriving from torch.Tensor makes tensors (flow/class_model.py
    # `tensor_subclass`); `.to()` on them returns a new tensor, as for any tensor.
    source = """
        import torch


        class PackedTensor(torch.Tensor):
            pass


        t_u8 = torch.zeros(3, 8, dtype=torch.uint8)
        packed = PackedTensor(t_u8)
        packed.to(torch.device("cuda"))
        assert torch.equal(packed.view(torch.uint8), t_u8)
    """
    assert loud(source) == {(11, "TP201")}


def hints(source: str, code: str) -> set:
    return {f.span.start_line + 1 for f in check_source(textwrap.dedent(source), "snippet.py") if f.code == code}


def test_cuda_under_a_device_guard_is_not_hard_coded():
    source = """
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        x = torch.randn(3)
        if args.cuda:
            x = x.cuda()
        y = x.cuda() if use_cuda else x
        z = x.cuda()
    """
    assert hints(source, "TP401") == {8}


def test_sync_once_per_epoch_is_not_every_step():
    source = """
        import torch
        w = torch.randn(3, device="cuda", requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.1)
        for epoch in range(10):
            for step in range(100):
                loss = (w * w).sum()
                loss.backward()
                opt.step()
                seen = loss.item()
            print(loss.item())
    """
    assert hints(source, "TP402") == {10}


def fix_all(source: str) -> str:
    text = textwrap.dedent(source)
    fixed, _ = apply_fixes(text, check_source(text, "snippet.py"), unsafe=True)
    return fixed


def test_fix_all_moves_an_input_once():
    fixed = fix_all("""
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 2).to(device)
        for step in range(10):
            inputs = torch.randn(8, 4)
            out = model(inputs)
            again = model(inputs)
    """)
    assert fixed.count("inputs = inputs.to(device)") == 1
    assert fixed.index("inputs = inputs.to(device)") < fixed.index("out = model(inputs)")


def test_fix_all_reuses_the_codes_own_discarded_move():
    fixed = fix_all("""
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 2).to(device)
        x = torch.randn(3, 4)
        x.to(device)
        y = model(x)
    """)
    assert fixed.count(".to(device)") == 2  # the model's and the one assignment of `x`
    assert "x = x.to(device)\ny = model(x)" in fixed


def test_fix_adds_device_only_where_the_function_takes_it():
    source = """
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 4)

            def forward(self, x):
                ones = torch.ones(2, 4)
                return self.fc(x) + ones
    """
    assert "torch.ones(2, 4, device=x.device)" in fix_all(source)

    class Where:  # what a rule sees of the analysis at the call: the callee's qualified name
        def qualname(self, func):
            return ast.unparse(func)

    def accepts(code: str) -> bool:
        return accepts_device(Where(), ast.parse(code, mode="eval").body)

    assert accepts("torch.ones(2)") and accepts("torch.arange(4)") and accepts("torch.zeros_like(x)")
    assert not accepts("torch.from_numpy(a)") and not accepts("torch.bernoulli(p)") and not accepts("torch.cat(xs)")
    assert not accepts("helper(2)")  # not a torch function: nothing is known about its parameters


def test_arithmetic_with_a_cpu_tensor_of_unknown_rank_is_not_an_error():
    """A 0-dim CPU tensor (a loss, a `.sum()`) may meet a CUDA tensor in arithmetic: without its
    rank the mismatch is not proven on every path."""
    source = """
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        total = torch.zeros(1, device=device).squeeze_()
        noise = torch.normal(0.0, 0.1, size=noise_shape)
        total += noise
        shifted = torch.ones(4, device=device) + torch.ones(4)
    """
    assert loud(source) == {(7, "TP101")}
    maybe = [f for f in check_source(textwrap.dedent(source), "snippet.py") if f.span.start_line + 1 == 6]
    assert [(f.code, f.severity) for f in maybe] == [("TP101", Severity.HINT)] and "may raise" in maybe[0].message


def test_load_that_runs_only_where_the_gpu_is():
    source = """
        import torch
        device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
        model = torch.nn.Linear(4, 2).to(device)
        if args.cuda:
            model.load_state_dict(torch.load(path))
        else:
            model.load_state_dict(torch.load(path, map_location=torch.device("cpu")))
        model.load_state_dict(torch.load(path))
    """
    assert loud(source) == {(9, "TP204")}


def test_batch_part_read_on_the_host_is_not_a_missed_transfer():
    source = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        class Tagger(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.LSTM(8, 8)

            def forward(self, x, lengths):
                steps = int(lengths.max())
                return self.rnn(x[:steps])[0]


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = Tagger().to(device)
        for x, lengths in DataLoader(dataset):
            out = model(x.to(device), lengths)
            again = model(x, lengths)
    """
    assert loud(source) == {(21, "TP103")}


def test_attribute_that_may_be_zero_dim_needs_a_known_rank():
    """`torch.tensor(cfg.weight)` may be 0-dim, and a 0-dim CPU tensor may meet CUDA tensors in
    TensorIterator ops (`binary_cross_entropy_with_logits`'s `pos_weight`): not a proven hazard.
    A list literal is not 0-dim: its use in `forward` is."""
    source = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class Head(nn.Module):
            def __init__(self, cfg):
                super().__init__()
                self.fc = nn.Linear(4, 4)
                self.pos_weight = torch.tensor(cfg.POSITIVE_WEIGHT, dtype=torch.float32)
                self.table = torch.tensor([0.5, 2.0, 1.0, 1.0])

            def forward(self, x, target):
                out = self.fc(x)
                loss = F.binary_cross_entropy_with_logits(out, target, pos_weight=self.pos_weight)
                return loss + (out * self.table).sum()
    """
    assert loud(source) == {(12, "TP203")}
