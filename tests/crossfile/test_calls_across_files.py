"""Values that cross a call between files (issue 10): a function of one file is analysed for what
another file passes it (its importers), and a call into another file returns what that code makes.
Findings always land in the checked file."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path, check_source
from torchplace_rules.project_index import ProjectIndex


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def _findings(project: Path, name: str):
    return [(f.span.start_line + 1, f.code, f) for f in check_path(project / name, Config(), project=ProjectIndex(project))]


TRAIN_LOOP = """\
    import torch

    def train(loader, model, criterion, device):
        for images, target in loader:
            images = images.to(device)
            output = model(images)
            loss = criterion(output, target)
            loss.backward()
"""

MAIN = """\
    import torch
    from torch import nn
    from torch.utils.data import DataLoader
    from train_loop import train

    def main(dataset):
        device = torch.device("cuda")
        model = nn.Linear(4, 2).to(device)
        criterion = nn.CrossEntropyLoss().to(device)
        train(DataLoader(dataset), model, criterion, device)
"""


def test_a_function_is_analysed_for_what_an_importer_passes_it(tmp_path):
    project = _project(tmp_path, {"train_loop.py": TRAIN_LOOP, "main.py": MAIN})
    got = _findings(project, "train_loop.py")
    assert [(line, code) for line, code, _ in got] == [(7, "TP103")]
    finding = got[0][2]
    assert any("called from main.py line 10" in r.message for r in finding.related)
    assert _findings(project, "main.py") == []


def test_an_importer_that_moves_everything_gives_no_finding(tmp_path):
    fixed = TRAIN_LOOP.replace("images = images.to(device)", "images, target = images.to(device), target.to(device)")
    project = _project(tmp_path, {"train_loop.py": fixed, "main.py": MAIN})
    assert _findings(project, "train_loop.py") == []


PREDICTOR = """\
    import torch
    import torch.nn.functional as F

    class FeatureExtractor:
        def __init__(self, model):
            self.device = torch.device("cuda")
            self.model = model.to(self.device)

        def __call__(self, images):
            with torch.no_grad():
                feats = self.model(images.to(self.device))
            return F.normalize(feats, dim=1)
"""

VISUALIZE = """\
    import torch
    from predictor import FeatureExtractor

    def rank(model, query, gallery):
        extract = FeatureExtractor(model)
        dist = 1 - torch.mm(extract(query), extract(gallery).t())
        return dist.numpy()
"""


def test_an_object_of_another_file_returns_what_its_method_makes(tmp_path):
    project = _project(tmp_path, {"predictor.py": PREDICTOR, "visualize.py": VISUALIZE})
    assert [(line, code) for line, code, _ in _findings(project, "visualize.py")] == [(7, "TP104")]
    assert _findings(project, "predictor.py") == []


def test_every_object_made_with_the_same_arguments_holds_what_init_stored(tmp_path):
    # A call context's result is kept for the next identical call (here another file's __init__,
    # kept with that file's summary): the second object used to come out empty, as did any object
    # made after another checked file had made one, so its __call__ returned nothing known.
    use = """\
        import torch
        from predictor import FeatureExtractor

        def features(model, images):
            first = FeatureExtractor(model)
            second = FeatureExtractor(model)
            return second(images).numpy()
    """
    project = _project(tmp_path, {"predictor.py": PREDICTOR, "use.py": use, "visualize.py": VISUALIZE})
    index = ProjectIndex(project)
    for name, expected in [("use.py", [(7, "TP104")]), ("visualize.py", [(7, "TP104")])]:
        found = [(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=index)]
        assert found == expected, name


def test_a_value_reaches_the_checked_file_through_a_module_in_between(tmp_path):
    # (pytorch-yolo-v3: video_demo.py moves the detections to the GPU and hands them to util.py's
    # write_results, which calls bbox.py's bbox_iou; the CPU zeros there meet them.)
    files = {
        "bbox.py": """\
            import torch

            def bbox_iou(box1, box2):
                inter = torch.max(box1 - box2, torch.zeros(box1.shape))
                return inter
        """,
        "util.py": """\
            from bbox import bbox_iou

            def write_results(prediction):
                return bbox_iou(prediction[0], prediction[1:])
        """,
        "demo.py": """\
            import torch
            from util import write_results

            CUDA = torch.cuda.is_available()
            detections = torch.rand(5, 4)
            if CUDA:
                detections = detections.cuda()
            write_results(detections)
        """,
    }
    project = _project(tmp_path, files)
    assert [(line, code) for line, code, _ in _findings(project, "bbox.py")] == [(4, "TP101")]
    fixed = dict(files, **{"bbox.py": files["bbox.py"].replace("torch.zeros(box1.shape)", "torch.zeros(box1.shape, device=box1.device)")})
    assert _findings(_project(tmp_path, fixed), "bbox.py") == []


BASE_MODEL = """\
    import numpy
    from torch import nn

    class BaseModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 2)

        def validation_step(self, batch):
            return {"val_loss": self.lin(batch).sum()}

        def validation_epoch_end(self, outputs):
            return numpy.mean([v["val_loss"] for v in outputs])
