"""What a real CUDA GPU does, situation by situation, with the PyTorch source that says so.

Each case is plain PyTorch code that names `"cuda"`; it runs unchanged on a real GPU
(`benchmarks/probe_fidelity_gpu.py`) and under the simulated GPU
(`tests/probe/test_simulated_gpu_fidelity.py`).  `expect` is the real GPU's outcome:

* `Device("cuda:0")`: the call succeeds and its result (a tensor, or the first
  parameter of a module) is on that device;
* `Value(v)`: the call succeeds and returns `v`;
* `Raises(type, prefix)`: the call raises `type` whose message starts with `prefix`.

`source` is where PyTorch 2.13 decides (a file of the v2.13.0 tree, or its docs).
`devices` is how many GPUs the case needs.
"""
from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

GH = "https://github.com/pytorch/pytorch/blob/v2.13.0/"
TI = GH + "aten/src/ATen/TensorIterator.cpp (TensorIteratorBase::compute_types, BINARY_OP_CONFIG, build_ternary_op)"
GEN = (GH + "torchgen/dest/register_dispatch_key.py (gen_device_check) and "
       + GH + "aten/src/ATen/core/adaption.cpp (common_device_check_failure)")
INDEXING = GH + "aten/src/ATen/native/TensorAdvancedIndexing.cpp"
ARG_PARSER = GH + "torch/csrc/utils/python_arg_parser.cpp (a 0-dim tensor passed as a Scalar is read with .item())"
TENSOR_NEW = GH + "torch/csrc/utils/tensor_new.cpp (internal_new_from_data)"
MODULE = GH + "torch/nn/modules/module.py (Module._apply: param.data = fn(param))"
CUDA_DOCS = "https://pytorch.org/docs/stable/cuda.html"
SERIALIZATION = GH + "torch/serialization.py (location_tag, default_restore_location)"
MISMATCH = "Expected all tensors to be on the same device, but found at least two devices, {} and {}!"
PACKED = (GH + "aten/src/ATen/native/PackedSequence.cpp (checkLongTensor, called first by _pack_padded_sequence); "
          + GH + "torch/nn/utils/rnn.py (pack_padded_sequence keeps a tensor's device)")
LENGTHS = "'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long tensor"
GOT = "Expected all tensors to be on the same device, but got {} is on {}, different from other tensors on {}"


@dataclass
class Device:
    device: str


@dataclass
class Value:
    value: Any


@dataclass
class Raises:
    kind: type
    prefix: str


@dataclass
class Case:
    name: str
    run: Callable[[], Any]
    expect: Any
    source: str
    devices: int = 1


def g(*shape):
    return torch.randn(*shape, device="cuda")


def c(*shape):
    return torch.randn(*shape)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
        self.register_buffer("scale", torch.ones(2))
        self.mask = torch.ones(2)  # a plain attribute: Module.to leaves it alone


def _moved(module):
    module.to("cuda")
    return module


def _identity_kept():
    net = Net()
    weight = net.fc.weight
    net.cuda()
    return net.fc.weight is weight and weight.is_cuda


def _grad():
    lin = nn.Linear(3, 1).cuda()
    lin(g(2, 3)).sum().backward()
    return lin.weight.grad


def _sgd_step():
    lin = nn.Linear(3, 1).cuda()
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    lin(g(2, 3)).sum().backward()
    opt.step()
    return lin.weight


def _optimizer_state_before_cuda():
    lin = nn.Linear(3, 1)
    opt = torch.optim.Adam(lin.parameters())
    lin(c(2, 3)).sum().backward()
    opt.step()
    state = opt.state_dict()
    lin2 = nn.Linear(3, 1)
    opt2 = torch.optim.Adam(lin2.parameters())
    opt2.load_state_dict(state)  # the state follows the parameters' device *now*: the CPU
    lin2.cuda()
    lin2(g(2, 3)).sum().backward()
    opt2.step()


def _set_default_device():
    torch.set_default_device("cuda")
    try:
        return nn.Linear(2, 2).weight.device == torch.zeros(1).device == torch.device("cuda", 0)
    finally:
        torch.set_default_device("cpu")


