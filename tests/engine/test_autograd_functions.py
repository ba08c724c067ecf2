"""Custom autograd functions (flow/autograd_functions.py): `forward(ctx, ...)` and `backward(ctx, *grads)`
of a `torch.autograd.Function` work on the caller's tensors, all on one device; a CPU tensor either
body makes and combines with them is TP202 (ddn's optimal transport backward: `torch.cat((torch.zeros(B, 1),
v1))`).  The truth-table rows (test_truth_table.py) check the semantics against torch.
"""
import textwrap

from torchplace_rules import Config, check_source
from torchplace_rules.model import Severity


def found(source: str, code: str = "TP202") -> list:
    return [(f.span.start_line + 1, f.severity) for f in
            check_source(textwrap.dedent(source), "m.py", Config(select=frozenset({code})))]


BACKWARD = """\
import torch


class Pad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, grad_output):
        x, w = ctx.saved_tensors
        pad = torch.zeros(grad_output.shape[0], 1)
        return torch.cat((pad, grad_output * w), dim=1), None


def run(x, w, device="cuda"):
    return Pad.apply(x.to(device), w.to(device))
"""


def test_backward_cpu_factory_meeting_a_gradient_is_reported():
    assert found(BACKWARD) == [(13, Severity.WARNING)]


def test_backward_factory_made_where_the_gradient_is_is_quiet():
    assert found(BACKWARD.replace("1)\n", "1, device=grad_output.device)\n", 1)) == []


def test_backward_cpu_factory_meeting_a_saved_tensor_is_reported():
    source = BACKWARD.replace("(pad, grad_output * w)", "(pad, w)")
    assert found(source) == [(13, Severity.WARNING)]


def test_the_fix_creates_it_on_the_gradients_device():
    fixes = [f.fix for f in check_source(BACKWARD, "m.py", Config(select=frozenset({"TP202"})))]
    assert fixes and "device=grad_output.device" in fixes[0].edits[0].new_text


def test_forward_cpu_factory_meeting_an_input_is_reported():
    source = """\
        import torch
        from torch.autograd import Function


        class Shift(Function):
            @staticmethod
            def forward(ctx, x, dim):
                ones = torch.ones(x.shape[dim])
                return x + ones

            @staticmethod
            def backward(ctx, g):
                return g, None

        device = torch.device("cuda")
        """
    assert found(source) == [(8, Severity.WARNING)]


def test_a_zero_dim_cpu_tensor_is_quiet():
    source = BACKWARD.replace("pad = torch.zeros(grad_output.shape[0], 1)", "pad = torch.tensor(0.5)").replace(
        "torch.cat((pad, grad_output * w), dim=1)", "grad_output * pad")
    assert found(source) == []


def test_a_subclass_of_a_project_function_is_one():
    source = BACKWARD.replace("class Pad(torch.autograd.Function):", "class Base(torch.autograd.Function):\n"
                              "    pass\n\n\nclass Pad(Base):")
    assert found(source) == [(17, Severity.WARNING)]


def test_a_plain_class_with_static_forward_and_backward_is_not_one():
    source = BACKWARD.replace("class Pad(torch.autograd.Function):", "class Pad:")
    assert found(source) == []


def test_setup_context_style_forward_takes_no_ctx():
    """torch >= 2.0: `forward(x, w)` without ctx when the class defines `setup_context`; its first
    parameter is an input."""
    source = """\
        import torch


        class Pad(torch.autograd.Function):
            @staticmethod
            def forward(x, w):
                return torch.cat((torch.zeros(x.shape[0], 1), x * w), dim=1)

            @staticmethod
            def setup_context(ctx, inputs, output):
                ctx.save_for_backward(*inputs)

            @staticmethod
            def backward(ctx, g):
                return g[:, 1:], None

        device = "cuda"
        """
    assert found(source) == [(7, Severity.WARNING)]


def test_a_program_without_an_accelerator_is_quiet():
    source = BACKWARD.replace('def run(x, w, device="cuda"):\n    return Pad.apply(x.to(device), w.to(device))',
                              "if __name__ == '__main__':\n    Pad.apply(torch.ones(2, 3), torch.ones(2, 3))")
    assert found(source) == []


def test_options_are_no_tensors():
    """Parameters named as sizes or flags (`num_groups`, `use_bias`) are not the inputs' tensors."""
    source = """\
        import torch


        class Group(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, num_groups):
                return x.view(num_groups, -1) + torch.ones(num_groups, 1).sum()

            @staticmethod
            def backward(ctx, g):
                return g, None

        device = "cuda"
        """
    assert found(source) == []