"""

TRAINER = """\
    import torch

    class Trainer:
        def __init__(self, accelerator=None):
            self.device = torch.device("cuda") if accelerator == "gpu" else torch.device("cpu")

        def fit(self, model, batches):
            model.to(self.device)
            outputs = [model.validation_step(batch.to(self.device)) for batch in batches]
            model.validation_epoch_end(outputs)
"""

FIT_SCRIPT = """\
    import argparse
    import torch
    from lstm import LSTMModel
    from trainer import Trainer

    args = argparse.ArgumentParser().parse_args()
    Trainer(args.accelerator).fit(LSTMModel(), [torch.randn(3, 4)])
"""


def test_a_method_a_subclass_of_another_file_inherits_gets_what_the_subclass_importers_pass(tmp_path):
    # (yoyodyne: models/base.py's validation_epoch_end runs for the LSTM model of models/lstm.py,
    # which the training script imports; the trainer hands it the CUDA losses validation_step returned)
    for subclass in ("""\
            from base import BaseModel

            class LSTMModel(BaseModel):
                def __init__(self):
                    super().__init__()
                    self.extra = 1
        """, """\
            from base import BaseModel

            class LSTMModel(BaseModel):
                pass
        """):
        project = _project(tmp_path, {"base.py": BASE_MODEL, "trainer.py": TRAINER, "lstm.py": subclass,
                                      "main.py": FIT_SCRIPT})
        got = _findings(project, "base.py")
        assert [(line, code) for line, code, _ in got] == [(13, "TP104")]
        # (the call is the trainer's, which the script runs)
        assert [r.message for r in got[0][2].related] == ["called from trainer.py line 10"]
        fixed = BASE_MODEL.replace("self.lin(batch).sum()}", "self.lin(batch).sum().item()}")
        project = _project(tmp_path, {"base.py": fixed, "trainer.py": TRAINER, "lstm.py": subclass,
                                      "main.py": FIT_SCRIPT})
        assert _findings(project, "base.py") == []


def test_the_callers_own_nodes_are_read_from_the_callers_text_while_another_files_code_runs(tmp_path):
    # (nanofold: structure.py hands `torch.eye(3)` to frame.py's `compose`, which mixes it with a CUDA
    # tensor.  The finding lands in frame.py and is dropped, but computing its message and fix read
    # the caller's factory from frame.py's text: IndexError, and TP101 crashed for the whole file.)
    frame = """\
        import torch

        def compose(a, b):
            return a @ b
    """
    padding = "\n".join(f"CONST_{i} = {i}" for i in range(20))
    structure = f"""\
import torch
from frame import compose
{padding}

def run(update):
    update = update.to("cuda")
    eye = torch.eye(3)
    bad = torch.ones(3, device="cuda") + torch.zeros(3)
    return compose(eye, update)