def _packed():
    lstm = nn.LSTM(4, 3, batch_first=True).cuda()
    x = g(2, 5, 4)
    packed = nn.utils.rnn.pack_padded_sequence(x, torch.tensor([5, 3]), batch_first=True, enforce_sorted=False)
    out, _ = lstm(packed)
    padded, lengths = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    return padded.is_cuda and lengths.device.type == "cpu"


def _pack_cuda_lengths(enforce_sorted: bool):
    def run():
        lengths = torch.tensor([5, 3], device="cuda")
        return nn.utils.rnn.pack_padded_sequence(g(2, 5, 4), lengths, batch_first=True, enforce_sorted=enforce_sorted)
    return run


def _pad_sorted():
    packed = nn.utils.rnn.pack_padded_sequence(g(2, 5, 4), torch.tensor([5, 3]), batch_first=True)
    padded, lengths = nn.utils.rnn.pad_packed_sequence(packed, batch_first=True)
    return (str(padded.device), str(lengths.device), str(packed.batch_sizes.device))


def _ctc():
    log_probs = g(50, 2, 20).log_softmax(2)
    targets = torch.randint(1, 20, (2, 30))
    return F.ctc_loss(log_probs, targets, torch.full((2,), 50), torch.randint(10, 30, (2,)))


def _events():
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        start.record()
        g(64, 64) @ g(64, 64)
        end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) >= 0


def _amp():
    lin = nn.Linear(8, 8).cuda()
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cuda")
    with torch.autocast("cuda", dtype=torch.float16):
        out = lin(g(4, 8))
    scaler.scale(out.float().sum()).backward()
    scaler.step(opt)
    scaler.update()
    return out.dtype


def _save_load(map_location=None):
    buffer = io.BytesIO()
    torch.save(nn.Linear(2, 2).cuda().state_dict(), buffer)
    buffer.seek(0)
    return torch.load(buffer, map_location=map_location)["weight"]


def _load_cpu_checkpoint_to(map_location):
    buffer = io.BytesIO()
    torch.save({"w": torch.ones(2)}, buffer)
    buffer.seek(0)
    return torch.load(buffer, map_location=map_location)["w"]


def _bad_ordinal():
    return torch.zeros(1, device=f"cuda:{torch.cuda.device_count()}")


