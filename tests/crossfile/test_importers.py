"""Who calls a checked file's functions from other project files (its importers), and what they
pass: importers found through package re-exports and in the project's other top-level folders,
module objects built from an imported class, and findings that never depend on the order in
which the files of one run were checked."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path, check_source
from torchplace_rules.importers import imports_in
from torchplace_rules.project_index import ProjectIndex


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _findings(project: Path, name: str, index=None) -> list:
    index = index if index is not None else ProjectIndex(project)
    return [(f.span.start_line + 1, f.code) for f in check_path(project / name, Config(), project=index)]


def _check_in_order(project: Path, names: list) -> dict:
    """Every file checked with one index (as a CLI run does), in the order given."""
    index = ProjectIndex(project)
    return {name: _findings(project, name, index) for name in names}


# -- the order of checks ------------------------------------------------------------------------
ORDER_FILES = {
    "constants.py": """\
        import torch

        DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
    """,
    "ops.py": """\
        import torch
        from constants import DEVICE

        def prepare(x):
            return x.to(DEVICE)

        def combine(a, b):
            return a + b
    """,
    "run.py": """\
        import torch
        from ops import combine, prepare

        def main():
            a = prepare(torch.zeros(3))
            return combine(a, torch.ones(3))
    """,
}


def test_what_an_importer_passes_does_not_depend_on_the_files_checked_before(tmp_path):
    # (sa_convlstm: run.py builds the Trainer, whose __init__ moves the model to trainer.py's imported
    # DEVICE.  The importer's summary read the checked file without its imports, unless a check of the
    # importer had summarised it in full before: the finding came and went with the order of files.)
    project = _project(tmp_path, ORDER_FILES)
    names = sorted(ORDER_FILES)
    forward = _check_in_order(project, names)
    backward = _check_in_order(project, names[::-1])
    alone = {name: _findings(project, name) for name in names}
    assert forward == backward == alone
    assert forward["ops.py"] == [(8, "TP101")]  # `a` comes back from prepare() on DEVICE


# -- importers through packages that hand on the file's names ----------------------------------------
KNN = """\
    import torch

    class KNN:
        def __init__(self, model):
            self.model = model

        def predict(self, x):
            return self.predict_features(self.model(x))

        def predict_features(self, z):
            return torch.tensor(z.detach().numpy())
"""

KNN_SCRIPT = """\
    import torch
    from pkg.detector import KNN

    def main(model):
        detector = KNN(model.cuda())
        return detector.predict(torch.randn(4, 8).cuda())
"""


def test_a_script_that_imports_a_class_through_its_package_is_one_of_its_callers(tmp_path):
    # (pytorch-ood: the example imports KNN from pytorch_ood.detector, whose __init__ re-exports knn.py;
    # the CUDA features reach `.numpy()` in knn.py.)
    files = {"pkg/__init__.py": "", "pkg/detector/__init__.py": "from .knn import KNN\n",
             "pkg/detector/knn.py": KNN, "run.py": KNN_SCRIPT}
    project = _project(tmp_path, files)
    index = ProjectIndex(project)
    knn = project / "pkg/detector/knn.py"
    assert index.importers.importers_of(knn) == [project / "pkg/detector/__init__.py", project / "run.py"]
    assert _findings(project, "pkg/detector/knn.py") == [(11, "TP104")]
    fixed = dict(files, **{"pkg/detector/knn.py": KNN.replace("z.detach().numpy()", "z.detach().cpu().numpy()")})
    assert _findings(_project(tmp_path, fixed), "pkg/detector/knn.py") == []


BLEND = """\
    import torch

    def mix(a, b):
        return a + b
