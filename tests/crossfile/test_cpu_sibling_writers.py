"""TP204: a checkpoint written only by CPU-only programs of the loader's folder (session 18, cause R4;
DGL `examples/pytorch/dimenet/main.py` loads `f"{torch_path}/{target}.pt"`, which only its sibling
converter writes, from a model filled with `torch.from_numpy` and never moved).  Twins: the writer
names a device, the writer re-saves a loaded torch file, no sibling writes that path."""
from __future__ import annotations

import textwrap
from pathlib import Path

from torchplace_rules import Config, Severity, check_path
from torchplace_rules.project_index import ProjectIndex

from crossfile_counting_index import CountingIndex, assert_read_once_per_version

MAIN = """\
    import sys

    import torch
    from torch import nn

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(4, 2).to(device)
    torch_path, target = sys.argv[1], sys.argv[2]
    model.load_state_dict(torch.load(f"{torch_path}/{target}.pt"))
"""

CONVERT = """\
    import sys

    import numpy as np
    import torch
    from torch import nn

    model = nn.Linear(4, 2)MOVE
    model.weight.data = torch.from_numpy(np.load(sys.argv[3]))
    torch_path, target = sys.argv[1], sys.argv[2]
    torch.save(model.state_dict(), f"{torch_path}/{target}SUFFIX")
"""


def _convert(move: str, suffix: str) -> str:
    return CONVERT.replace("MOVE", move).replace("SUFFIX", suffix)


def _warnings(tmp_path: Path, convert: str) -> list:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    folder = tmp_path / "examples" / "net"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "main.py").write_text(textwrap.dedent(MAIN))
    (folder / "convert.py").write_text(textwrap.dedent(convert))
    return [(f.span.start_line + 1, f.code) for f in check_path(folder / "main.py", Config(), project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


def test_r4_a_file_only_a_cpu_only_sibling_writes_holds_cpu_tensors(tmp_path):
    assert _warnings(tmp_path, _convert("", ".pt")) == []


def test_r4_twin_the_writer_moves_the_model_to_a_gpu(tmp_path):
    assert _warnings(tmp_path, _convert(".cuda()", ".pt")) == [(9, "TP204")]


def test_r4_twin_the_writer_re_saves_a_loaded_torch_file(tmp_path):
    convert = _convert("", ".pt").replace(
        "model.weight.data = torch.from_numpy(np.load(sys.argv[3]))", "model.load_state_dict(torch.load(sys.argv[3]))")
    assert _warnings(tmp_path, convert) == [(9, "TP204")]


def test_r4_twin_the_sibling_writes_another_path(tmp_path):
    assert _warnings(tmp_path, _convert("", ".npz")) == [(9, "TP204")]


def test_r4_twin_a_library_writer_saves_what_its_callers_hand_it(tmp_path):
    library = ('import torch\n\n\ndef save(model, torch_path, target):\n'
               '    torch.save(model.state_dict(), f"{torch_path}/{target}.pt")\n')
    assert _warnings(tmp_path, library) == [(9, "TP204")]


def test_r4_twin_the_writer_imports_a_project_module_that_names_a_device(tmp_path):
    (tmp_path / "examples" / "net").mkdir(parents=True)
    (tmp_path / "examples" / "net" / "build.py").write_text("def build(device):\n    return device\n")
    convert = _convert("", ".pt").replace("import numpy as np\n", "import numpy as np\nfrom build import build\n")
    assert _warnings(tmp_path, convert) == [(9, "TP204")]


def test_r4_a_re_check_reads_no_sibling_again_and_a_changed_sibling_is_seen(tmp_path):
    _warnings(tmp_path, _convert("", ".pt"))  # (writes the files)
    folder = tmp_path / "examples" / "net"
    (folder / "build.py").write_text("def build(model):\n    return model\n")
    (folder / "convert.py").write_text(textwrap.dedent(_convert("", ".pt")).replace(
        "import numpy as np\n", "import numpy as np\nfrom build import build\n"))
    project = CountingIndex(tmp_path)

    def check():
        return [(f.span.start_line + 1, f.code) for f in check_path(folder / "main.py", Config(), project=project)
                if f.severity <= Severity.WARNING]

    assert_read_once_per_version(project, check, [], folder / "convert.py", textwrap.dedent(_convert(".cuda()", ".pt")),
                                 [(9, "TP204")])
