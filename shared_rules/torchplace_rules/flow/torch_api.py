"""What the analysis knows about PyTorch's and NumPy's API, as plain tables."""
from __future__ import annotations

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
LIKE_FACTORIES = {"zeros_like", "ones_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like"}
NEW_METHODS = {"new_zeros", "new_ones", "new_empty", "new_full", "new_tensor"}

# torch.* / Tensor methods that need all (non-0-dim) tensor operands on one device.
MIXING_FUNCTIONS = {
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder",
    "fmod", "pow", "matmul", "mm", "bmm", "mv", "dot", "vdot", "inner", "outer", "ger", "addmm", "addbmm",
    "baddbmm", "addmv", "addcmul", "addcdiv", "einsum", "cat", "concat", "concatenate", "stack", "hstack",
    "vstack", "dstack", "column_stack", "where", "maximum", "minimum", "fmax", "fmin", "atan2", "lerp",
    "cdist", "dist", "cross", "kron", "tensordot", "eq", "ne", "lt", "le", "gt", "ge", "equal", "allclose",
    "isclose", "masked_select", "bucketize", "searchsorted", "cosine_similarity", "pairwise_distance",
    "hypot", "logaddexp", "copysign", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_and",
    "logical_or", "logical_xor", "chain_matmul", "block_diag", "cartesian_prod", "clamp", "clip",
}
SEQUENCE_ARG_FUNCTIONS = {"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
                          "block_diag", "cartesian_prod", "chain_matmul"}
MIXING_METHODS = MIXING_FUNCTIONS - SEQUENCE_ARG_FUNCTIONS | {
    "add_", "sub_", "mul_", "div_", "masked_fill", "masked_fill_", "masked_scatter", "index_add", "index_add_",
    "scatter", "scatter_", "scatter_add", "scatter_add_", "lerp_", "addmm_", "index_select", "gather",
    "matmul", "clamp_", "where",
}
# torch.nn.functional functions that combine their tensor arguments.
MIXING_FUNCTIONAL = {
    "linear", "bilinear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "embedding", "layer_norm", "group_norm", "batch_norm", "instance_norm",
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "cosine_similarity",
    "pairwise_distance", "triplet_margin_loss", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss", "multi_margin_loss",
    "multilabel_margin_loss", "multilabel_soft_margin_loss", "soft_margin_loss", 
    "scaled_dot_product_attention", "grid_sample", "prelu",
}

# Tensor methods that keep the device (and need no other tensor).
PRESERVING_METHODS = {
    "view", "view_as", "reshape", "reshape_as", "expand_as", "permute", "transpose", "t", "T", "squeeze", "unsqueeze",
    "flatten", "unflatten", "expand", "repeat", "repeat_interleave", "contiguous", "clone", "detach",
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

# nn layers that own no parameters or buffers (calling them on any device works).
PARAMLESS_LAYERS = {
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Mish", "ELU", "SELU", "CELU", "Sigmoid", "Tanh",
    "Softmax", "LogSoftmax", "Softplus", "Softsign", "Hardtanh", "Hardswish", "Hardsigmoid", "Tanhshrink",
    "Softshrink", "Hardshrink", "Threshold", "GLU", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d",
    "AlphaDropout", "Flatten", "Unflatten", "Identity", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d",
    "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d", "Upsample", "UpsamplingNearest2d",
    "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle", "ZeroPad2d", "ConstantPad1d",
    "ConstantPad2d", "ReflectionPad2d", "ReplicationPad2d", "MSELoss", "L1Loss",
    "SmoothL1Loss", "HuberLoss", 
    "KLDivLoss", "CosineSimilarity", "PairwiseDistance", "ChannelShuffle", "Softmax2d", "Fold", "Unfold",
}
# nn containers: parameters come from their children.
CONTAINERS = {"Sequential", "ModuleList", "ModuleDict"}
# Wrappers that scatter inputs themselves or whose device we cannot know.
UNKNOWN_DEVICE_WRAPPERS = {"DataParallel", "DistributedDataParallel", "FullyShardedDataParallel"}

MODULE_BASES = {"torch.nn.Module", "torch.nn.modules.module.Module", "nn.Module", "pytorch_lightning.LightningModule",
                "lightning.LightningModule", "lightning.pytorch.LightningModule", "pytorch_lightning.core.LightningModule"}
CUDA_AVAILABILITY = {"torch.cuda.is_available", "torch.backends.mps.is_available", "torch.xpu.is_available",
                     "torch.accelerator.is_available", "torch.mps.is_available"}
TRAINING_STEP_METHODS = {"backward", "step"}
PARAMETER_CLASSES = {"torch.nn.Parameter", "torch.nn.parameter.Parameter"}


def is_torch_layer(qual: str) -> bool:
    """`torch.nn.Linear`, `torch.nn.modules.conv.Conv2d`: a class of torch.nn (not a functional)."""
    parts = qual.split(".")
    return qual.startswith("torch.nn.") and parts[-1][:1].isupper() and "functional" not in parts


def layer_has_params(name: str, call) -> bool:
    """Does `torch.nn.<name>(...)` own parameters or buffers?  Losses only
    with a `weight`/`pos_weight`; containers through their children (assumed)."""
    if name in CONTAINERS:
        return True
    if name.endswith("Loss"):
        return bool(call.args) or any(k.arg in ("weight", "pos_weight") for k in call.keywords)
    return name not in PARAMLESS_LAYERS
