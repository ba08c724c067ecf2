"""Device contracts the schemas cannot show, each read from PyTorch's source (links below).

Roles of a tensor argument relative to the op's common device (the table's vocabulary):
  s   must be on the common device; a 0-dim CPU tensor raises too (generated wrapper check)
  s1  must be on the common device, except one 0-dim CPU tensor (TensorIterator's CPU scalar)
  z   a 0-dim tensor may be on any device (the kernel moves or reads it); otherwise as `s1`
  i   may be on the CPU or on the common device (advanced-indexing indices)
  c   must be on the CPU
  f   free: not checked against the other tensors (copied from, or only its size is read)
  n   read as a number with item(): its device does not matter and the result does not follow it
  g   (generators) must be a generator of the device the op runs on
  ?   unknown (no check derived): the engine must not report a mismatch on it
Every strict role (`s`, `c`) here was read in the kernel; lenient ones (`s1`, `z`) only ever
make the engine report less.
"""
from __future__ import annotations

PYTORCH = "https://github.com/pytorch/pytorch/blob/main/"

# Leaf ATen kernels with `device_check: NoCheck` (or a TensorIterator whose operands are not
# all alike): {overload: ({argument: role}, source)}.  Arguments left out keep the role the
# check class gives them.
KERNEL_ROLES: dict[str, tuple[dict[str, str], str]] = {
    # check_indices_on_cpu_or_selfdevice in the index meta function ("Only allow:
    # `dev_tensor[{cpu,dev}_tensor]`"); make_info then moves the indices to self's device.
    "index.Tensor": ({"self": "s", "indices": "i"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    # _index_put_impl_: a 0-dim `values` on another device is moved to self's device (or read
    # with item() on the masked_fill path); other values go through a TensorIterator with self.
    # No index device is checked: make_info moves every index to self's device ("Ensure indices
    # are on the same device as self", TensorAdvancedIndexingUtils.h; the CUDA accumulate path's
    # makeLinearIndex likewise), so `cpu_x[cuda_idx] = v` runs, unlike the read `cpu_x[cuda_idx]`.
    "_index_put_impl_": ({"self": "s", "indices": "f", "values": "z"},
                         "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    # where_self_out moves 0-dim condition/self/other to the first non-CPU operand's device
    # ("allow CPU scalars on non-cpu device"); a remaining mismatch fails in TensorIterator.
    "where.self": ({"condition": "z", "self": "z", "other": "z"}, "aten/src/ATen/native/TensorCompare.cpp"),
    # masked_fill__cuda: TORCH_CHECK(self.device() == mask.device(), "expected self and mask to
    # be on the same device ..."); a Tensor value must be 0-dim and is read with item().
    "masked_fill_.Tensor": ({"self": "s", "mask": "s", "value": "z"}, "aten/src/ATen/native/cuda/Indexing.cu"),
    "masked_fill_.Scalar": ({"self": "s", "mask": "s"}, "aten/src/ATen/native/cuda/Indexing.cu"),
    # fill_(self, Tensor value): value must be 0-dim; on another device it is read with item().
    "fill_.Tensor": ({"self": "s", "value": "z"}, "aten/src/ATen/native/Fill.cpp"),
    "index_fill_.int_Tensor": ({"self": "s", "index": "?", "value": "z"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    # Composites whose inputs reach their kernel through a clone or an options-made tensor
    # (invisible to tracing): masked_fill = expand + clone + masked_fill_; index_put = clone +
    # index_put_ (TensorAdvancedIndexing.cpp).
    "masked_fill.Scalar": ({"self": "s", "mask": "s"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    "masked_fill.Tensor": ({"self": "s", "mask": "s", "value": "z"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    "index_put": ({"self": "s", "indices": "f", "values": "z"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    "index_put_": ({"self": "s", "indices": "f", "values": "z"}, "aten/src/ATen/native/TensorAdvancedIndexing.cpp"),
    # _convolution's check_input_same_type_as_parameters: "Input type (...) and weight type (...)
    # should be the same", likewise for bias; the tensor type includes the device.
    "convolution": ({"input": "s", "weight": "s", "bias": "s"}, "aten/src/ATen/native/Convolution.cpp"),
    "_convolution": ({"input": "s", "weight": "s", "bias": "s"}, "aten/src/ATen/native/Convolution.cpp"),
    # copy_ copies across devices: that is what it is for.
    "copy_": ({"self": "f", "src": "f"}, "aten/src/ATen/native/Copy.cpp"),
    # Binary kernels built with TensorIterator's binary-op config (allow_cpu_scalars).
    "floor_divide": ({"self": "s1", "other": "s1"}, "aten/src/ATen/native/BinaryOps.cpp"),
    # (an in-place op's self is TensorIterator's output: no CPU-scalar exemption there)
    "floor_divide_.Tensor": ({"self": "s", "other": "s1"}, "aten/src/ATen/native/BinaryOps.cpp"),
    "rsub.Tensor": ({"self": "s1", "other": "s1"}, "aten/src/ATen/native/BinaryOps.cpp"),
    # binary_cross_entropy_out_cuda iterates input and target together; weight is multiplied in.
    "binary_cross_entropy": ({"self": "s1", "target": "s1", "weight": "s1"}, "aten/src/ATen/native/cuda/Loss.cu"),
}

# Python-level callables whose result or arguments follow rules no schema spells out.
# result: data  -> on a tensor `data`'s device, else device=, else the default device (lists and
#                  numbers, and lists of 0-dim tensors, are read on the host)
#         cpu   -> always a CPU tensor;  transfer -> Tensor.to/cuda/cpu (the engine's own rule)
#         like  -> on the receiver's device unless device=;  numpy/none -> not a tensor
PY_CONTRACTS: dict[str, dict] = {
    # torch/csrc/utils/tensor_new.cpp internal_new_from_data: a Tensor `data` keeps its device
    # (`device_opt.has_value() ? *device_opt : var.device()`); sequences are stored element by
    # element on the host, then moved to device= or the default device.
    "torch.tensor": {"result": "data", "src": "torch/csrc/utils/tensor_new.cpp"},
    "torch.as_tensor": {"result": "data", "src": "torch/csrc/utils/tensor_new.cpp"},
    "torch.asarray": {"result": "data", "src": "torch/csrc/utils/tensor_new.cpp"},
    "torch.from_dlpack": {"result": "data", "src": "torch/utils/dlpack.py"},
    "torch.from_numpy": {"result": "cpu", "src": "torch/csrc/utils/tensor_numpy.cpp"},
    "torch.frombuffer": {"result": "cpu", "src": "torch/csrc/utils/tensor_new.cpp"},
    "Tensor.new_tensor": {"result": "like", "src": "torch/csrc/utils/tensor_new.cpp"},
    # type_as(other) is self.to(other.options()): the result is on other's device.
    "Tensor.type_as": {"result": "inputs", "follows": ["other"], "roles": {"self": "f", "other": "f"},
                       "src": "aten/src/ATen/native/TensorConversions.cpp"},
    "Tensor.__setitem__": {"result": "none", "src": "torch/csrc/autograd/python_variable_indexing.cpp"},
    "Tensor.to": {"result": "transfer", "src": "torch/csrc/autograd/python_variable_methods.cpp"},
    "Tensor.cuda": {"result": "transfer", "src": "torch/csrc/autograd/python_variable_methods.cpp"},
    "Tensor.cpu": {"result": "cpu", "src": "torch/csrc/autograd/python_variable_methods.cpp"},
    "Tensor.pin_memory": {"result": "cpu", "src": "aten/src/ATen/native/Memory.cpp"},
    "Tensor.numpy": {"result": "numpy", "src": "torch/csrc/utils/tensor_numpy.cpp"},
    "Tensor.tolist": {"result": "none", "src": "torch/csrc/utils/tensor_list.cpp"},
    "Tensor.item": {"result": "none", "src": "aten/src/ATen/native/Scalar.cpp"},
    # torch/nn/utils/rnn.py: a tensor `lengths` keeps its device and _pack_padded_sequence
    # raises "'lengths' argument should be a 1D CPU int64 tensor" (PackedSequence.cpp).
    # binary_cross_entropy_with_logits (Loss.cpp): only with pos_weight is log_sigmoid(input) an
    # in-place output (`log_sigmoid_input.mul_(log_weight)`, where a 0-dim CPU input raises);
    # without it input is read like TensorIterator's other operands. One role per overload: the
    # lenient one.
    "torch.nn.functional.binary_cross_entropy_with_logits": {
        "roles": {"input": "s1", "target": "s1", "weight": "s1", "pos_weight": "s1"},
        "src": "aten/src/ATen/native/Loss.cpp"},
    # ctc_loss.Tensor (LossCTC.cpp) on plain tensors copies both length tensors to the CPU as int64 and
    # reads them as integer lists (`_ctc_loss` gets [7, 7, ...]; the cuDNN path takes CPU lengths too):
    # their device is free. The trace sees the composite path a dispatch mode forces (`_ctc_loss.Tensor`).
    "torch.nn.functional.ctc_loss": {
        "roles": {"log_probs": "s", "targets": "s", "input_lengths": "n", "target_lengths": "n"},
        "src": "aten/src/ATen/native/LossCTC.cpp"},
    "torch.nn.utils.rnn.pack_padded_sequence": {"roles": {"input": "f", "lengths": "c"},
                                                "src": "aten/src/ATen/native/PackedSequence.cpp"},
    # pad_sequence (PackedSequence.cpp) fills `at::full(..., sequences[0].options())` and copies each
    # sequence into a slice of it: the result is where the first sequence is; copy_ checks no device.
    # (`sequences: Tensor | list[Tensor]`: read as the list it almost always is)
    "torch.nn.utils.rnn.pad_sequence": {"result": "inputs", "follows": ["sequences"], "roles": {"sequences": "f"},
                                        "kinds": {"sequences": "tensors"},
                                        "src": "aten/src/ATen/native/PackedSequence.cpp"},
}

# A `generator=` argument must be a generator of the device the op runs on:
# at::check_generator ("Expected a 'cuda' device type for generator but found 'cpu'").
GENERATOR_RULE = "aten/src/ATen/core/Generator.h"
