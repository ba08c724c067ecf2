"""torch.distributions: where what a distribution samples is.

A distribution built from Python numbers (`Uniform(low=3.0, high=30.0)`, `Normal(0, 1)`) holds its
parameters as tensors `broadcast_all` makes with `torch.tensor(v)`: on the default device (the CPU
unless the code changed it), and `sample`/`rsample` draw there.  The sample's rank is the sample
shape's length (the parameters are 0-dim): `Uniform(0., 1.).sample()` is a 0-dim CPU tensor, which
arithmetic with an accelerator's tensors accepts.  Distributions of tensors, or of anything not known
to be a number, are not modelled.
"""
from __future__ import annotations

import ast

from .devices import CPU
from .values import UNKNOWN, Number, QualV, TensorV, Value

# The value a distribution of numbers made on the CPU is (its methods are called through this name)
OF_NUMBERS_ON_CPU = "torch.distributions.<of numbers, on the CPU>"
_SAMPLES = frozenset({"sample", "rsample"})


def is_distribution(head: str, last: str) -> bool:
    """Is `head.last` a distribution class of torch.distributions (`torch.distributions.Normal`)?"""
    return (head == "torch.distributions" or head.startswith("torch.distributions.")) and last[:1].isupper()


def distribution(args: list, kwargs: dict, default) -> Value:
    """A distribution made with these evaluated arguments; `default`: the default device."""
    params = list(args) + [v for k, v in kwargs.items() if k != "validate_args"]
    if params and all(isinstance(v, Number) for v in params) and default is not None and default.is_cpu:
        return QualV(OF_NUMBERS_ON_CPU)
    return UNKNOWN


def distribution_method(node: ast.Call, last: str) -> Value:
    """`d.sample(shape)` / `d.rsample(shape)` of a distribution of numbers on the CPU."""
    if last not in _SAMPLES:
        return UNKNOWN
    shape = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "sample_shape"), None)
    if shape is None:
        rank = 0
    elif shape.__class__ in (ast.Tuple, ast.List) and not any(e.__class__ is ast.Starred for e in shape.elts):
        rank = len(shape.elts)
    else:
        rank = None  # (`torch.Size(s)`, a name: any rank, maybe 0)
    return TensorV(CPU, origin=node, rank=rank, random=True)