CASES = [
    # --- TensorIterator: elementwise ops -------------------------------------------------------
    Case("cuda + cuda", lambda: g(3) + g(3), Device("cuda:0"), TI),
    Case("cuda + cpu", lambda: g(3) + c(3), Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("cpu + cuda", lambda: c(3) + g(3), Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("cuda * cpu 0-dim", lambda: g(3) * torch.tensor(2.0), Device("cuda:0"), TI),
    Case("cpu 0-dim + cuda", lambda: torch.tensor(2.0) + g(3), Device("cuda:0"), TI),
    Case("cuda + python number", lambda: g(3) + 1.5, Device("cuda:0"), TI),
    Case("cuda 0-dim + cpu", lambda: torch.tensor(1.0, device="cuda") + c(3),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("cuda > cpu 0-dim", lambda: g(3) > torch.tensor(0.0), Device("cuda:0"), TI),
    Case("in-place cuda += cpu", lambda: g(3).add_(c(3)), Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("in-place cpu += cuda", lambda: c(3).add_(g(3)), Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("in-place cuda += cpu 0-dim", lambda: g(3).add_(torch.tensor(1.0)), Device("cuda:0"), TI),
    Case("in-place cpu 0-dim += cuda 0-dim (outputs never exempt)",
         lambda: torch.tensor(1.0).add_(torch.tensor(1.0, device="cuda")),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("two CPU scalars into a CUDA out=", lambda: torch.add(torch.tensor(1.0), torch.tensor(2.0),
                                                              out=torch.empty((), device="cuda")),
         Raises(RuntimeError, "Trying to pass too many CPU scalars to non-CPU kernel!"), TI),
    Case("addcmul: a ternary op takes no CPU scalar", lambda: torch.addcmul(g(3), torch.tensor(1.0), torch.tensor(2.0)),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("mse_loss cuda input, cpu target", lambda: F.mse_loss(g(3), c(3)),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), TI),
    Case("cuda:1 + cuda:0", lambda: torch.randn(2, device="cuda:1") + g(2),
         Raises(RuntimeError, MISMATCH.format("cuda:1", "cuda:0")), TI, devices=2),
    Case("cuda:1 + cuda:1", lambda: torch.randn(2, device="cuda:1") * 2, Device("cuda:1"), TI, devices=2),
    # --- the generated CUDA wrappers' check (default device_check: 0-dim tensors included) --------
    Case("mm cuda, cpu", lambda: g(2, 3) @ c(3, 4),
         Raises(RuntimeError, GOT.format("mat2", "cpu", "cuda:0") + " (when checking argument in method wrapper_CUDA_mm)"), GEN),
    Case("mm cuda, cuda", lambda: g(2, 3) @ g(3, 4), Device("cuda:0"), GEN),
    Case("Linear on cuda, input on cpu", lambda: nn.Linear(3, 2).cuda()(c(4, 3)),
         Raises(RuntimeError, GOT.format("mat1", "cpu", "cuda:0") + " (when checking argument in method wrapper_CUDA_addmm)"), GEN),
    Case("Linear on cpu, input on cuda", lambda: nn.Linear(3, 2)(g(4, 3)),
         Raises(RuntimeError, GOT.format("mat1", "cuda:0", "cpu")), GEN),
    Case("Embedding on cuda, cpu indices", lambda: nn.Embedding(5, 2).cuda()(torch.tensor([1, 2])),
         Raises(RuntimeError, GOT.format("index", "cpu", "cuda:0") + " (when checking argument in method wrapper_CUDA__index_select)"),
         GEN + "; " + GH + "aten/src/ATen/native/Embedding.cpp (embedding -> index_select)"),
    Case("Embedding on cuda, cpu 0-dim index (no 0-dim exemption)", lambda: nn.Embedding(5, 2).cuda()(torch.tensor(1)),
         Raises(RuntimeError, GOT.format("index", "cpu", "cuda:0")), GEN),
    Case("cross_entropy cuda logits, cpu targets", lambda: F.cross_entropy(g(4, 3), torch.tensor([0, 1, 2, 0])),
         Raises(RuntimeError, GOT.format("target", "cpu", "cuda:0") + " (when checking argument in method wrapper_CUDA_nll_loss_forward)"),
         GEN + "; " + GH + "aten/src/ATen/native/LossNLL.cpp"),
    Case("cross_entropy cuda logits, cpu 0-dim target", lambda: F.cross_entropy(g(3), torch.tensor(1)),
         Raises(RuntimeError, GOT.format("target", "cpu", "cuda:0")), GEN),
    Case("torch.cat cuda, cpu", lambda: torch.cat([g(2), c(2)]),
         Raises(RuntimeError, GOT.format("tensors", "cpu", "cuda:0") + " (when checking argument in method wrapper_CUDA_cat)"), GEN),
    Case("torch.cat cuda, cuda", lambda: torch.cat([g(2), g(2)]), Device("cuda:0"), GEN),
    Case("torch.stack cuda, cpu", lambda: torch.stack([g(2), c(2)]),
         Raises(RuntimeError, GOT.format("tensors", "cpu", "cuda:0")), GEN + "; " + GH + "aten/src/ATen/native/TensorShape.cpp (stack -> cat)"),
    Case("torch.stack of 0-dim cuda and 0-dim cpu", lambda: torch.stack([torch.tensor(1.0, device="cuda"), torch.tensor(2.0)]),
         Raises(RuntimeError, GOT.format("tensors", "cpu", "cuda:0")), GEN),
    Case("index_select cuda, cpu index", lambda: g(5, 2).index_select(0, torch.tensor([0, 3])),
         Raises(RuntimeError, GOT.format("index", "cpu", "cuda:0")), GEN),
    Case("gather cuda, cpu index", lambda: g(3, 3).gather(1, torch.tensor([[0], [1], [2]])),
         Raises(RuntimeError, GOT.format("index", "cpu", "cuda:0")), GEN),
    Case("bmm cuda, cpu", lambda: torch.bmm(g(2, 3, 4), c(2, 4, 5)), Raises(RuntimeError, GOT.format("mat2", "cpu", "cuda:0")), GEN),
    Case("batch_norm cuda input, cpu running stats", lambda: F.batch_norm(g(4, 3), torch.zeros(3), torch.ones(3)),
         Raises(RuntimeError, GOT.format("running_mean", "cpu", "cuda:0")), GEN),
    # --- indexing, masks and where ------------------------------------------------------------
    Case("cuda[cpu long indices]", lambda: g(5)[torch.tensor([0, 2])], Device("cuda:0"), INDEXING + " (check_indices_on_cpu_or_selfdevice)"),
    Case("cuda[cpu bool mask]", lambda: g(3)[torch.tensor([True, False, True])], Device("cuda:0"), INDEXING),
    Case("cpu[cuda indices]", lambda: c(5)[torch.tensor([0, 2], device="cuda")],
         Raises(IndexError, "indices should be either on cpu or on the same device as the indexed tensor (cpu)"), INDEXING),
    Case("cuda[cuda indices]", lambda: g(5)[torch.tensor([0, 2], device="cuda")], Device("cuda:0"), INDEXING),
    Case("slice of cuda", lambda: g(5)[1:3], Device("cuda:0"), INDEXING),
    Case("cuda[indices] = cpu values", lambda: g(4).index_put_((torch.tensor([0, 1]),), c(2)),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), INDEXING + " (_index_put_impl_)"),
    Case("cuda[mask] = cpu 0-dim value", lambda: g(3).index_put_((torch.tensor([True, False, True]),), torch.tensor(5.0)),
         Device("cuda:0"), INDEXING + " (_index_put_impl_ moves a 0-dim value)"),
    Case("cuda[0] = cpu row (a copy)", lambda: g(3, 2).__setitem__(0, c(2)), Value(None), GH + "aten/src/ATen/native/Copy.cpp"),
    Case("masked_fill cuda, cpu mask", lambda: g(3).masked_fill(torch.tensor([True, False, True]), 1.0),
         Raises(RuntimeError, "expected self and mask to be on the same device, but got mask on cpu and self on cuda:0"),
         GH + "aten/src/ATen/native/cuda/Indexing.cu (masked_fill__cuda)"),
    Case("masked_fill cuda, cuda mask, cpu 0-dim value", lambda: g(3).masked_fill(g(3) > 0, torch.tensor(0.0)),
         Device("cuda:0"), GH + "aten/src/ATen/native/cuda/Indexing.cu (the value is read with .item())"),
    Case("where cuda cond, cuda, cpu 0-dim", lambda: torch.where(g(3) > 0, g(3), torch.tensor(0.0)), Device("cuda:0"),
         GH + "aten/src/ATen/native/TensorCompare.cpp (where_self_out moves 0-dim operands)"),
    Case("where cuda cond, cuda, cpu", lambda: torch.where(g(3) > 0, g(3), c(3)),
         Raises(RuntimeError, MISMATCH.format("cuda:0", "cpu")), GH + "aten/src/ATen/native/TensorCompare.cpp"),
    Case("where cuda cond, cuda, python number", lambda: torch.where(g(3) > 0, g(3), 0.0), Device("cuda:0"),
         GH + "aten/src/ATen/native/TensorCompare.cpp"),
    # --- 0-dim tensors read as numbers, factories -------------------------------------------
    Case("arange(cuda 0-dim end) is a CPU tensor", lambda: torch.arange(torch.tensor(4, device="cuda")), Device("cpu"), ARG_PARSER),
    Case("full((2,), cuda 0-dim) is a CPU tensor", lambda: torch.full((2,), torch.tensor(1.0, device="cuda")), Device("cpu"), ARG_PARSER),
    Case("linspace(0, cuda 0-dim, 5) is a CPU tensor", lambda: torch.linspace(0, torch.tensor(1.0, device="cuda"), 5),
         Device("cpu"), ARG_PARSER),
    Case("tensor([cuda 0-dim, cuda 0-dim]) is a CPU tensor",
         lambda: torch.tensor([torch.tensor(1.0, device="cuda"), torch.tensor(2.0, device="cuda")]), Device("cpu"), TENSOR_NEW),
    Case("zeros(device='cuda')", lambda: torch.zeros(2, device="cuda"), Device("cuda:0"), CUDA_DOCS),
    Case("tensor(list, device='cuda')", lambda: torch.tensor([1.0, 2.0], device="cuda"), Device("cuda:0"), TENSOR_NEW),
    Case("zeros_like(cuda)", lambda: torch.zeros_like(g(3)), Device("cuda:0"), GH + "aten/src/ATen/native/TensorFactories.cpp"),
    Case("zeros_like(cuda, device='cpu')", lambda: torch.zeros_like(g(3), device="cpu"), Device("cpu"),
         GH + "aten/src/ATen/native/TensorFactories.cpp"),
    Case("cuda.new_zeros", lambda: g(3).new_zeros(2), Device("cuda:0"), GH + "aten/src/ATen/native/TensorFactories.cpp"),
    Case("one_hot(cuda)", lambda: F.one_hot(torch.tensor([0, 2], device="cuda"), 3), Device("cuda:0"),
         GH + "aten/src/ATen/native/Onehot.cpp"),
    Case("set_default_device('cuda')", _set_default_device, Value(True),
         "https://pytorch.org/docs/stable/generated/torch.set_default_device.html"),
    Case("randn on cuda with a CPU generator", lambda: torch.randn(3, device="cuda", generator=torch.Generator()),
         Raises(RuntimeError, "Expected a 'cuda' device type for generator but found 'cpu'"),
         GH + "aten/src/ATen/core/Generator.h (check_generator)"),
    Case("randperm on cpu with a CUDA generator", lambda: torch.randperm(5, generator=torch.Generator(device="cuda")),
         Raises(RuntimeError, "Expected a 'cpu' device type for generator but found 'cuda'"), GH + "aten/src/ATen/core/Generator.h"),
    Case("randn on cuda with a CUDA generator", lambda: torch.randn(3, device="cuda", generator=torch.Generator(device="cuda")),
         Device("cuda:0"), "https://pytorch.org/docs/stable/generated/torch.Generator.html"),
    # --- moves -----------------------------------------------------------------------------------
    Case("x.to('cuda')", lambda: c(3).to("cuda"), Device("cuda:0"), GH + "aten/src/ATen/native/TensorConversions.cpp"),
    Case("x.cuda()", lambda: c(3).cuda(), Device("cuda:0"), GH + "aten/src/ATen/native/TensorConversions.cpp"),
    Case("x.to(other cuda tensor)", lambda: c(3).to(g(1)), Device("cuda:0"), GH + "aten/src/ATen/native/TensorConversions.cpp"),
    Case("x.cpu()", lambda: g(3).cpu(), Device("cpu"), GH + "aten/src/ATen/native/TensorConversions.cpp"),
    Case("x.to(float16) stays on cuda", lambda: g(3).to(torch.float16), Device("cuda:0"), GH + "aten/src/ATen/native/TensorConversions.cpp"),
    Case("cuda x.to('cuda') is x", lambda: (lambda x: x.to("cuda") is x)(g(2)), Value(True),
         GH + "aten/src/ATen/native/TensorConversions.cpp (to returns self when nothing changes)"),
    Case("cpu x.to('cuda') is a copy", lambda: (lambda x: x.to("cuda") is not x and not x.is_cuda)(c(2)), Value(True),
         "https://pytorch.org/docs/stable/generated/torch.Tensor.to.html"),
    Case("x.type(torch.cuda.FloatTensor)", lambda: c(3).type(torch.cuda.FloatTensor), Device("cuda:0"),
         "https://pytorch.org/docs/stable/generated/torch.Tensor.type.html"),
    Case("type_as(cuda)", lambda: c(3).type_as(g(1)), Device("cuda:0"), "https://pytorch.org/docs/stable/generated/torch.Tensor.type_as.html"),
    Case("expand_as(cuda) keeps self's device", lambda: c(1).expand_as(g(3)), Device("cpu"),
         "https://pytorch.org/docs/stable/generated/torch.Tensor.expand_as.html"),
    Case("view_as(cpu) keeps self's device", lambda: g(3).view_as(c(3)), Device("cuda:0"),
         "https://pytorch.org/docs/stable/generated/torch.Tensor.view_as.html"),
    Case("a device that does not exist", _bad_ordinal, Raises(RuntimeError, "CUDA error: invalid device ordinal"),
         GH + "c10/cuda/CUDAFunctions.cpp"),
    Case("legacy torch.cuda.FloatTensor(2)", lambda: torch.cuda.FloatTensor(2), Device("cuda:0"),
         "https://pytorch.org/docs/stable/tensors.html (legacy constructors)"),
    Case("sparse COO tensor on cuda", lambda: torch.sparse_coo_tensor(torch.tensor([[0, 1]]), torch.tensor([1.0, 2.0]), (3,),
                                                                       device="cuda").to_dense(), Device("cuda:0"),
         "https://pytorch.org/docs/stable/sparse.html"),
    # --- modules, autograd, optimizers ---------------------------------------------------------
    Case("Module.to moves parameters", lambda: _moved(Net()).fc.weight, Device("cuda:0"), MODULE),
    Case("Module.to moves buffers", lambda: _moved(Net()).scale, Device("cuda:0"), MODULE),
    Case("Module.to leaves plain tensor attributes", lambda: _moved(Net()).mask, Device("cpu"), MODULE),
    Case("Module.to returns the module itself", lambda: (lambda n: n.to("cuda") is n)(Net()), Value(True), MODULE),
    Case("Module.cuda keeps each Parameter object", _identity_kept, Value(True), MODULE),
    Case("backward on cuda gives cuda gradients", _grad, Device("cuda:0"), GH + "torch/csrc/autograd/engine.cpp"),
    Case("SGD step on cuda parameters", _sgd_step, Device("cuda:0"), GH + "torch/optim/sgd.py"),
    Case("optimizer state loaded before .cuda()", _optimizer_state_before_cuda,
         Raises(RuntimeError, "Tensors of the same index must be on the same device and the same dtype"),
         GH + "aten/src/ATen/native/ForeachUtils.h (_group_tensors_by_first_tensors_device_and_dtype)"),
    Case("deepcopy of a cuda model", lambda: next(copy.deepcopy(nn.Linear(2, 2).cuda()).parameters()), Device("cuda:0"),
         GH + "torch/_tensor.py (Tensor.__deepcopy__)"),
    Case("deepcopy of a cuda state_dict", lambda: copy.deepcopy(nn.Linear(2, 2).cuda().state_dict())["weight"],
         Device("cuda:0"), GH + "torch/_tensor.py (Tensor.__deepcopy__)"),
    Case("Conv2d on cuda, input on cpu", lambda: nn.Conv2d(1, 2, 3).cuda()(c(1, 1, 5, 5)),
         Raises(RuntimeError, "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same"),
         GH + "aten/src/ATen/native/Convolution.cpp (check_input_same_type_as_parameters)"),
    Case("Conv2d on cpu, input on cuda", lambda: nn.Conv2d(1, 2, 3)(g(1, 1, 5, 5)),
         Raises(RuntimeError, "Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same"),
         GH + "aten/src/ATen/native/Convolution.cpp"),
    Case("LSTM on cuda, input on cpu", lambda: nn.LSTM(4, 3).cuda()(c(5, 2, 4)),
         Raises(RuntimeError, "Input and parameter tensors are not at the same device, found input tensor at cpu and parameter tensor at cuda:0"),
         GH + "aten/src/ATen/native/RNN.cpp (check_attributes)"),
    Case("GRU on cpu, input on cuda", lambda: nn.GRU(4, 3)(g(5, 2, 4)),
         Raises(RuntimeError, "Input and parameter tensors are not at the same device, found input tensor at cuda:0 and parameter tensor at cpu"),
         GH + "aten/src/ATen/native/RNN.cpp"),
    Case("LSTM on cuda, cpu hidden state", lambda: nn.LSTM(4, 3).cuda()(g(5, 2, 4), (c(1, 2, 3), c(1, 2, 3))),
         Raises(RuntimeError, "Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu"),
         GH + "aten/src/ATen/native/RNN.cpp"),
    Case("pack_padded_sequence with CPU lengths (the documented use)", _packed, Value(True),
         GH + "torch/nn/utils/rnn.py and aten/src/ATen/native/PackedSequence.cpp (lengths on the CPU)"),
    Case("pack_padded_sequence with CUDA lengths", _pack_cuda_lengths(True),
         Raises(RuntimeError, LENGTHS), PACKED),
    Case("pack_padded_sequence with CUDA lengths, enforce_sorted=False (sorted on the GPU, then packed)",
         _pack_cuda_lengths(False), Raises(RuntimeError, LENGTHS), PACKED),
    Case("pad_packed_sequence of sorted CUDA data: padded on the GPU, lengths and batch_sizes on the CPU",
         _pad_sorted, Value(("cuda:0", "cpu", "cpu")),
         GH + "aten/src/ATen/native/PackedSequence.cpp (_pad_packed_sequence: at::full(..., data.options()), "
         "lengths at::empty(..., batch_sizes_t.options()))"),
    Case("ctc_loss cuda log_probs, CPU targets and lengths", _ctc, Device("cuda:0"),
         GH + "aten/src/ATen/native/LossCTC.cpp; https://github.com/pytorch/pytorch/issues/22234"),
    Case("DataParallel on one device", lambda: nn.DataParallel(nn.Linear(3, 2).cuda(), device_ids=[0])(g(4, 3)),
         Device("cuda:0"), GH + "torch/nn/parallel/data_parallel.py"),
    # --- host access -----------------------------------------------------------------------------
    Case("cuda.numpy()", lambda: g(2).numpy(), Raises(TypeError, "can't convert cuda:0 device type tensor to numpy."),
         GH + "torch/csrc/utils/tensor_numpy.cpp"),
    Case("np.asarray(cuda)", lambda: np.asarray(g(2)), Raises(TypeError, "can't convert cuda:0 device type tensor to numpy."),
         GH + "torch/_tensor.py (Tensor.__array__)"),
    Case("cuda.cpu().numpy()", lambda: g(2).cpu().numpy().shape, Value((2,)), GH + "torch/csrc/utils/tensor_numpy.cpp"),
    Case("cuda.item()", lambda: torch.tensor(3.0, device="cuda").item(), Value(3.0), "https://pytorch.org/docs/stable/generated/torch.Tensor.item.html"),
    Case("cuda.pin_memory()", lambda: g(2).pin_memory(), Raises(RuntimeError, "cannot pin 'torch.cuda.FloatTensor' only dense CPU tensors can be pinned"),
         GH + "aten/src/ATen/native/Memory.cpp"),
    # --- the CUDA runtime, AMP and checkpoints ---------------------------------------------------
    Case("torch.cuda.is_available()", lambda: torch.cuda.is_available(), Value(True), CUDA_DOCS),
    Case("get_device_capability() is a (major, minor) pair", lambda: len(torch.cuda.get_device_capability()), Value(2), CUDA_DOCS),
    Case("is_bf16_supported() answers", lambda: isinstance(torch.cuda.is_bf16_supported(), bool), Value(True), CUDA_DOCS),
    Case("get_device_properties(0).total_memory", lambda: torch.cuda.get_device_properties(0).total_memory > 0, Value(True), CUDA_DOCS),
    Case("mem_get_info() is (free, total)", lambda: (lambda f, t: 0 <= f <= t)(*torch.cuda.mem_get_info()), Value(True), CUDA_DOCS),
    Case("streams and timed events", _events, Value(True), "https://pytorch.org/docs/stable/notes/cuda.html#cuda-streams"),
    Case("autocast('cuda', float16): Linear returns float16", _amp, Value(torch.float16),
         "https://pytorch.org/docs/stable/amp.html#cuda-ops-that-can-autocast-to-float16"),
    Case("torch.load of a GPU checkpoint lands on cuda:0", _save_load, Device("cuda:0"), SERIALIZATION),
    Case("torch.load(map_location='cpu') of a GPU checkpoint", lambda: _save_load("cpu"), Device("cpu"), SERIALIZATION),
    Case("torch.load(map_location='cuda') of a CPU checkpoint", lambda: _load_cpu_checkpoint_to("cuda"), Device("cuda:0"),
         SERIALIZATION),
]
