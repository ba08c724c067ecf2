"""Run a snippet as if a CUDA GPU were present (torch's FakeTensorMode).

FakeTensorMode gives real device semantics (and PyTorch's own mismatch
errors) without a GPU; `Tensor.to`/`.cuda()` are routed through
`aten._to_copy` because the CPU build cannot dispatch them to cuda.
"""
from __future__ import annotations

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.overrides import TorchFunctionMode


def _device_arg(args, kwargs):
    for value in list(args) + [kwargs.get("device")]:
        if isinstance(value, (str, torch.device)):
            return torch.device(value)
        if isinstance(value, torch.Tensor):
            return value.device
    return None


class _RouteTransfers(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func in (torch.Tensor.to, torch.Tensor.cuda, torch.Tensor.cpu) and args and isinstance(args[0], torch.Tensor):
            tensor, rest = args[0], args[1:]
            if func is torch.Tensor.cuda:
                device = torch.device("cuda", 0)
            elif func is torch.Tensor.cpu:
                device = torch.device("cpu")
            else:
                device = _device_arg(rest, kwargs)
            dtype = kwargs.get("dtype") or next((a for a in rest if isinstance(a, torch.dtype)), None)
            if device is None and dtype is None:
                return func(*args, **kwargs)
            return torch.ops.aten._to_copy(tensor, device=device or tensor.device, dtype=dtype or tensor.dtype)
        return func(*args, **kwargs)


def _module_to(module: torch.nn.Module, *args, **kwargs) -> torch.nn.Module:
    """`Module.to`: parameters and buffers of every submodule move, in place."""
    device = torch.device("cuda", 0) if args == ("__cuda__",) else _device_arg(args, kwargs)
    if device is None:
        return module
    for sub in module.modules():
        for name, param in sub._parameters.items():
            if param is not None:
                moved = torch.ops.aten._to_copy(param.detach(), device=device)
                sub._parameters[name] = torch.nn.Parameter(moved, requires_grad=param.requires_grad)
        for name, buf in sub._buffers.items():
            if buf is not None:
                sub._buffers[name] = torch.ops.aten._to_copy(buf, device=device)
    return module


def run_on_fake_mac(code: str) -> BaseException | None:
    """Execute `code` as on a machine with MPS and no CUDA (Apple silicon: the macOS builds of torch
    have no CUDA, `torch.backends.mps.is_available()` is True); return the exception it raised."""
    return run_on_fake_gpu(code, cuda=False, mps=True)


def run_on_fake_gpu(code: str, cuda: bool = True, mps: bool = False) -> BaseException | None:
    """Execute `code`; return the exception it raised (None when it ran clean)."""
    saved = torch.cuda.is_available, torch.nn.Module.to, torch.nn.Module.cuda
    saved_mps = torch.backends.mps.is_available
    torch.cuda.is_available = lambda: cuda
    torch.backends.mps.is_available = lambda: mps
    torch.nn.Module.to = _module_to
    torch.nn.Module.cuda = lambda self, device=None: _module_to(self, "__cuda__")
    try:
        # no_grad: the CPU build cannot build autograd metadata for cuda tensors;
        # device checks do not depend on it.
        with FakeTensorMode(allow_non_fake_inputs=True), _RouteTransfers(), torch.no_grad():
            exec(compile(code, "<snippet>", "exec"), {"__name__": "__snippet__"})
    except Exception as exc:  # noqa: BLE001 - the exception is the result
        return exc
    finally:
        torch.cuda.is_available, torch.nn.Module.to, torch.nn.Module.cuda = saved
        torch.backends.mps.is_available = saved_mps
        torch.set_default_device(None)  # a snippet's set_default_device must not outlive it
    return None
