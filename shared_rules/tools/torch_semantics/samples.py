"""Small CPU arguments to run a callable once, so tracing.py can watch where its tensors go.

Arguments come from the parameter kinds (the schema or the Python annotations), tried in a few
shapes and dtypes until one call succeeds; the hand-written samples below cover callables whose
arguments must agree in ways no kind says (a conv weight, class targets, an einsum equation).
The samples only choose *a* valid run: every conclusion comes from what torch then does.
"""
from __future__ import annotations

import torch

SKIP = object()
_LONG_NAMES = ("index", "indices", "target", "labels", "lengths", "offsets", "idx", "batch_sizes")
_BOOL_NAMES = ("mask", "condition")
_SIZE_NAMES = ("size", "shape", "sizes", "output_size", "kernel_size", "normalized_shape", "split_size")


def _tensor(name: str, shape, dtype) -> torch.Tensor:
    if any(n in name for n in _BOOL_NAMES):
        return torch.ones(shape, dtype=torch.bool)
    if dtype is torch.long or any(n in name for n in _LONG_NAMES):
        return torch.ones(shape, dtype=torch.long) if dtype is torch.long else torch.zeros(shape[:1], dtype=torch.long)
    if not dtype.is_floating_point:
        return torch.ones(shape, dtype=dtype)
    return torch.rand(shape, dtype=dtype) + 0.5


def _value(name: str, kind: str, shape, dtype, optional_tensors: bool):
    if kind in ("tensor", "tensor?"):
        return _tensor(name, shape, dtype) if kind == "tensor" or optional_tensors else SKIP
    if kind in ("tensors", "tensors?", "index"):
        return [_tensor(name, shape, dtype), _tensor(name, shape, dtype)]
    if kind == "scalar":
        return 1
    if kind == "float":
        return 0.5
    if kind == "int":
        return 0 if "dim" in name else 1
    if kind == "ints":
        return [2] * len(shape) if name in _SIZE_NAMES else [0]
    if kind == "bool":
        return False
    if kind == "dtype":
        return torch.float32
    if kind == "device":
        return "cpu"
    if kind == "other":  # unannotated: most such parameters of tensor methods are sizes or dims
        return 1
    return SKIP  # str, generator, layout ...: only usable through their defaults


# Recipes: (dtype, shapes of the tensor parameters in order; the last shape repeats), tried in order.
_F, _L, _B = torch.float32, torch.long, torch.bool
RECIPES = [(_F, [(2, 2)]), (_F, [(2, 3)]), (_F, [(3,)]), (_L, [(2, 2)]), (_B, [(2, 2)]), (_F, [(1, 2, 4, 4)]),
           (_F, [(2, 3, 4)]), (_F, [()]), (_F, [(2, 2), (2,)]), (_F, [(2, 3), (3, 4)]), (_F, [(2, 3), (4, 3), (4,)]),
           (_F, [(2, 3, 4), (2, 4, 5)]), (_F, [(1, 2, 4, 4), (2, 2, 3, 3), (2,)]), (_F, [(1, 2, 4), (2, 2, 3), (2,)]),
           (_F, [(1, 2, 4, 4, 4), (2, 2, 3, 3, 3), (2,)]), (_F, [(1, 2, 4, 4), (2, 2, 3, 3)]), (_F, [(2, 3), (3,), (3,)])]


def candidates(params):
    """Yield (args, kwargs, named) for params [(name, kind, keyword_only, has_default)]."""
    for optional_tensors in (True, False):  # optional tensors too first, so they get a role
        for dtype, shapes in RECIPES:
            args, kwargs, named, ok = [], {}, {}, True
            position = 0
            for name, kind, kw_only, has_default in params:
                shape = shapes[min(position, len(shapes) - 1)]
                value = _value(name, kind, shape, dtype, optional_tensors)
                if value is SKIP or (has_default and kind not in ("tensor", "tensor?", "tensors", "tensors?")):
                    if not has_default:
                        ok = False
                        break
                    continue
                if name == "out":
                    continue
                if kind.startswith("tensor"):
                    named[name] = value
                    position += 1
                if kw_only:
                    kwargs[name] = value
                else:
                    if len(args) < _position(params, name):
                        ok = False  # an earlier positional parameter was skipped
                        break
                    args.append(value)
            if ok:
                yield args, kwargs, named


