"""What the analysis knows about PyTorch's and NumPy's API beyond the table generated from torch
(`operators.py` reads that one: which arguments must share a device, where results live, which nn
classes hold state): sizes, dtypes, randomness, and names the analysis treats specially."""
from __future__ import annotations

import ast

from . import operators
from .values import WRAPPER_OF_UNKNOWN_KIND

# Factories: name -> how the size is given ("args": sizes as *args or a tuple,
# "size_kw": randint-style, "rank1", "rank2", "data": torch.tensor-style).
TORCH_FACTORIES = {
    "zeros": "args", "ones": "args", "empty": "args", "rand": "args", "randn": "args",
    "full": "first", "randint": "randint", "randperm": "rank1", "arange": "rank1",
    "linspace": "rank1", "logspace": "rank1", "eye": "rank2", "tensor": "data",
    "as_tensor": "data", "empty_strided": "first", "normal": "unknown", "bernoulli": None,
    "tril_indices": "rank2", "triu_indices": "rank2", "scalar_tensor": "rank0",
}
RANDOM_FACTORIES = {"rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like", "randint_like"}

# Tensor methods whose result keeps the receiver's shape facts (rank, dtype, grad); their devices
# come from the table.
PRESERVING_METHODS = {
    "view", "view_as", "reshape", "reshape_as", "expand_as", "permute", "transpose", "t", "T", "squeeze", "unsqueeze",
    "flatten", "unflatten", "expand", "repeat", "tile", "repeat_interleave", "contiguous", "clone", "detach",
    "abs", "exp", "log", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "relu", "softmax", "log_softmax",
    "neg", "sign", "floor", "ceil", "round", "clamp_min", "clamp_max", "float", "double", "half",
    "bfloat16", "long", "int", "short", "bool", "byte", "char", "narrow", "select",
    "flip", "roll", "cumsum", "cumprod", "argmax", "argmin",
    "argsort", "norm", "sum", "mean", "prod", "std", "var", "max", "min",
    "amax", "amin", "all", "any", "logsumexp", "pow", "square", "reciprocal", "sin", "cos", "triu", "tril",
    "diag", "diagonal", "masked_fill", "fill_", "zero_", "normal_", "uniform_", "requires_grad_",
    "pin_memory", "to_dense", "to_sparse", "nan_to_num", "erf", 
    "transpose_", "unsqueeze_", "squeeze_", "mul_", "add_", "div_", "sub_", "clamp_", "copy_",
    "exp_", "log_", "sigmoid_", "tanh_", "relu_", "abs_", "float_power", "matrix_exp", "inverse",
    "pinverse", "det", "logdet", "nonzero", "unique", "count_nonzero",
}
REDUCTIONS = {"sum", "mean", "prod", "std", "var", "max", "min", "amax", "amin", "all", "any", "norm",
              "logsumexp", "count_nonzero", "median", "nansum", "nanmean", "det", "logdet", "dot"}
