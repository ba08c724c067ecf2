"""TP204 where the project's own writer saves checkpoints from a GPU the run picks (recall16b, s16;
neural-colorization #11): `generator().cuda(args.gpu)` then `torch.save(G.state_dict(), p)` tags every
storage with that GPU, so a load without `map_location` fails on a machine without it even in a branch
that runs only with a GPU, and a `map_location` dict that remaps only the CUDA devices it names
(`{'cuda:0': 'cpu'}`) leaves a `cuda:1` storage where it was saved.  Without such a writer those loads
stay quiet.  (The torch behaviour: the case's `verified`, real loads with a cuda:1-tagged file.)"""
import textwrap
from pathlib import Path

from torchplace_rules import Config, check_path

from .snippets import assert_findings

H = "import argparse\nimport torch\nimport torch.nn as nn\n"

LOADER = """\
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", type=str)
    parser.add_argument("--gpu", type=int, default=-1)
    args = parser.parse_args()
    G = nn.Linear(4, 4)
    if args.gpu >= 0:
        G = G.cuda(args.gpu)
        G.load_state_dict(torch.load(args.model))
    else:
        G.load_state_dict(torch.load(args.model, map_location={"cuda:0": "cpu"}))
    """
WRITER = """\

    def train(batches):
        net = nn.Linear(4, 4).cuda(args.gpu)
        for x in batches:
            net(x).sum().backward()
        torch.save(net.state_dict(), "trained.pth")
    """


def test_loads_of_a_program_that_saves_from_a_chosen_gpu():
    assert_findings(H, LOADER + WRITER, {(8, "TP204"), (10, "TP204")})


def test_without_such_a_writer_they_stay_quiet():
    assert_findings(H, LOADER, set())


def test_a_writer_on_a_literal_gpu_is_no_evidence():
    assert_findings(H, LOADER + WRITER.replace("cuda(args.gpu)", "cuda(0)"), set())


def test_a_dict_that_maps_the_cpu_or_a_full_device_is_not_partial():
    fixed = LOADER.replace('map_location={"cuda:0": "cpu"}', 'map_location={"cuda:0": "cpu", "cpu": "cpu"}')
    assert_findings(H, fixed + WRITER, {(8, "TP204")})


def test_a_device_map_location_everywhere_is_quiet():
    fixed = LOADER.replace("torch.load(args.model)", "torch.load(args.model, map_location=f'cuda:{args.gpu}')") \
        .replace('map_location={"cuda:0": "cpu"}', 'map_location="cpu"')
    assert_findings(H, fixed + WRITER, set())


def _project(tmp_path: Path, files: dict) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    for name, text in files.items():
        (tmp_path / name).write_text(H + textwrap.dedent(text))
    return tmp_path


def test_the_writer_in_another_file_of_the_project(tmp_path):
    from torchplace_rules.project_index import ProjectIndex

    train = "args = argparse.Namespace(gpu=1)\n" + textwrap.dedent(WRITER)
    project = _project(tmp_path, {"colorize.py": LOADER, "train.py": train})
    found = {(f.span.start_line + 1, f.code) for f in check_path(project / "colorize.py", Config(), project=ProjectIndex(project))}
    assert found == {(11, "TP204"), (13, "TP204")}


def test_a_project_without_the_writer(tmp_path):
    from torchplace_rules.project_index import ProjectIndex

    project = _project(tmp_path, {"colorize.py": LOADER, "other.py": "x = 1\n"})
    assert [f for f in check_path(project / "colorize.py", Config(), project=ProjectIndex(project)) if f.code == "TP204"] == []


# s17 (PyTorch-Encoding `verify.py:96`, judged false): a writer that saves only in the process whose picked
# index is 0 (`if args.gpu == 0: torch.save(...)`, every GPU of that body picked by `args.gpu`) saves `cuda:0`
# storages, which any machine with a GPU restores: no evidence for the GPU-only branch.
GUARDED = """\

    def train(batches):
        net = nn.Linear(4, 4).cuda(args.gpu)
        for x in batches:
            net(x).sum().backward()
        if args.gpu == 0:
            torch.save(net.state_dict(), "trained.pth")
    """


def test_a_writer_that_saves_only_from_gpu_zero_is_no_evidence():
    assert_findings(H, LOADER + GUARDED, set())


def test_a_zero_guard_on_another_index_is_still_evidence():
    assert_findings(H, LOADER + GUARDED.replace("if args.gpu == 0:", "if args.rank == 0:"), {(8, "TP204"), (10, "TP204")})


def test_a_body_that_also_picks_another_gpu_is_still_evidence():
    other = GUARDED.replace("        if args.gpu == 0:", "        net.head = nn.Linear(4, 4).cuda(args.gpu + 1)\n        if args.gpu == 0:")
    assert_findings(H, LOADER + other, {(8, "TP204"), (10, "TP204")})


def test_one_unguarded_save_is_still_evidence():
    other = GUARDED.replace('            torch.save(net.state_dict(), "trained.pth")',
                            '            torch.save(net.state_dict(), "trained.pth")\n        torch.save(net.state_dict(), "last.pth")')
    assert_findings(H, LOADER + other, {(8, "TP204"), (10, "TP204")})
