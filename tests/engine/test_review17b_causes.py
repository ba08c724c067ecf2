"""False findings of the s17 fresh precision review of 13 repositories, review17b's domain
(benchmarks/review/false_finding_causes.md, causes W1...), each as a regression snippet with a true
twin.  Lines count from the snippet; warnings count (assert_findings keeps information and above)."""
from .snippets import assert_findings

H = "import sys\nimport torch\nimport torch.nn as nn\n"

# W2: `device == "cpu"` where the script binds `device` only to an accelerator literal (the CPU line
# commented out) is a constant comparison, no CPU path; `device_ids = [0]` is a list of GPU indices.
FIXED_DEVICE = """\
    # device = "cpu"
    device = {device}
    device_ids = [0]
    model = nn.Linear(3, 3)
    use_cpu = device == "cpu"
    model.load_state_dict(torch.load("ckpt.pt"))
    model.to(device)
"""


def test_w2_comparing_a_fixed_accelerator_with_cpu_is_no_cpu_path():
    assert_findings(H, FIXED_DEVICE.format(device='"cuda:0"'), set())


def test_w2_twin_a_device_read_from_the_command_line_is_a_choice():
    assert_findings(H, FIXED_DEVICE.format(device="sys.argv[1]"), {(6, "TP204")})


def test_w2_twin_a_second_binding_of_the_name_is_a_choice():
    body = FIXED_DEVICE.format(device='"cuda:0"') + "    for device in sys.argv[1:]:\n        pass\n"
    assert_findings(H, body, {(6, "TP204")})


def test_w2_twin_a_parameter_of_that_name_is_a_choice():
    # (without the move after the load: a `.to()` of a fixed CUDA device there alone makes the block GPU-only, s19 S7)
    body = FIXED_DEVICE.format(device='"cuda:0"').replace("    model.to(device)\n", "") + \
        "    def run(device):\n        return device == 'cpu'\n"
    assert_findings(H, body, {(6, "TP204")})


# W1: a `forward` parameter the body reads as another object (`graph.x`, `graph.is_inductive()`) is not
# taken for a tensor: its `.to()` may move it in place (a graph class's own `to`), no TP201.
GRAPH_INPUT = """\
    class Sign(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def _prep(self, graph, x):
            device = x.device
            graph.to("cpu")
            out = x.to("cpu") * 2
            graph.to(device)
            return out.to(device)

        def forward(self, graph):
            x = graph.{read}
            return self.lin(self._prep(graph, x))
"""


def test_w1_forward_parameter_read_as_another_object_is_no_tensor():
    assert_findings(H, GRAPH_INPUT.format(read="x.contiguous()"), set())


def test_w1_forward_parameter_calling_a_method_tensors_lack_is_no_tensor():
    assert_findings(H, GRAPH_INPUT.format(read="node_features()"), set())


def test_w1_twin_a_parameter_read_only_as_a_tensor_is_still_a_tensor():
    assert_findings(H, GRAPH_INPUT.format(read="float()"), {(8, "TP201"), (10, "TP201")})


def test_w1_twin_the_object_read_is_the_rebound_name_not_the_parameter():
    body = GRAPH_INPUT.format(read="float()").replace(
        "return self.lin(self._prep(graph, x))", "y = self.lin(self._prep(graph, x))\n        graph = self\n        return graph.lin(y)")
    assert_findings(H, body, {(8, "TP201"), (10, "TP201")})


# W2 (second part): the checkpoint a project class writes to the path its constructor takes by default
# (`checkpoint_path="./checkpoints/model.pt"`, `self.checkpoint_path = checkpoint_path`), from a method
# the script calls before the load; the class reached through a package's `__init__`, among more imports
# than are read.
TRAINER = """\
import torch


def save_model(model, path):
    torch.save(model.state_dict(), path)


class Trainer:
    def __init__(self, epochs=1, checkpoint_path="./checkpoints/model.pt"):
        self.epochs = epochs
        self.checkpoint_path = checkpoint_path

    def run(self, model):
        save_model(model.to("cpu"), self.checkpoint_path)
"""
SCRIPT = """\
import torch
import torch.nn as nn
{other_imports}
from pkg.trainer import Trainer


def train(device):
    model = nn.Linear(3, 3)
    Trainer(epochs=3).run(model)
    model.load_state_dict(torch.load("{path}"))
    return model.to(device)


train("cuda:0" if torch.cuda.is_available() else "cpu")
"""


def _trainer_project(tmp_path, path: str, others: int = 0):
    from torchplace_rules import Config, Severity, check_path
    from torchplace_rules.project_index import ProjectIndex
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "pkg" / "trainer").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "trainer" / "__init__.py").write_text("from .trainer import Trainer\n")
    (tmp_path / "pkg" / "trainer" / "trainer.py").write_text(TRAINER)
    for i in range(others):
        (tmp_path / f"helper{i}.py").write_text(f"def helper{i}():\n    return {i}\n")
    imports = "\n".join(f"from helper{i} import helper{i}" for i in range(others))
    (tmp_path / "train.py").write_text(SCRIPT.format(other_imports=imports, path=path))
    return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "train.py", Config(),
                                                                project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_w2_the_trainer_default_checkpoint_written_before_the_load_is_quiet(tmp_path):
    assert _trainer_project(tmp_path, "./checkpoints/model.pt") == []


def test_w2_the_trainer_is_read_first_among_many_imports(tmp_path):
    assert _trainer_project(tmp_path, "./checkpoints/model.pt", others=10) == []


def test_w2_twin_another_path_is_still_reported(tmp_path):
    assert _trainer_project(tmp_path, "./checkpoints/best.pt") == [(10, "TP204")]