DTYPE_METHODS = {"float": "float32", "double": "float64", "half": "float16", "bfloat16": "bfloat16",
                 "long": "int64", "int": "int32", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8"}
# Methods whose bare-statement use throws the result away (Tensor methods that
# return a new tensor; in-place variants end in `_`).
DISCARDABLE_METHODS = {"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "long", "int", "bool",
                       "type", "contiguous", "pin_memory"}
SYNC_METHODS = {"item", "tolist", "cpu", "numpy"}

TORCH_DTYPES = {
    "float32": "float32", "float": "float32", "float64": "float64", "double": "float64",
    "float16": "float16", "half": "float16", "bfloat16": "bfloat16", "int64": "int64", "long": "int64",
    "int32": "int32", "int": "int32", "int16": "int16", "int8": "int8", "uint8": "uint8", "bool": "bool",
    "complex64": "complex64", "complex128": "complex128",
}
NUMPY_DTYPES = {"float64": "float64", "double": "float64", "float_": "float64", "float32": "float32",
                "single": "float32", "float16": "float16", "half": "float16", "int64": "int64",
                "int32": "int32", "int_": "int64", "uint8": "uint8", "bool_": "bool", "int8": "int8"}
NUMPY_FLOAT64_MAKERS = {"zeros", "ones", "empty", "full", "linspace", "eye", "identity"}
NUMPY_RANDOM_FLOAT64 = {"rand", "randn", "random", "random_sample", "uniform", "normal", "standard_normal", "sample"}

# nn containers: parameters come from their children.
CONTAINERS = {"Sequential", "ModuleList", "ModuleDict"}
# Wrappers that scatter inputs themselves or whose device we cannot know.
UNKNOWN_DEVICE_WRAPPERS = {"DataParallel", "DistributedDataParallel", "FullyShardedDataParallel", WRAPPER_OF_UNKNOWN_KIND}
# torch.distributed functions that move the parameters and buffers of the module they are handed, in place,
# to the device of a device mesh, and return that module (torch 2.13: FSDP2's `fully_shard` calls
# `_move_states_to_device`; `parallelize_module` / `distribute_module` make them DTensors on the mesh;
# `replicate` shares FSDP2's initialisation): afterwards the module is where the mesh is, which is not known.
MESH_PLACERS = frozenset({"fully_shard", "replicate", "parallelize_module", "distribute_module"})

# torch.nn's private base classes, all nn.Module subclasses (torch 2.13; checked against torch in
# tests/engine/test_truth_table.py): `class DiceLoss(_Loss)`, `class MyNorm(_BatchNorm)`.
PRIVATE_MODULE_BASES = {f"torch.nn.modules.{name}" for name in (
    "loss._Loss", "loss._WeightedLoss", "batchnorm._NormBase", "batchnorm._BatchNorm", "batchnorm._LazyNormBase",
    "conv._ConvNd", "conv._ConvTransposeNd", "conv._ConvTransposeMixin", "dropout._DropoutNd",
    "instancenorm._InstanceNorm", "padding._CircularPadNd", "padding._ConstantPadNd", "padding._ReflectionPadNd",
    "padding._ReplicationPadNd", "pooling._MaxPoolNd", "pooling._MaxUnpoolNd", "pooling._AvgPoolNd",
    "pooling._LPPoolNd", "pooling._AdaptiveMaxPoolNd", "pooling._AdaptiveAvgPoolNd")}
MODULE_BASES = {"torch.nn.Module", "torch.nn.modules.module.Module", "nn.Module", "pytorch_lightning.LightningModule",
                "lightning.LightningModule", "lightning.pytorch.LightningModule", "pytorch_lightning.core.LightningModule",
                *PRIVATE_MODULE_BASES}
CUDA_AVAILABILITY = {"torch.cuda.is_available", "torch.backends.mps.is_available", "torch.xpu.is_available",
                     "torch.accelerator.is_available", "torch.mps.is_available"}
# What the availability tests answer on a machine with MPS and no CUDA (Apple silicon: the macOS
# builds of PyTorch have no CUDA; `torch.accelerator` answers for MPS there).
MAC_ANSWERS = {"torch.cuda.is_available": False, "torch.xpu.is_available": False,
               "torch.backends.mps.is_available": True, "torch.mps.is_available": True,
               "torch.accelerator.is_available": True}
TRAINING_STEP_METHODS = {"backward", "step"}
PARAMETER_CLASSES = {"torch.nn.Parameter", "torch.nn.parameter.Parameter"}


def looks_like_dtype(node) -> bool:
    """Does a `.to(...)` argument name a dtype (`torch.float16`, `dtype`, `x.dtype`), not a device?"""
    text = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return "dtype" in text.lower() or text in TORCH_DTYPES


def is_torch_layer(qual: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.modules.conv.Conv2d`: a class of torch.nn (not a functional)."""
    if not qual.startswith("torch.nn."):
        return False  # (most names asked: split only torch.nn's)
    parts = qual.split(".")
    return parts[-1][:1].isupper() and "functional" not in parts


def layer_has_params(name: str, call, spread: Optional[dict] = None) -> bool:
    """Does `torch.nn.<name>(...)` hold parameters or buffers (the table's module model: losses
    only with a weight, LayerNorm unless elementwise_affine=False ...)?  Containers and classes
    the table does not know are assumed to.  `spread`: keywords given through `**` (operators.module_state)."""
    holds = operators.module_state(name, call, spread)
    return True if holds is None else holds
