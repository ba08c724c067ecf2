"""Session 16 precision work (issue 11): general causes among the whole review's remaining false warnings.

Each cause has a quiet construct (the review's pattern, in a snippet of our own) and reported twins that
differ only where the cause's reasoning no longer holds."""
import textwrap

import pytest

from torchplace_rules import Severity, check_source


def _loud(source: str, path: str = "demo.py") -> set:
    return {(f.span.start_line + 1, f.code) for f in check_source(textwrap.dedent(source), path)
            if f.severity <= Severity.WARNING}


# -- a load followed in its block by an unconditional `.cuda()` (YOLOX `tools/demo.py:126`) -----------------
# Without a CUDA GPU the block fails at the `.cuda()` whatever the load does: `map_location` saves nothing.

BEFORE_CUDA = """\
    import argparse
    import torch
    import torch.nn as nn

    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    args = parser.parse_args()


    class Predictor:
        def __init__(self, model, engine_file=None):
            self.model = model
            if engine_file is not None:
                fast = nn.Linear(3, 3)
                fast.load_state_dict(torch.load(engine_file))
                {between}
                x = torch.ones(1, 3).cuda()
                self.model(x)
                self.model = fast
    """
BEFORE_CUDA_CASES = {
    "load-before-an-unconditional-cuda-call": (BEFORE_CUDA.replace("{between}", "pass"), set()),
    # twins: the `.cuda()` may not run after the load
    "load-before-a-guarded-cuda-call": (BEFORE_CUDA.replace(
        "{between}\n                x = torch.ones(1, 3).cuda()",
        "x = torch.ones(1, 3)\n                if torch.cuda.is_available():\n                    x = x.cuda()"),
        {(15, "TP204")}),
    "load-then-an-early-return": (BEFORE_CUDA.replace("{between}", "if model is None:\n                    return"),
                                  {(15, "TP204")}),
    "load-before-a-conditional-cuda-expression": (BEFORE_CUDA.replace(
        "{between}\n                x = torch.ones(1, 3).cuda()",
        "x = torch.ones(1, 3).cuda() if args.device != 'cpu' else None"), {(15, "TP204")}),
    # a handler may catch the load's failure and go on without a GPU: a `try` body is not climbed out of
    "load-in-a-try-before-a-cuda-call": (BEFORE_CUDA.replace(
        "                fast.load_state_dict(torch.load(engine_file))\n                {between}\n",
        "                try:\n                    fast.load_state_dict(torch.load(engine_file))\n"
        "                except RuntimeError:\n                    return\n"), {(16, "TP204")}),
    # a loop body is not climbed out of either: a later iteration may leave before the `.cuda()` after it
    "load-in-a-loop-before-a-cuda-call": (BEFORE_CUDA.replace(
        "                fast.load_state_dict(torch.load(engine_file))\n                {between}\n",
        "                for f in [engine_file]:\n                    fast.load_state_dict(torch.load(f))\n"),
        {(16, "TP204")}),
}


@pytest.mark.parametrize("name", list(BEFORE_CUDA_CASES))
def test_a_load_before_an_unconditional_cuda_call(name):
    body, expected = BEFORE_CUDA_CASES[name]
    assert _loud(body) == expected


@pytest.mark.parametrize("between, expected", [("pass", True), ("print(model)", True), ("sys.exit(1)", False),
                                               ("if model is None:\n                    exit()", False),
                                               ("yield fast", False), ("raise ValueError(model)", False)])
def test_what_may_leave_the_block_before_the_cuda_call(between, expected):
    # (the rule's own reading: the engine may also end the flow at `sys.exit()`, which hides the twin above)
    import ast

    from torchplace_rules.context.device_choice import before_an_unconditional_cuda_call
    from torchplace_rules.context.scopes import parent_map
    tree = ast.parse(textwrap.dedent(BEFORE_CUDA.replace("{between}", between)))
    load = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n.func) == "torch.load")
    assert before_an_unconditional_cuda_call(parent_map(tree), load) is expected


# -- a program that hides every GPU at its entry (WeNet `wenet/bin/export_onnx_bpu.py:310, 710`, cause V5) -------
# `CUDA_VISIBLE_DEVICES=-1` (or empty) leaves CUDA no device: no module of the program is ever on a GPU.

