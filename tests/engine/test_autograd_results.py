"""Autograd's results are where their inputs are: `torch.autograd.grad(loss, inputs)` gives one gradient
per input on that input's device, `torch.autograd.functional.hessian(f, x)` a tensor on `x`'s device
(smee's Levenberg-Marquardt fit on the GPU, corpus batch b20: the hessian from autograd regularised
with a CPU `torch.eye`).  The engine snippets put the inputs on cuda; PyTorch's side is shown on the
meta device (autograd over fake CUDA tensors aborts the CPU build), where the same device checks run."""
import pytest

from .snippets import assert_findings

H = "import torch\n\ntheta = torch.zeros(3, requires_grad=True, device='cuda')\n"
CASES = {
    "grad-meets-a-cpu-tensor": ("""\
        loss = (theta ** 2).sum()
        (grad,) = torch.autograd.grad(loss, theta)
        step = grad + torch.ones(3)
        """, {(3, "TP101")}),
    "grad-with-grad-outputs-and-keywords": ("""\
        loss = (theta ** 2).sum()
        (grad,) = torch.autograd.grad(loss, theta, torch.tensor(1.0, device='cuda'), retain_graph=True)
        step = grad + torch.ones(3)
        """, {(3, "TP101")}),
    "grads-of-a-list-follow-each-input": ("""\
        other = torch.zeros(3, requires_grad=True)
        loss = (theta ** 2).sum() + (other ** 2).sum().cuda()
        g_theta, g_other = torch.autograd.grad(loss, [theta, other])
        a = g_theta + torch.ones(3)
        b = g_other + torch.ones(3)
        """, {(4, "TP101")}),
    "hessian-meets-a-cpu-eye": ("""\
        h = torch.autograd.functional.hessian(lambda t: (t ** 2).sum(), theta)
        regular = h + torch.eye(3)
        """, {(2, "TP101")}),
    "grad-where-the-input-is": ("""\
        (grad,) = torch.autograd.grad((theta ** 2).sum(), theta)
        step = grad + torch.ones(3, device=theta.device)
        """, set()),
    "allow-unused-may-give-none": ("""\
        (grad,) = torch.autograd.grad((theta ** 2).sum(), theta, allow_unused=True)
        step = grad + torch.ones(3)
        """, set()),
    "inputs-not-known": ("""\
        def fit(params):
            (grad,) = torch.autograd.grad((params[0] ** 2).sum(), params)
            return grad + torch.ones(3)
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


def test_pytorch_grads_and_hessian_are_on_the_inputs_device():
    import torch

    for where in ("meta", "cpu"):
        a = torch.zeros(3, requires_grad=True, device=where)
        b = torch.zeros(3, requires_grad=True, device=where)
        ga, gb = torch.autograd.grad((a ** 2).sum() + (b ** 3).sum(), [a, b])
        assert ga.device.type == gb.device.type == where
        (g,) = torch.autograd.grad((a ** 2).sum(), a, torch.tensor(1.0, device=where))
        assert g.device.type == where and g.shape == a.shape
        h = torch.autograd.functional.hessian(lambda t: (t ** 2).sum(), a)
        assert h.device.type == where and h.shape == (3, 3)
    a = torch.zeros(3, requires_grad=True, device="meta")
    (g,) = torch.autograd.grad((a ** 2).sum(), a)
    with pytest.raises(RuntimeError, match="device"):  # a meta gradient meets a CPU (3,) tensor
        g + torch.ones(3)


def test_pytorch_allow_unused_gives_none():
    import torch

    a = torch.zeros(3, requires_grad=True)
    b = torch.zeros(3, requires_grad=True)
    ga, gb = torch.autograd.grad((a ** 2).sum(), [a, b], allow_unused=True)
    assert ga is not None and gb is None