"""


def _blend_project(tmp_path: Path, package_init: str, script: str) -> Path:
    return _project(tmp_path, {"ops/__init__.py": package_init, "ops/blend.py": BLEND, "script.py": script})


def test_a_module_attribute_of_a_package_that_imports_the_function_calls_it(tmp_path):
    # (tntorch: smoothness.py calls `tn.partial(...)`; tntorch/__init__ imports partial from derivatives.py)
    project = _blend_project(tmp_path, "from .blend import mix\n", """\
        import torch
        import ops as o

        o.mix(torch.ones(3).cuda(), torch.zeros(3))
    """)
    assert _findings(project, "ops/blend.py") == [(4, "TP101")]


def test_a_name_a_package_star_imports_from_the_file_calls_it(tmp_path):
    # (rl-starter-files: utils/__init__ does `from .agent import *`, scripts call `utils.Agent(...)`)
    project = _blend_project(tmp_path, "from .blend import *\n", """\
        import torch
        import ops

        ops.mix(torch.ones(3).cuda(), torch.zeros(3))
    """)
    assert _findings(project, "ops/blend.py") == [(4, "TP101")]


def test_a_name_the_caller_star_imports_from_a_helper_module_is_known(tmp_path):
    # (TRAttack: the script gets its CPU loader from `getData` of `from utils import *` and hands
    # each batch to the package's attack, which indexes it with a CUDA mask)
    project = _blend_project(tmp_path, "from .blend import mix\n", """\
        import torch
        import ops
        from helpers import *

        ops.mix(torch.ones(3).cuda(), make())
    """)
    (project / "helpers.py").write_text("import torch\n\n\ndef make():\n    return torch.zeros(3)\n")
    assert _findings(project, "ops/blend.py") == [(4, "TP101")]
    (project / "helpers.py").write_text("import torch\n\n\ndef make():\n    return torch.zeros(3).cuda()\n")
    assert _findings(project, "ops/blend.py") == []


def test_a_module_the_caller_gets_through_a_star_import_is_known(tmp_path):
    # (DDECC: Main.py never imports torch itself; `from Codes import *` hands it on, and its
    # `torch.device("cuda" ...)` is the device the model file's method moves its input to)
    project = _blend_project(tmp_path, "from .blend import mix\n", """\
        import ops
        from helpers import *

        ops.mix(torch.ones(3).cuda(), torch.zeros(3))
    """)
    (project / "helpers.py").write_text("import torch\n")
    assert _findings(project, "ops/blend.py") == [(4, "TP101")]


def test_the_names_of_an_import_written_over_several_lines_are_read(tmp_path):
    project = _blend_project(tmp_path, "from .blend import (\n    mix,  # the one\n)\n", """\
        import torch
        from ops import mix

        mix(torch.ones(3).cuda(), torch.zeros(3))
    """)
    assert _findings(project, "ops/blend.py") == [(4, "TP101")]


def test_a_package_that_star_imports_many_modules_is_not_followed(tmp_path):
    # An index of a whole library (transformers/models/__init__ star-imports every model): its importers
    # would be every user of the library, and each lookup of a name it does not bind a search of them all.
    stars = "".join(f"from .m{i} import *\n" for i in range(8)) + "from .blend import *\n"
    files = {f"ops/m{i}.py": "X = 1\n" for i in range(8)}
    project = _project(tmp_path, files)
    _blend_project(project, stars, "import torch\nimport ops\n\nops.mix(torch.ones(3).cuda(), torch.zeros(3))\n")
    assert ProjectIndex(project).importers.importers_of(project / "ops/blend.py") == [project / "ops/__init__.py"]
    assert _findings(project, "ops/blend.py") == []


def test_a_script_in_another_folder_of_the_project_root_is_one_of_its_callers(tmp_path):
    # (pytorch-ood: src/pytorch_ood/... is used by examples/knn_detector.py, in neither the package's
    # folders nor those above it.)
    files = {"src/pkg/__init__.py": "", "src/pkg/knn.py": KNN,
             "examples/run.py": KNN_SCRIPT.replace("from pkg.detector import KNN", "from pkg.knn import KNN")}
    project = _project(tmp_path, files)
    assert ProjectIndex(project).importers.importers_of(project / "src/pkg/knn.py") == [project / "examples/run.py"]
    assert _findings(project, "src/pkg/knn.py") == [(11, "TP104")]


# -- what an importer makes from the imported names ---------------------------------------------------
TRANSFORMS = """\
    import torch

    def normalize(tensor, mean, std):
        mean = torch.tensor(mean)
        return tensor.sub_(mean[:, None, None])

    class Denormalize:
        def __init__(self, mean):
            self.mean = [-m for m in mean]

        def __call__(self, tensor):
            return normalize(tensor, self.mean, None)