def _position(params, name) -> int:
    return [p[0] for p in params if not p[2]].index(name)


def runs(params, hand=None):
    """Candidate (args, kwargs, named) for one sample call: the hand-written one, else generated."""
    return [hand()()] if hand is not None else candidates(params)


def _f(*shape):
    return torch.rand(shape) + 0.5


def _l(*values):
    return torch.tensor(values)


def _sample(args=(), kwargs=None, **named):
    def make():
        a = [named[x] if isinstance(x, str) and x in named else x for x in args]
        k = {key: named[v] if isinstance(v, str) and v in named else v for key, v in (kwargs or {}).items()}
        return a, k, named
    return make


# Callables whose arguments must fit together; names are the Python parameter names.
HAND: dict[str, object] = {}


def _hand():
    F = "torch.nn.functional."
    table = {
        F + "cross_entropy": lambda: _sample(("input", "target", "weight"), input=_f(2, 3), target=_l(0, 2), weight=_f(3)),
        F + "nll_loss": lambda: _sample(("input", "target", "weight"), input=_f(2, 3), target=_l(0, 2), weight=_f(3)),
        F + "embedding": lambda: _sample(("input", "weight"), input=_l(0, 1), weight=_f(5, 3)),
        F + "embedding_bag": lambda: _sample(("input", "weight", "offsets"), input=_l(0, 1, 2), weight=_f(5, 3), offsets=_l(0, 2)),
        F + "linear": lambda: _sample(("input", "weight", "bias"), input=_f(2, 3), weight=_f(4, 3), bias=_f(4)),
        F + "bilinear": lambda: _sample(("input1", "input2", "weight", "bias"), input1=_f(2, 3), input2=_f(2, 3), weight=_f(4, 3, 3), bias=_f(4)),
        F + "layer_norm": lambda: _sample(("input", [3], "weight", "bias"), input=_f(2, 3), weight=_f(3), bias=_f(3)),
        F + "group_norm": lambda: _sample(("input", 1, "weight", "bias"), input=_f(2, 2, 3), weight=_f(2), bias=_f(2)),
        F + "rms_norm": lambda: _sample(("input", [3], "weight"), input=_f(2, 3), weight=_f(3)),
        F + "batch_norm": lambda: _sample(("input", "running_mean", "running_var", "weight", "bias"), input=_f(2, 3),
                                          running_mean=_f(3), running_var=_f(3), weight=_f(3), bias=_f(3)),
        F + "instance_norm": lambda: _sample(("input", "running_mean", "running_var", "weight", "bias"), input=_f(2, 3, 4),
                                             running_mean=_f(3), running_var=_f(3), weight=_f(3), bias=_f(3)),
        F + "prelu": lambda: _sample(("input", "weight"), input=_f(2, 3), weight=_f(3)),
        F + "kl_div": lambda: _sample(("input", "target"), input=_f(2, 3), target=_f(2, 3)),
        F + "binary_cross_entropy": lambda: _sample(("input", "target", "weight"), input=_f(2, 3) / 2, target=_f(2, 3) / 2, weight=_f(2, 3)),
        F + "binary_cross_entropy_with_logits": lambda: _sample(("input", "target", "weight"), {"pos_weight": "pos_weight"},
                                                                input=_f(2, 3), target=_f(2, 3) / 2, weight=_f(2, 3), pos_weight=_f(3)),
        F + "multi_margin_loss": lambda: _sample(("input", "target"), {"weight": "weight"}, input=_f(2, 3), target=_l(0, 2), weight=_f(3)),
        F + "multilabel_margin_loss": lambda: _sample(("input", "target"), input=_f(2, 3), target=_l([0, 1, -1], [2, -1, 0])),
        F + "ctc_loss": lambda: _sample(("log_probs", "targets", "input_lengths", "target_lengths"), log_probs=_f(5, 2, 4).log_softmax(2),
                                        targets=_l([1, 2], [1, 3]), input_lengths=_l(5, 5), target_lengths=_l(2, 2)),
        F + "grid_sample": lambda: _sample(("input", "grid"), {"align_corners": False}, input=_f(1, 2, 4, 4), grid=_f(1, 3, 3, 2) - 1),
        F + "affine_grid": lambda: _sample(("theta", [1, 2, 4, 4]), {"align_corners": False}, theta=_f(1, 2, 3)),
        F + "scaled_dot_product_attention": lambda: _sample(("query", "key", "value"), {"attn_mask": "attn_mask"},
                                                            query=_f(1, 2, 3, 4), key=_f(1, 2, 3, 4), value=_f(1, 2, 3, 4), attn_mask=_f(3, 3)),
        F + "multi_head_attention_forward": None,
        F + "one_hot": lambda: _sample(("input", 3), input=_l(0, 2)),
        F + "pad": lambda: _sample(("input", [1, 1]), input=_f(2, 3)),
        F + "interpolate": lambda: _sample(("input",), {"scale_factor": 2.0}, input=_f(1, 2, 4, 4)),
        F + "normalize": lambda: _sample(("input",), input=_f(2, 3)),
        F + "conv_tbc": lambda: _sample(("input", "weight", "bias"), input=_f(5, 2, 3), weight=_f(3, 3, 4), bias=_f(4)),
        F + "hinge_embedding_loss": lambda: _sample(("input", "target"), input=_f(2, 3), target=_f(2, 3)),
        F + "cosine_embedding_loss": lambda: _sample(("input1", "input2", "target"), input1=_f(2, 3), input2=_f(2, 3), target=_l(1, -1)),
        F + "margin_ranking_loss": lambda: _sample(("input1", "input2", "target"), input1=_f(3), input2=_f(3), target=_f(3)),
        F + "triplet_margin_loss": lambda: _sample(("anchor", "positive", "negative"), anchor=_f(2, 3), positive=_f(2, 3), negative=_f(2, 3)),
        F + "gaussian_nll_loss": lambda: _sample(("input", "target", "var"), input=_f(2, 3), target=_f(2, 3), var=_f(2, 3)),
        F + "poisson_nll_loss": lambda: _sample(("input", "target"), input=_f(2, 3), target=_f(2, 3)),
        "torch.einsum": lambda: _sample(("ij,jk->ik", "a", "b"), a=_f(2, 3), b=_f(3, 4)),
        "torch.tensordot": lambda: _sample(("a", "b"), {"dims": 1}, a=_f(2, 3), b=_f(3, 4)),
        "torch.cdist": lambda: _sample(("x1", "x2"), x1=_f(2, 3), x2=_f(4, 3)),
        "torch.block_diag": lambda: _sample(("a", "b"), a=_f(2, 2), b=_f(3, 3)),
        "torch.cartesian_prod": lambda: _sample(("a", "b"), a=_f(2), b=_f(3)),
        "torch.chain_matmul": lambda: _sample(("a", "b"), a=_f(2, 3), b=_f(3, 4)),
        "torch.broadcast_tensors": lambda: _sample(("a", "b"), a=_f(2, 3), b=_f(3)),
        "torch.meshgrid": lambda: _sample(("a", "b"), {"indexing": "ij"}, a=_f(2), b=_f(3)),
        "Tensor.__getitem__": lambda: _sample(("self", "indices"), self=_f(4, 3), indices=_l(0, 2)),
        "Tensor.__setitem__": lambda: _sample(("self", "indices", "value"), self=_f(4, 3), indices=_l(0, 2), value=_f(2, 3)),
    }
    HAND.update({k: v for k, v in table.items() if v is not None})


_hand()