"""
    project = _project(tmp_path, {"frame.py": frame, "structure.py": structure})
    errors: list = []
    found = check_source(structure, str(project / "structure.py"), Config(), errors=errors,
                         project=ProjectIndex(project))
    assert errors == []
    assert [(f.span.start_line + 1, f.code) for f in found] == [(27, "TP101")]  # the error in the checked file still reported


def test_a_nested_function_made_by_another_files_code_runs_with_that_files_globals_and_text(tmp_path):
    # (PyG examples/llm: `make_pcst_filter(...)` of backend_utils returns a nested function that
    # rag_loader's `query` calls later; it ran with rag_loader's globals and text, and its `q.device`,
    # below rag_loader's last line, raised IndexError.)
    padding = "\n".join(f"CONST_{i} = {i}" for i in range(40))
    project = _project(tmp_path, {
        "backend.py": "import torch\n" + padding + "\n\n\ndef make_filter(k):\n    def apply(graph, q):\n"
                      "        return torch.zeros(k, device=q.device)\n    return apply\n",
        "loader.py": """\
            class Loader:
                def __init__(self, subgraph_filter):
                    self.subgraph_filter = subgraph_filter

                def query(self, q):
                    return self.subgraph_filter(None, q)
        """,
        "main.py": """\
            import torch
            from backend import make_filter
            from loader import Loader

            loader = Loader(make_filter(3))
            out = loader.query(torch.zeros(2, device="cuda"))
            out.numpy()
        """,
    })
    errors: list = []
    text = (project / "main.py").read_text()
    findings = check_source(text, str(project / "main.py"), Config(), errors=errors, project=ProjectIndex(project))
    assert errors == []
    # `torch.zeros(k, device=q.device)` is read with backend's `torch`: the result is on the query's device
    assert [(f.span.start_line + 1, f.code) for f in findings] == [(7, "TP104")]


def test_an_unbound_method_called_with_none_for_self_that_calls_super_is_analysed_without_a_crash():
    # (ignite's tests: `ClearMLSaver.__call__(None, {}, "")`, whose `__call__` calls `super().__call__`.)
    text = textwrap.dedent("""\
        import torch

        class Saver:
            def __call__(self, checkpoint, filename):
                torch.save(checkpoint, filename)
                return checkpoint

        class RemoteSaver(Saver):
            def __call__(self, checkpoint, filename):
                return super().__call__(checkpoint, filename)

        out = RemoteSaver.__call__(None, torch.zeros(2, device="cuda"), "")
        out.numpy()
        x = torch.zeros(2, device="cuda") + torch.ones(3, 2)
    """)
    errors: list = []
    findings = check_source(text, "saver.py", Config(), errors=errors)
    assert errors == []
    # the arguments keep their places through `super()` with an unknown `self` (the CUDA tensor comes back) ...
    assert [f.code for f in findings if f.span.start_line == 12] == ["TP104"]
    # ... and the rest of the file is still checked
    assert [f.code for f in findings if f.span.start_line == 13] == ["TP101"]


def test_an_import_inside_another_files_function_resolves_from_that_files_folder(tmp_path):
    """`from .devices import pick` inside a helper of pkg/utils is pkg/utils/devices.py, whichever
    folder the checked file that calls the helper is in."""
    project = _project(tmp_path, {})
    (project / "pkg" / "utils").mkdir(parents=True)
    (project / "app").mkdir()
    for init in ("pkg/__init__.py", "pkg/utils/__init__.py"):
        (project / init).write_text("")
    (project / "pkg/utils/devices.py").write_text("import torch\n\ndef pick():\n    return torch.device('cuda')\n")
    (project / "pkg/utils/helpers.py").write_text(textwrap.dedent("""\
        def to_accelerator(x):
            from .devices import pick
            return x.to(pick())
    """))
    (project / "app/train.py").write_text(textwrap.dedent("""\
        import torch
        from pkg.utils.helpers import to_accelerator

        def step():
            y = to_accelerator(torch.zeros(3))
            return y + torch.ones(3)
    """))
    found = [(line, code) for line, code, _ in _findings(project, "app/train.py")]
    assert (6, "TP101") in found


OPS = """\
    import torch

    def shift(x, advance):
        phase = x - advance
        phase = phase * 2
        return phase + advance
"""

LAYERS = """\
    import torch
    from torch import nn

    import ops

    class Stretch(nn.Module):
        def __init__(self, n=5):
            super().__init__()
            self.advance = torch.linspace(0, 1, n)[..., None]

        def forward(self, x):
            return ops.shift(x, self.advance)

    m = Stretch().cuda()
    y = m(torch.ones(5, 3, device="cuda"))
"""


def test_a_plain_attribute_of_another_file_is_reported_where_it_fails_once(tmp_path):
    # the cause is in layers.py (TP203's business there); ops.py has no such cause to point at: its
    # first use that raises is reported (not the second), naming where the tensor was made
    project = _project(tmp_path, {"ops.py": OPS, "layers.py": LAYERS})
    got = _findings(project, "ops.py")
    assert [(line, code) for line, code, _ in got] == [(4, "TP101")]
    assert "(made in layers.py line 9)" in got[0][2].message


BLOCK = """\
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, x_example):
            super().__init__()
            self.ln = nn.LayerNorm(x_example.shape[2])
            self.init_states(x_example)

        def init_states(self, x_example):
            self.h = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)

        def forward(self, x):
            return self.ln(x) + self.h
