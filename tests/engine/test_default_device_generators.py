"""An accelerator made the default device (flow/default_device.py): `torch.set_default_tensor_type(
torch.cuda.FloatTensor)` (or its string) makes factories without `device=` CUDA tensors, in the file
and in every file importing a project module whose body calls it; torch's own draws on the default
device with a CPU generator then raise (TP101): `random_split` without `generator=`
(kt_random_split), a shuffling DataLoader iterated (ssd.pytorch's RandomSampler).  The truth-table test
`test_torch_draws_on_the_default_device_with_a_cpu_generator` pins the torch side.
"""
import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path, check_source
from torchplace_rules.model import Severity
from torchplace_rules.project_index import ProjectIndex


def found(source: str, code: str = "TP101") -> list:
    return [(f.span.start_line + 1, f.severity) for f in
            check_source(textwrap.dedent(source), "m.py", Config(select=frozenset({code})))]


SPLIT = """\
import torch
from torch.utils.data import random_split

torch.set_default_tensor_type("torch.cuda.FloatTensor")


def split(dataset):
    return random_split(dataset, [8, 2])
"""


def test_random_split_on_a_cuda_default_is_reported():
    assert found(SPLIT) == [(8, Severity.ERROR)]


def test_random_split_with_a_generator_is_quiet():
    assert found(SPLIT.replace("[8, 2])", "[8, 2], generator=torch.Generator(device='cuda'))")) == []


def test_random_split_on_the_cpu_default_is_quiet():
    assert found(SPLIT.replace("torch.cuda.FloatTensor", "torch.FloatTensor")) == []
    assert found(SPLIT.replace('torch.set_default_tensor_type("torch.cuda.FloatTensor")\n', "")) == []


def test_the_tensor_type_named_or_set_under_an_availability_test():
    source = SPLIT.replace('torch.set_default_tensor_type("torch.cuda.FloatTensor")',
                           "if torch.cuda.is_available():\n    torch.set_default_tensor_type(torch.cuda.FloatTensor)")
    assert found(source) == [(9, Severity.ERROR)]


def test_the_default_set_back_to_the_cpu_is_quiet():
    source = SPLIT.replace("    return random_split", "    torch.set_default_tensor_type(torch.FloatTensor)\n"
                                                      "    return random_split")
    assert found(source) == []


def test_set_default_device_makes_the_same_default():
    assert found(SPLIT.replace('set_default_tensor_type("torch.cuda.FloatTensor")',
                               'set_default_device("cuda")')) == [(8, Severity.ERROR)]


def test_a_non_floating_tensor_type_is_no_default():
    """`set_default_tensor_type(torch.cuda.LongTensor)` raises (only floating point types): nothing follows."""
    assert found(SPLIT.replace("torch.cuda.FloatTensor", "torch.cuda.LongTensor")) == []


def test_factories_follow_the_cuda_tensor_type():
    source = """\
        import numpy as np
        import torch

        torch.set_default_tensor_type("torch.cuda.FloatTensor")
        x = torch.zeros(3)
        y = x + torch.from_numpy(np.zeros(3))
        """
    assert found(source) == [(6, Severity.ERROR)]


LOADER = """\
import torch
from torch.utils.data import DataLoader

torch.set_default_tensor_type("torch.cuda.FloatTensor")


def train(dataset, net):
    loader = DataLoader(dataset, batch_size=4, shuffle=True)
    for batch in loader:
        net(batch)
"""


def test_a_shuffling_loader_iterated_on_a_cuda_default_is_reported():
    assert found(LOADER) == [(9, Severity.ERROR)]


def test_enumerate_and_iter_of_a_shuffling_loader_are_reported():
    assert found(LOADER.replace("for batch in loader:", "for i, batch in enumerate(loader):")) == [(9, Severity.ERROR)]
    source = LOADER.replace("    for batch in loader:\n        net(batch)\n",
                            "    batches = iter(DataLoader(dataset, 4, True, num_workers=2))\n    net(next(batches))\n")
    assert found(source) == [(9, Severity.ERROR)]


def test_loaders_that_draw_with_no_cpu_generator_are_quiet():
    for options in ("shuffle=False", "shuffle=True, generator=torch.Generator(device='cuda')",
                    "shuffle=True, sampler=None", "shuffle=flag", "**options"):
        assert found(LOADER.replace("shuffle=True", options)) == [], options


def test_a_shuffling_loader_on_the_cpu_default_is_quiet():
    assert found(LOADER.replace('torch.set_default_tensor_type("torch.cuda.FloatTensor")\n', "")) == []


def test_an_imported_project_module_that_sets_the_default_sets_it_for_its_importer(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "utils.py").write_text(textwrap.dedent("""\
        import torch

        if torch.cuda.is_available():
            torch.set_default_tensor_type(torch.cuda.FloatTensor)


        def collate(batch):
            return batch
        """))
    train = textwrap.dedent("""\
        import torch
        from torch.utils.data import random_split
        from utils import collate


        def split(dataset):
            return random_split(dataset, [8, 2])
        """)
    (tmp_path / "train.py").write_text(train)

    def codes():
        return [(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "train.py", Config(),
                                                                     project=ProjectIndex(tmp_path))]
    assert codes() == [(7, "TP101")]
    (tmp_path / "utils.py").write_text("import torch\n\n\ndef collate(batch):\n    return batch\n")
    assert codes() == []


# `torch.Tensor` is the default tensor type: under a CUDA default tensor type it makes CUDA tensors like
# the factories do (nerf-pytorch: `torch.set_default_tensor_type('torch.cuda.FloatTensor')` in `__main__`,
# then `torch.cat([dists, torch.Tensor([1e10]).expand(...)])`), while `set_default_device` leaves it on
# the CPU (`test_torch_tensor_follows_the_default_tensor_type_only` checks both with torch).
LEGACY = """\
import torch

{default}


def gaps(z):
    dists = z[..., 1:] - z[..., :-1]
    return torch.cat([dists, torch.Tensor([1e10]).expand(dists[..., :1].shape)], -1)


gaps(torch.linspace(0, 1, 8).reshape(2, 4))
"""


def test_torch_tensor_under_a_cuda_default_tensor_type_is_quiet():
    assert found(LEGACY.format(default='torch.set_default_tensor_type("torch.cuda.FloatTensor")')) == []


def test_torch_tensor_under_a_cuda_default_device_is_reported():
    assert found(LEGACY.format(default='torch.set_default_device("cuda")')) == [(8, Severity.ERROR)]


def test_torch_tensor_follows_the_default_tensor_type_only():
    import subprocess
    import sys

    code = textwrap.dedent("""
        import torch
        torch.set_default_tensor_type(torch.DoubleTensor)
        assert torch.Tensor([1.0]).dtype == torch.float64  # torch.Tensor is the default tensor type
        torch.set_default_tensor_type(torch.FloatTensor)
        torch.set_default_device("meta")
        assert torch.linspace(0, 1, 3).device.type == "meta" and torch.Tensor([1.0]).device.type == "cpu"
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
