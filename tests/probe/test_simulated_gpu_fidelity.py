"""The simulated GPU against what a real CUDA device does, situation by situation.

The situations, each with the real GPU's outcome and the PyTorch source that
decides it, are in `fidelity_cases.py`; `benchmarks/probe_fidelity_gpu.py` runs the
same cases on a real GPU.  The tests below add what the table cannot say.
"""
from __future__ import annotations

import numpy as np
import pytest
import torch

from torchplace_probe.kernel_side import simulated_gpu as sg

from .fidelity_cases import CASES, Raises
from .fidelity_check import disagreement, outcome


def g(*shape):  # a tensor on the (simulated) GPU
    return torch.randn(*shape, device="cuda")


def c(*shape):
    return torch.randn(*shape)


def test_every_case_states_its_source():
    assert len(CASES) >= 60
    assert len({case.name for case in CASES}) == len(CASES)
    assert all(case.source.startswith("https://") for case in CASES)
    assert sum(isinstance(case.expect, Raises) for case in CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_simulated_gpu_does_what_a_real_gpu_does(case):
    with sg.simulation():
        problem = disagreement(case, outcome(case))
    assert problem is None, f"{case.name}: {problem} (source: {case.source})"


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