"""

TRAIN = """\
    import torch
    from block import Block

    device = torch.device("cuda")
    block = Block(torch.zeros(4, 16, 8))
    block.to(device)
    y = block(torch.randn(4, 16, 8, device=device))
"""


def test_a_state_made_where_the_constructor_argument_is_is_learned_from_the_caller(tmp_path):
    # the importer builds the block from a CPU tensor: the state is a plain CPU attribute
    project = _project(tmp_path, {"block.py": BLOCK, "train.py": TRAIN})
    assert [(line, code) for line, code, _ in _findings(project, "block.py")] == [(11, "TP203")]


def test_a_state_made_where_a_gpu_constructor_argument_is_gives_nothing(tmp_path):
    train = TRAIN.replace("Block(torch.zeros(4, 16, 8))", "Block(torch.zeros(4, 16, 8, device=device))")
    project = _project(tmp_path, {"block.py": BLOCK, "train.py": train})
    assert _findings(project, "block.py") == []


AGENT = """\
    import torch

    class Agent(object):
        def __init__(self, n, use_cuda=False):
            self.device = torch.device('cuda' if use_cuda else 'cpu')
            self.model = torch.nn.Linear(n, 2).to(self.device)

        def get_action(self, state):
            policy = self.model(torch.Tensor(state).to(self.device))
            return 1, policy.detach()
"""

ROLLOUT = """\
    {imports}
    import numpy as np

    def main(use_cuda):
        agent = Agent(4, use_cuda=use_cuda)
        total_policy = []
        for _ in range(3):
            action, policy = agent.get_action(np.zeros(4))
            total_policy.append(policy)
        return np.vstack(total_policy)
"""


def test_a_star_import_of_a_project_module_binds_its_names(tmp_path):
    # `from agents import *` binds Agent (and the `torch` agents imports): the script is analysed
    # although it never names torch itself, and the policies it collects are on the GPU
    project = _project(tmp_path, {"agents.py": AGENT, "train.py": ROLLOUT.format(imports="from agents import *")})
    assert [(line, code) for line, code, _ in _findings(project, "train.py")] == [(10, "TP104")]


def test_a_script_that_names_cuda_but_not_torch_is_analysed(tmp_path):
    project = _project(tmp_path, {"agents.py": AGENT, "train.py": ROLLOUT.format(imports="from agents import Agent")})
    assert [(line, code) for line, code, _ in _findings(project, "train.py")] == [(10, "TP104")]


def test_a_star_import_binds_no_private_name_and_no_name_of_a_function_body(tmp_path):
    helpers = """\
        import torch
        _cache = torch.zeros(3, device="cuda")
        def make():
            buf = torch.zeros(3, device="cuda")
            return buf
    """
    script = """\
        import numpy as np
        import torch
        from helpers import *

        def main(_cache):
            a = np.asarray(make())
            b = np.asarray(_cache)
            c = np.asarray(buf)
    """
    project = _project(tmp_path, {"helpers.py": helpers, "run.py": script})
    assert [(line, code) for line, code, _ in _findings(project, "run.py")] == [(6, "TP104")]


STAR_NET = """\
    import torch
    import torch.nn as nn

    __all__ = ["Net"]


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)

        def forward(self, x):
            return self.fc(x).cpu()
"""

STAR_SCRIPT = """\
    import torch
    import torch.nn.functional as F
    {imports}

    device = torch.device("cuda")
    model = {net}().to(device)
    target = torch.zeros(3, 2, device=device)
    out = model(torch.ones(3, 4, device=device))
    loss = F.mse_loss(out, target)