EXPORT = """\
    import os
    import torch
    import torch.nn as nn


    class Subsample(nn.Module):
        def __init__(self, odim):
            super().__init__()
            self.conv = nn.Conv2d(1, odim, 3)

        def forward(self, x):
            x = self.conv(x)
            out = torch.zeros(x.size(0), x.size(1), 1, x.size(3))
            return out + x[:, :, :1]


    def export(model, device):
        model.to(device)
        return torch.jit.script(model)


    if __name__ == "__main__":
        {before}
        {hide}
        export(Subsample(4), "cpu")
    """
HIDE = 'os.environ["CUDA_VISIBLE_DEVICES"] = "-1"'
EXPORT_CASES = {
    "program-hiding-every-gpu": (EXPORT.replace("{before}", "torch.manual_seed(0)").replace("{hide}", HIDE), set()),
    "program-hiding-every-gpu-with-an-empty-list": (
        EXPORT.replace("{before}", "pass").replace("{hide}", 'os.environ["CUDA_VISIBLE_DEVICES"] = ""'), set()),
    # twins: a GPU stays visible, or the program may have touched one before hiding them
    "program-choosing-gpu-0": (
        EXPORT.replace("{before}", "pass").replace("{hide}", 'os.environ["CUDA_VISIBLE_DEVICES"] = "0"'),
        {(13, "TP202")}),
    "program-hiding-gpus-only-on-a-flag": (EXPORT.replace("{before}", "import sys").replace(
        "{hide}", 'if "--cpu" in sys.argv:\n            ' + HIDE), {(13, "TP202")}),
    "program-hiding-gpus-after-using-one": (
        EXPORT.replace("{before}", "export(Subsample(4), 'cuda')").replace("{hide}", HIDE), {(13, "TP202")}),
    "module-level-gpu-work-before-the-main-block-hides-them": (
        EXPORT.replace("{before}", "pass").replace("{hide}", HIDE).replace(
            '    if __name__ == "__main__":', '    ready = export(Subsample(4), "cuda")\n\n\n    if __name__ == "__main__":'),
        {(13, "TP202")}),
}


@pytest.mark.parametrize("name", list(EXPORT_CASES))
def test_a_program_that_hides_every_gpu(name):
    body, expected = EXPORT_CASES[name]
    assert _loud(body) == expected


def _project(tmp_path, importer: str) -> set:
    from torchplace_rules import Config, check_path
    from torchplace_rules.project_index import ProjectIndex
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    (tmp_path / "export.py").write_text(textwrap.dedent(EXPORT.replace("{before}", "pass").replace("{hide}", HIDE)))
    (tmp_path / "tool.py").write_text(textwrap.dedent(importer))
    return {(f.span.start_line + 1, f.code) for f in check_path(tmp_path / "export.py", Config(),
                                                                 project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING}


TOOL = """\
    import os
    import torch
    from export import Subsample, export

    if __name__ == "__main__":
        {hide}
        export(Subsample(8), "{device}")
    """


def test_an_importer_that_hides_every_gpu_too_keeps_the_classes_off_gpus(tmp_path):
    assert _project(tmp_path, TOOL.replace("{hide}", HIDE).replace("{device}", "cpu")) == set()


def test_an_importer_that_may_use_a_gpu_puts_the_classes_there(tmp_path):
    assert _project(tmp_path, TOOL.replace("{hide}", "pass").replace("{device}", "cuda")) == {(13, "TP202")}


def test_a_class_of_this_file_from_another_parse_of_it_is_this_files_class():
    # the flow may hand back the project's summary of the checked file (through the calls an importer
    # makes into it, as WeNet's `tools/onnx2horizonbin.py`): its class nodes are this file's classes
    import ast

    from torchplace_rules.context import FileContext
    source = textwrap.dedent(EXPORT.replace("{before}", "pass").replace("{hide}", HIDE))
    ctx = FileContext(ast.parse(source), "export.py")
    again = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef))
    assert ctx.own_class(again) is next(n for n in ast.walk(ctx.tree) if isinstance(n, ast.ClassDef))
    assert ctx.may_reach_accelerator(again, True, ev=type("Ev", (), {"project": None, "path": "export.py"})()) is False
    # a class of another file, at the same place with the same name but other code, is not
    other = source.replace("torch.zeros(x.size(0), x.size(1), 1, x.size(3))", "torch.zeros_like(x)")
    stranger = next(n for n in ast.walk(ast.parse(other)) if isinstance(n, ast.ClassDef))
    assert ctx.own_class(stranger) is None
    assert ctx.may_reach_accelerator(stranger, True, ev=None) is True
