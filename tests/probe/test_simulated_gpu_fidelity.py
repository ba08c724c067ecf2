"""The simulated GPU against what a real CUDA device does, operation by operation.

Each row states the outcome on a real GPU, from PyTorch's documented behaviour
(TensorIterator's device rules, indexing, Module.to, .numpy()) and its error
wording (checked with FakeTensorMode in torch 2.13), and runs the same code
under the simulation.  `OK(device)` means the op succeeds and its result lives
on `device`; `RAISES(type, text)` means it raises that type with that message
prefix.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

from torchplace_probe.kernel_side import simulated_gpu as sg

MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"


class OK:
    def __init__(self, device="cuda:0"):
        self.device = device


class RAISES:
    def __init__(self, kind, text):
        self.kind, self.text = kind, text


def g(*shape):  # a tensor on the (simulated) GPU
    return torch.randn(*shape, device="cuda")


def c(*shape):
    return torch.randn(*shape)


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)
        self.register_buffer("scale", torch.ones(2))
        self.mask = torch.ones(2)  # a plain attribute: .to() leaves it alone


def _moved_net():
    net = Net()
    net.to("cuda")
    return net


CASES = [
    ("cuda + cuda", lambda: g(3) + g(3), OK()),
    ("cuda + cpu", lambda: g(3) + c(3), RAISES(RuntimeError, MISMATCH)),
    ("cpu + cuda", lambda: c(3) + g(3), RAISES(RuntimeError, MISMATCH)),
    ("cuda * cpu 0-dim", lambda: g(3) * torch.tensor(2.0), OK()),
    ("cpu 0-dim + cuda", lambda: torch.tensor(2.0) + g(3), OK()),
    ("cuda + python scalar", lambda: g(3) + 1.5, OK()),
    ("cuda 0-dim + cpu", lambda: torch.tensor(1.0, device="cuda") + c(3), RAISES(RuntimeError, MISMATCH)),
    ("matmul cuda @ cpu", lambda: g(2, 3) @ c(3, 4), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("matmul cuda @ cuda", lambda: g(2, 3) @ g(3, 4), OK()),
    ("torch.mm cpu, cuda", lambda: torch.mm(c(2, 3), g(3, 4)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("torch.cat mixed", lambda: torch.cat([g(2), c(2)]), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("torch.cat cuda", lambda: torch.cat([g(2), g(2)]), OK()),
    ("torch.stack mixed", lambda: torch.stack([g(2), c(2)]), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("torch.where cuda cond, cpu 0-dim other", lambda: torch.where(g(3) > 0, g(3), torch.tensor(0.0)), OK()),
    ("torch.where mixed", lambda: torch.where(g(3) > 0, g(3), c(3)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("in-place cuda += cpu", lambda: g(3).add_(c(3)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("in-place cpu += cuda", lambda: c(3).add_(g(3)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("in-place cuda += cpu 0-dim", lambda: g(3).add_(torch.tensor(1.0)), OK()),
    ("index cuda with cpu long", lambda: g(5)[torch.tensor([0, 2])], OK()),
    ("index cuda with cpu bool mask", lambda: g(3)[torch.tensor([True, False, True])], OK()),
    ("index cpu with cuda indices", lambda: c(5)[torch.tensor([0, 2], device="cuda")], RAISES(IndexError, "indices should be either on cpu or on the same device as the indexed tensor (cpu)")),
    ("index cuda with cuda indices", lambda: g(5)[torch.tensor([0, 2], device="cuda")], OK()),
    ("slice of cuda", lambda: g(5)[1:3], OK()),
    ("cuda.T", lambda: g(2, 3).T, OK()),
    ("cuda.data", lambda: g(2).data, OK()),
    ("setitem cuda[0] = cpu", lambda: g(3, 2).__setitem__(0, c(2)), OK("none")),
    ("copy_ cpu into cuda", lambda: g(3).copy_(c(3)), OK()),
    ("copy_ cuda into cpu", lambda: c(3).copy_(g(3)), OK("cpu")),
    ("x.to('cuda')", lambda: c(3).to("cuda"), OK()),
    ("x.cuda()", lambda: c(3).cuda(), OK()),
    ("x.to(torch.device('cuda', 0))", lambda: c(3).to(torch.device("cuda", 0)), OK()),
    ("x.to(other_cuda_tensor)", lambda: c(3).to(g(1)), OK()),
    ("x.cpu()", lambda: g(3).cpu(), OK("cpu")),
    ("x.to('cpu')", lambda: g(3).to("cpu"), OK("cpu")),
    ("x.to(float16) stays on cuda", lambda: g(3).to(torch.float16), OK()),
    ("cuda:2 does not exist", lambda: c(3).to("cuda:2"), RAISES(RuntimeError, "CUDA error: invalid device ordinal")),
    ("zeros(device='cuda')", lambda: torch.zeros(2, device="cuda"), OK()),
    ("arange(device='cuda')", lambda: torch.arange(4, device="cuda"), OK()),
    ("tensor(list, device='cuda')", lambda: torch.tensor([1.0, 2.0], device="cuda"), OK()),
    ("zeros_like(cuda)", lambda: torch.zeros_like(g(3)), OK()),
    ("zeros_like(cuda, device='cpu')", lambda: torch.zeros_like(g(3), device="cpu"), OK("cpu")),
    ("cuda.new_zeros", lambda: g(3).new_zeros(2), OK()),
    ("cuda.sum()", lambda: g(3).sum(), OK()),
    ("torch.max(cuda, dim).values", lambda: torch.max(g(2, 3), 1).values, OK()),
    ("cuda.item()", lambda: torch.tensor(3.0, device="cuda").item(), OK("none")),
    ("cuda.tolist()", lambda: g(2).tolist(), OK("none")),
    ("cuda.numpy()", lambda: g(2).numpy(), RAISES(TypeError, "can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.")),
    ("np.asarray(cuda)", lambda: np.asarray(g(2)), RAISES(TypeError, "can't convert cuda:0 device type tensor to numpy.")),
    ("cuda.cpu().numpy()", lambda: g(2).cpu().numpy(), OK("none")),
    ("Linear on cuda, input cpu", lambda: torch.nn.Linear(3, 2).cuda()(c(4, 3)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("Linear on cuda, input cuda", lambda: torch.nn.Linear(3, 2).cuda()(g(4, 3)), OK()),
    ("Linear on cpu, input cuda", lambda: torch.nn.Linear(3, 2)(g(4, 3)), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("Conv2d on cuda, input cpu", lambda: torch.nn.Conv2d(1, 2, 3).cuda()(c(1, 1, 5, 5)), RAISES(RuntimeError, "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same")),
    ("Conv2d on cpu, input cuda", lambda: torch.nn.Conv2d(1, 2, 3)(g(1, 1, 5, 5)), RAISES(RuntimeError, "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same")),
    ("Embedding on cuda, cpu indices", lambda: torch.nn.Embedding(5, 2).cuda()(torch.tensor([1, 2])), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("cross_entropy cuda logits, cpu targets", lambda: torch.nn.functional.cross_entropy(g(4, 3), torch.tensor([0, 1, 2, 0])), RAISES(RuntimeError, "Expected all tensors to be on the same device")),
    ("LSTM on cuda, input cpu", lambda: torch.nn.LSTM(4, 3).cuda()(c(5, 2, 4)), RAISES(RuntimeError, "Input and parameter tensors are not at the same device, found input tensor at cpu and parameter tensor at cuda:0")),
    ("GRU on cpu, input cuda", lambda: torch.nn.GRU(4, 3)(g(5, 2, 4)), RAISES(RuntimeError, "Input and parameter tensors are not at the same device, found input tensor at cuda:0 and parameter tensor at cpu")),
    ("LSTM on cuda, cpu hidden state", lambda: torch.nn.LSTM(4, 3).cuda()(g(5, 2, 4), (c(1, 2, 3), c(1, 2, 3))), RAISES(RuntimeError, "Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu")),
    ("LSTM on cuda, input cuda", lambda: torch.nn.LSTM(4, 3).cuda()(g(5, 2, 4))[0], OK()),
    ("Module.to moves parameters", lambda: _moved_net().fc.weight, OK()),
    ("Module.to moves buffers", lambda: _moved_net().scale, OK()),
    ("Module.to leaves plain tensor attributes", lambda: _moved_net().mask, OK("cpu")),
    ("Module.to returns the module itself", lambda: torch.tensor(float(Net().to("cuda") is not None)), OK("cpu")),
    ("moved parameter is still a Parameter", lambda: torch.tensor(float(isinstance(_moved_net().fc.weight, torch.nn.Parameter))), OK("cpu")),
    ("backward on cuda gives cuda grads", lambda: _grad_of_moved_linear(), OK()),
    ("optimizer step on cuda params", lambda: _sgd_step(), OK()),
    ("torch.cuda.is_available()", lambda: torch.tensor(float(torch.cuda.is_available())), OK("cpu")),
    ("torch.manual_seed under simulation", lambda: torch.tensor(float(torch.manual_seed(0) is not None)), OK("cpu")),
    ("torch.cuda.manual_seed", lambda: torch.tensor(float(torch.cuda.manual_seed(0) is None)), OK("cpu")),
]


def _grad_of_moved_linear():
    lin = torch.nn.Linear(3, 1).cuda()
    lin(g(2, 3)).sum().backward()
    return lin.weight.grad


def _sgd_step():
    lin = torch.nn.Linear(3, 1).cuda()
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    lin(g(2, 3)).sum().backward()
    opt.step()
    return lin.weight


def test_table_is_large_enough():
    assert len(CASES) >= 40


@pytest.mark.parametrize("name, op, expected", CASES, ids=[c[0] for c in CASES])
def test_simulated_gpu_matches_real_gpu(name, op, expected):
    with sg.simulation():
        if isinstance(expected, RAISES):
            with pytest.raises(expected.kind) as info:
                op()
            assert str(info.value).startswith(expected.text), str(info.value)
        else:
            out = op()
            if expected.device != "none":
                assert str(out.device) == expected.device
                assert out.is_cuda == (expected.device.startswith("cuda"))


def test_autograd_graph_looks_like_the_users():
    with sg.simulation():
        w = torch.randn(3, device="cuda", requires_grad=True)
        y = w * 2
        assert w.is_leaf and type(y.grad_fn).__name__ == "MulBackward0"
        assert "grad_fn=<MulBackward0>" in repr(y)
        y.sum().backward()
        assert w.grad.device == torch.device("cuda", 0) and w.grad.tolist() == [2.0, 2.0, 2.0]


def test_type_string_names_cuda():
    with sg.simulation():
        assert g(2).type() == "torch.cuda.FloatTensor"
        assert c(2).type() == "torch.FloatTensor"


def test_values_are_real():
    with sg.simulation():
        x = torch.arange(4.0, device="cuda")
        y = (x * 2).sum()
        assert y.item() == 12.0
        assert y.device == torch.device("cuda", 0)
        if (x > 2).any():  # code that branches on values still runs
            z = x.cpu().numpy()
        assert z.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_repr_shows_the_device():
    with sg.simulation():
        assert repr(torch.tensor([1.0, 2.0], device="cuda")) == "tensor([1., 2.], device='cuda:0')"
        assert "device='cuda:0', dtype=torch.float64" in repr(torch.zeros(2, device="cuda", dtype=torch.float64))


def test_simulation_is_undone():
    with sg.simulation():
        pass
    assert torch.cuda.is_available() is False
    with pytest.raises((RuntimeError, AssertionError)):
        torch.zeros(1, device="cuda")


def test_real_mismatch_wording_matches_fake_tensor_mode():
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        a = torch.randn(3, device="cuda")
        with pytest.raises(RuntimeError) as fake:
            a + torch.randn(3)
    with sg.simulation():
        with pytest.raises(RuntimeError) as ours:
            g(3) + c(3)
    assert str(ours.value) == str(fake.value)