"""


def _star_package(tmp_path: Path, imports: str, net: str) -> Path:
    (tmp_path / "models" / "nets").mkdir(parents=True)
    (tmp_path / "models" / "__init__.py").write_text("")
    (tmp_path / "models" / "nets" / "__init__.py").write_text("from .net import *\n")
    (tmp_path / "models" / "nets" / "net.py").write_text(textwrap.dedent(STAR_NET))
    return _project(tmp_path, {"train.py": STAR_SCRIPT.format(imports=imports, net=net)})


def test_a_class_a_package_star_imports_is_the_class_for_from_package_import(tmp_path):
    # `from models.nets import Net` where models/nets/__init__.py does `from .net import *`: the
    # class is followed into its forward (a CPU result meeting the GPU target)
    project = _star_package(tmp_path, "from models.nets import Net", "Net")
    assert [(line, code) for line, code, _ in _findings(project, "train.py")] == [(9, "TP101")]


def test_a_class_a_package_star_imports_is_the_class_for_an_attribute_of_the_package(tmp_path):
    project = _star_package(tmp_path, "import models.nets", "models.nets.Net")
    assert [(line, code) for line, code, _ in _findings(project, "train.py")] == [(9, "TP101")]


def test_a_star_imported_class_whose_forward_stays_on_the_device_gives_nothing(tmp_path):
    project = _star_package(tmp_path, "from models.nets import Net", "Net")
    net = tmp_path / "models" / "nets" / "net.py"
    net.write_text(net.read_text().replace("self.fc(x).cpu()", "self.fc(x)"))
    assert _findings(project, "train.py") == []


def test_a_star_import_under_type_checking_is_not_followed_for_the_checked_file(tmp_path):
    # `if TYPE_CHECKING: from .net import *` never runs (a lazily loaded library index binds the
    # names at run time): the checked file's lookup does not summarise what it names
    project = _star_package(tmp_path, "from models.nets import Net", "Net")
    (tmp_path / "models" / "nets" / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from .net import *\n")
    assert _findings(project, "train.py") == []


MODEL_WITH_CURRENT_DEVICE = """\
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)
            self.mean = torch.ones(3)

        def forward(self, x):
            return self.fc(x) - self.mean.cuda()
"""

RUN_ON_GPU_3 = """\
    import torch
    from net import Net

    def main():
        {pick}device = torch.device("cuda:3")
        model = Net().to(device)
        return model(torch.ones(2, 3, device=device))
"""


def test_the_current_device_meets_a_module_an_importer_puts_on_another_gpu(tmp_path):
    """`.cuda()` is cuda:0 where no code picks the current device: inside the forward of a module the
    importer put on cuda:3 it meets the module's input there."""
    project = _project(tmp_path, {"net.py": MODEL_WITH_CURRENT_DEVICE, "main.py": RUN_ON_GPU_3.format(pick="")})
    assert [(line, code) for line, code, _ in _findings(project, "net.py") if code == "TP101"] == [(11, "TP101")]


def test_an_importer_that_picks_the_current_device_makes_cuda_unknown(tmp_path):
    main = RUN_ON_GPU_3.format(pick="torch.cuda.set_device(3)\n        ")
    project = _project(tmp_path, {"net.py": MODEL_WITH_CURRENT_DEVICE, "main.py": main})
    assert [code for _, code, _ in _findings(project, "net.py") if code == "TP101"] == []


NET_WITH_OPTIONAL_WEIGHTS = """\
    import torch
    from torch import nn
    import torch.nn.functional as F

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x, weights=None):
            if weights is None:
                weights = [self.fc.weight]
            return F.linear(x, weights[0])
"""

PASS_CPU_WEIGHTS = """\
    import numpy as np
    import torch
    from net import Net

    def main():
        model = Net().to("cuda")
        weights = []
        for _ in range(2):
            weights.append(torch.from_numpy(np.ones((3, 3), dtype=np.float32)))
        return model(torch.ones(2, 3, device="cuda"), weights=weights)
"""


def test_a_list_an_importer_passes_is_not_none(tmp_path):
    """A list appended to is a list on every path, also as the callee in another file sees it."""
    project = _project(tmp_path, {"net.py": NET_WITH_OPTIONAL_WEIGHTS, "main.py": PASS_CPU_WEIGHTS})
    assert [(line, code) for line, code, _ in _findings(project, "net.py")] == [(13, "TP101")]


# -- an optimizer whose loaded state a module move left behind (Optimizer.load_state_dict casts the
# state to the parameters' device at load time; model.cuda() moves the parameters, not the state)
EPOCH = """\
    def train_epoch(model, loader, optimizer, loss_fn):
        for x, y in loader:
            x, y = x.cuda(), y.cuda()
            loss = loss_fn(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
"""

RESUME = """\
    import torch
    from torch import nn
    from core_train import train_epoch
    from checkpoints import load_optimizer

    def main(loader, path):
        model = nn.Linear(4, 2)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        load_optimizer(optimizer, path)
        model = model.cuda()
        train_epoch(model, loader, optimizer, nn.CrossEntropyLoss().cuda())
"""