"""


def test_a_function_that_calls_a_module_object_made_from_an_imported_class_calls_into_the_file(tmp_path):
    # (torchvision#19028: `denormalize = Denormalize(...)` at module level, `denormalize(img)` in main())
    project = _project(tmp_path, {"transforms.py": TRANSFORMS, "flow.py": """\
        import torch
        from transforms import Denormalize

        denormalize = Denormalize(mean=[0.485, 0.456, 0.406])

        def main(img):
            return denormalize(img.cuda())
    """})
    assert _findings(project, "transforms.py") == [(5, "TP101")]


def test_a_method_that_calls_an_attribute_made_from_an_imported_class_calls_into_the_file(tmp_path):
    project = _project(tmp_path, {"transforms.py": TRANSFORMS, "runner.py": """\
        import torch
        from transforms import Denormalize

        class Runner:
            def __init__(self):
                self.denormalize = Denormalize(mean=[0.485, 0.456, 0.406])

            def show(self, img):
                return self.denormalize(img.cuda())
    """})
    assert _findings(project, "transforms.py") == [(5, "TP101")]


def test_an_importers_summary_follows_no_other_package_past_the_last_depth(tmp_path):
    # The importer's own imports are summarised without theirs (the depth limit); only the packages of
    # the file asked about are read through, so other packages' modules are never summarised for it.
    project = _project(tmp_path, {
        "other/__init__.py": "from .impl import helper\n",
        "other/impl.py": "import torch\n\ndef helper(x):\n    return x.cuda()\n",
        "ops/__init__.py": "from .blend import mix\n", "ops/blend.py": BLEND,
        "script.py": """\
            import torch
            from ops import mix
            from other import helper

            def main():
                return mix(helper(torch.ones(3)), torch.zeros(3))
        """})
    index = ProjectIndex(project)
    assert _findings(project, "ops/blend.py", index) == []
    summarised = {path for path, _ in index.summaries.entries}
    assert project / "ops/blend.py" in summarised and project / "other/impl.py" not in summarised


def test_the_import_lines_of_a_file_are_read_with_every_name_they_import():
    text = textwrap.dedent("""\
        import os, torch.nn as nn
        from .knn import (  # the detectors
            KNN,
            Mahalanobis as Maha,  # renamed
        )
        from . import utils
        from ..ops import *
        x = "import_me"
        def f():
            from pkg.sub import g, h  # inside a function
        from x import (a,
                       b)
    """)
    assert imports_in(text) == [(0, "os", ()), (0, "torch.nn", ()), (1, "knn", ("KNN", "Mahalanobis")),
                                (1, "", ("utils",)), (2, "ops", ("*",)), (0, "pkg.sub", ("g", "h")),
                                (0, "x", ("a", "b"))]


def test_a_module_past_the_last_depth_that_imports_the_checked_file_gets_its_real_names(tmp_path):
    # layer.py imports update.py, which is summarised without its imports (the depth limit): its
    # `from frame import Frame` is still the checked file's class, so the Frame that update.py's
    # forward returns reaches frame.py with its tensor on the GPU (nanofold's initial frame).
    project = _project(tmp_path, {
        "frame.py": """\
            import torch

            class Frame:
                def __init__(self, rotations):
                    self.rotations = rotations

                @staticmethod
                def compose(a, b):
                    return Frame(a.rotations + b.rotations)
        """,
        "update.py": """\
            from torch import nn
            from frame import Frame

            class Update(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.linear = nn.Linear(3, 3)

                def forward(self, x):
                    return Frame(self.linear(x))
        """,
        "layer.py": """\
            import torch
            from torch import nn
            from frame import Frame
            from update import Update

            class Layer(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.update = Update()

                def forward(self, x):
                    start = Frame(torch.eye(3))
                    return Frame.compose(start, self.update(x))
        """,
        "run.py": """\
            import torch
            from layer import Layer

            model = Layer().to("cuda")
            out = model(torch.ones(3, 3, device="cuda"))
        """})
    assert _findings(project, "frame.py") == [(9, "TP101")]


# -- a file that names no torch, whose functions its importers pass tensors ------------------------
# (ganomaly: lib/evaluate.py imports only sklearn; model.py hands it the scores it made on the GPU.)
METRICS = """\
    from sklearn.metrics import roc_curve, auc


    def evaluate(labels, scores):
        return roc(labels, scores)


    def roc(labels, scores):
        fpr, tpr, _ = roc_curve(labels, scores)
        return auc(fpr, tpr)
"""

ARRAYS = """\
    import numpy as np


    def summarise(values):
        return np.asarray(values).mean()
"""


def _scores_caller(placed: str) -> str:
    return f"""\
        import torch
        from metrics import evaluate
        from arrays import summarise


        def test():
            scores = torch.zeros(8, device="cuda"){placed}
            labels = torch.ones(8, dtype=torch.long, device="cuda"){placed}
            return evaluate(labels, scores), summarise(scores)
    """


def test_a_file_without_torch_converts_the_accelerator_tensors_its_importer_passes(tmp_path):
    project = _project(tmp_path, {"metrics.py": METRICS, "arrays.py": ARRAYS, "model.py": _scores_caller("")})
    assert _findings(project, "metrics.py") == [(9, "TP104")]  # through evaluate() -> roc()
    assert _findings(project, "arrays.py") == [(5, "TP104")]


def test_a_file_without_torch_given_host_tensors_is_quiet(tmp_path):
    project = _project(tmp_path, {"metrics.py": METRICS, "arrays.py": ARRAYS, "model.py": _scores_caller(".cpu()")})
    assert _findings(project, "metrics.py") == []
    assert _findings(project, "arrays.py") == []


def test_a_star_import_that_resolves_to_the_importing_package_itself(tmp_path):
    """DGL's `dgl/multiprocessing/__init__.py` (review14, s14 merge): `from multiprocessing import *` under an
    `if` resolves, by the script-directory rule, to the package itself, whose names include the empty name of
    `from .. import backend`: the analysis crashed joining the branches (IndexError); it binds nothing there."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    pkg = tmp_path / "pkg"
    (pkg / "multiprocessing").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "backend.py").write_text("def get_preferred_backend():\n    return 'pytorch'\n")
    init = pkg / "multiprocessing" / "__init__.py"
    init.write_text("from .. import backend as F\n\nif F.get_preferred_backend() == 'pytorch':\n"
                    "    from torch.multiprocessing import *\nelse:\n    from multiprocessing import *\n")
    errors = []
    findings = check_source(init.read_text(), str(init), Config(), errors=errors, project=ProjectIndex(tmp_path))
    assert errors == [] and [f.code for f in findings] == []