CHECKPOINTS = """\
    import torch

    def load_optimizer(optimizer, path):
        optimizer.load_state_dict(torch.load(path, map_location="cpu")["optimizer"])
"""


def test_a_step_in_another_file_on_an_optimizer_loaded_in_a_third_before_the_move(tmp_path):
    project = _project(tmp_path, {"core_train.py": EPOCH, "train.py": RESUME, "checkpoints.py": CHECKPOINTS})
    got = _findings(project, "core_train.py")
    assert [(line, code, f.severity.name) for line, code, f in got] == [(7, "TP101", "ERROR")]
    assert any("called from train.py line 11" in r.message for r in got[0][2].related)
    assert _findings(project, "train.py") == [] and _findings(project, "checkpoints.py") == []


def test_an_optimizer_loaded_after_the_move_in_another_file_steps_cleanly(tmp_path):
    resumed_late = RESUME.replace("        load_optimizer(optimizer, path)\n        model = model.cuda()\n",
                                  "        model = model.cuda()\n        load_optimizer(optimizer, path)\n")
    assert resumed_late != RESUME
    project = _project(tmp_path, {"core_train.py": EPOCH, "train.py": resumed_late, "checkpoints.py": CHECKPOINTS})
    assert _findings(project, "core_train.py") == []


WRAPPER = """\
    import torch
    from torch import nn

    class Wrapper:
        def __init__(self, options):
            self.device = options["device"]
            self.build()

        def build(self):
            self.net = nn.Linear(4, 4)
            self.net.to(self.device)

        def fit(self, batch):
            hidden = torch.zeros(2, 4)
            return self.net(batch.to(self.device)) + self.net(hidden)
"""

WRAPPER_MAIN = """\
    import torch
    from wrapper import Wrapper

    def main(batch):
        config = {"epochs": 1}
        config["device"] = torch.device("cuda")
        Wrapper(config).fit(batch)
"""


def test_a_helper_method_the_importers_object_runs_sees_what_init_stored_for_that_caller(tmp_path):
    # The importer's `Wrapper(config)` runs `__init__`, which stores the caller's device and calls
    # `self.build()`: build moves `self.net` there for this caller (not "as the class knows it",
    # with no device), so `fit` gets the moved module and its CPU input is a mismatch.  The device
    # is an entry the importer stored into its dict before passing it (`config["device"] = ...`).
    project = _project(tmp_path, {"wrapper.py": WRAPPER, "main.py": WRAPPER_MAIN})
    assert [(line, code) for line, code, _ in _findings(project, "wrapper.py")] == [(15, "TP102")]


BOUNDARIES = """\
    def add_boundary(tensor, lengths, begin, end):
        out = tensor.new_zeros(tensor.size(0), tensor.size(1) + 2, tensor.size(2))
        out[:, 1:-1, :] = tensor
        begin = begin.to(tensor.device)
        for i, j in enumerate(lengths.cpu().numpy()):
            out[i, 0, :] = begin
            out[i, j + 1, :] = end
        return out
"""

CHARS = """\
    import torch
    from torch import nn

    from boundaries import add_boundary

    class Chars(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(5, 5)
            self.bos = torch.ones(5)
            self.eos = torch.ones(5)

        def forward(self, x, lengths):
            return self.lin(add_boundary(x, lengths, self.bos, self.eos))

    m = Chars().cuda()
    y = m(torch.ones(2, 3, 5, device="cuda"), torch.tensor([3, 2]))
"""


def test_plain_attributes_an_imported_helper_moves_or_copies_are_no_unregistered_tensors(tmp_path):
    """s13 review cause I (AllenNLP's ELMo): the helper in another file moves `begin` to the input's device
    and copies `end` into items at host-number indices (`copy_`, across devices): neither meets the weights."""
    project = _project(tmp_path, {"boundaries.py": BOUNDARIES, "chars.py": CHARS})
    assert _findings(project, "chars.py") == []
    used = BOUNDARIES.replace("out[i, j + 1, :] = end", "out[i, j + 1, :] = end * tensor[i, 0]")
    project = _project(tmp_path, {"boundaries.py": used, "chars.py": CHARS})
    assert [(line, code) for line, code, _ in _findings(project, "chars.py")] == [(11, "TP203")]

# A package global of the project that the program rebinds (`flair.device = ...`) before it runs the
# code of another file that reads it there: that code reads the new value.
SETTINGS = """\
    import torch
    device = torch.device("cuda:0")
"""

NET_ON_SETTINGS_DEVICE = """\
    import torch
    from torch import nn
    import settings

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 2)
            self.to(settings.device)

        def forward(self, x):
            return self.fc(x)
"""


def _rebinding_program(rebind: str) -> str:
    return ("import torch\nimport settings\nfrom net import Net\n" + rebind +
            "model = Net()\ny = model(torch.ones(2, 4).cuda())\nz = next(model.parameters()) + torch.ones(1, device='cuda:2')\n")


def test_another_files_code_reads_a_package_global_the_program_rebound_before(tmp_path):
    project = _project(tmp_path, {"settings.py": SETTINGS, "net.py": NET_ON_SETTINGS_DEVICE,
                                  "main.py": _rebinding_program("settings.device = torch.device('cuda:1')\n")})
    got = [(line, code, f.message) for line, code, f in _findings(project, "main.py") if code.startswith("TP1")]
    # the model is on cuda:1, the input on the current device, cuda:0
    assert [(line, code) for line, code, _ in got] == [(6, "TP102"), (7, "TP101")]
    assert "cuda:1" in got[1][2]


def test_a_package_global_rebound_on_one_path_only_is_unknown_afterwards(tmp_path):
    for rebind in ("if flag:\n    settings.device = torch.device('cuda:1')\n",
                   "def pick():\n    settings.device = torch.device('cuda:1')\npick()\n"):
        project = _project(tmp_path, {"settings.py": SETTINGS, "net.py": NET_ON_SETTINGS_DEVICE,
                                      "main.py": _rebinding_program(rebind)})
        assert [code for _, code, _ in _findings(project, "main.py") if code.startswith("TP1")] == []


def test_a_package_global_not_rebound_keeps_its_value(tmp_path):
    project = _project(tmp_path, {"settings.py": SETTINGS, "net.py": NET_ON_SETTINGS_DEVICE,
                                  "main.py": _rebinding_program("")})
    got = [(line, code, f.message) for line, code, f in _findings(project, "main.py") if code.startswith("TP1")]
    assert [(line, code) for line, code, _ in got] == [(6, "TP101")]
    assert "cuda:0" in got[0][2]


def test_a_method_called_from_a_program_that_rebound_a_package_global_reads_the_new_value(tmp_path):
    # checked file net.py: its method runs for the program's call, after `settings.device = cuda:1`
    net = NET_ON_SETTINGS_DEVICE + "\n        def predict(self, x):\n            return self.fc(x.to(settings.device))\n"
    main = ("import torch\nimport settings\nfrom net import Net\nsettings.device = torch.device('cuda:1')\nmodel = Net()\n"
            "y = model.predict(torch.ones(2, 4))\n")
    project = _project(tmp_path, {"settings.py": SETTINGS, "net.py": textwrap.dedent(net), "main.py": main})
    assert [code for _, code, _ in _findings(project, "net.py") if code.startswith("TP1")] == []
    # the same method moving its input with a bare `.cuda()` (cuda:0) meets the model on cuda:1
    (project / "net.py").write_text(textwrap.dedent(net.replace("x.to(settings.device)", "x.cuda()")))
    assert [(line, code) for line, code, _ in _findings(project, "net.py") if code.startswith("TP1")] == [(15, "TP102")]


def test_the_main_block_of_an_imported_module_does_not_run(tmp_path):
    """`serving.py` moves its model only when it is the program: imported, the model is on the CPU,
    where a CUDA input fails; checked itself, its route sees the move (and its CPU input fails)."""
    project = _project(tmp_path, {
        "serving.py": ("import torch\nimport torch.nn as nn\n\nmodel = nn.Linear(4, 4)\n\n\n"
                       "def predict():\n    return model(torch.rand(1, 4))\n\n\n"
                       "if __name__ == \"__main__\":\n    model.cuda()\n"),
        "use.py": "import torch\nfrom serving import model\n\ny = model(torch.rand(2, 4, device=\"cuda\"))\n",
    })
    assert [(line, code) for line, code, _ in _findings(project, "use.py")] == [(4, "TP102")]
    assert [(line, code) for line, code, _ in _findings(project, "serving.py")] == [(8, "TP102")]
