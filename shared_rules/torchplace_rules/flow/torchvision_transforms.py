"""torchvision's image transforms (`torchvision.transforms`, v1): where their tensors are.

`ToTensor()` / `PILToTensor()` (and `functional.to_tensor` / `pil_to_tensor`) turn a PIL image or
a NumPy array into a **CPU** tensor of 3 dimensions (C, H, W); given a tensor they raise
TypeError ("pic should be PIL Image or ndarray").  The tensor transforms (`Normalize`, `Resize`,
crops, flips, ...) compute with the input's own tensors: the output is where the input is.  So a
`Compose([...])` whose last `ToTensor`/`PILToTensor` is followed only by such transforms gives a
CPU tensor whatever it is called with (checked with torchvision 0.28 on torch 2.13).

v2 transforms are left out: `v2.ToImage` keeps a tensor input where it is (a `meta` tensor stays
on `meta`).
"""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from .devices import CPU
from .values import QualV, SeqV, TensorV, UNKNOWN, Value

_V1 = ("torchvision.transforms.", "torchvision.transforms.transforms.")
_TO_TENSOR = {"ToTensor", "PILToTensor"}
_FUNCTIONAL_TO_TENSOR = {"torchvision.transforms.functional.to_tensor": "float32",
                         "torchvision.transforms.functional.pil_to_tensor": "uint8"}
# Tensor in, tensor out on the input's device, 3 dimensions kept: each run on a `meta` tensor
# (tests/engine/test_truth_table.py).  RandomRotation, RandomAffine and RandomEqualize cannot run
# there (nonzero, bincount): not listed, so a Compose with one after ToTensor stays unknown.
DEVICE_KEEPING_TRANSFORMS = {
    "Normalize", "Resize", "CenterCrop", "RandomCrop", "RandomResizedCrop", "RandomHorizontalFlip",
    "RandomVerticalFlip", "ColorJitter", "Grayscale", "RandomGrayscale", "ConvertImageDtype", "RandomErasing",
    "GaussianBlur", "Pad", "RandomPerspective", "RandomInvert", "RandomPosterize", "RandomSolarize",
    "RandomAdjustSharpness", "RandomAutocontrast", "ElasticTransform",
}
# The instances, as values (names no import can give: only these calls make them).
TO_CPU_TENSOR = "torchvision.<to-CPU-tensor transform>"
DEVICE_KEEPING = "torchvision.<device-keeping transform>"


def _v1_name(qual: str) -> Optional[str]:
    for prefix in _V1:
        if qual.startswith(prefix) and "." not in qual[len(prefix):]:
            return qual[len(prefix):]
    return None


def transform_call(node: ast.Call, qual: str, args: list) -> Optional[Value]:
    """The value of a call of a torchvision transform class, function or instance (`qual`);
    None for anything else."""
    if qual == TO_CPU_TENSOR:
        return TensorV(CPU, origin=node, rank=3)
    if qual == DEVICE_KEEPING:
        x = args[0] if args else UNKNOWN
        return replace(x, origin=node, factory=None) if isinstance(x, TensorV) and x.batch is None else UNKNOWN
    dtype = _FUNCTIONAL_TO_TENSOR.get(qual)
    if dtype is not None:
        return TensorV(CPU, origin=node, rank=3, dtype=dtype)
    name = _v1_name(qual)
    if name in _TO_TENSOR:
        return QualV(TO_CPU_TENSOR)
    if name in DEVICE_KEEPING_TRANSFORMS:
        return QualV(DEVICE_KEEPING)
    if name == "Compose":
        return _compose(args[0] if args else UNKNOWN)
    return None


def _compose(steps: Value) -> Value:
    """`Compose(steps)`: a CPU tensor maker when its last ToTensor is followed by tensor transforms
    only (a `Lambda` or a callable of the project after it could put the tensor anywhere)."""
    if not isinstance(steps, SeqV) or steps.items is None:
        return UNKNOWN
    kinds = [s.name if type(s) is QualV else None for s in steps.items]
    if TO_CPU_TENSOR not in kinds:
        return UNKNOWN
    last = len(kinds) - 1 - kinds[::-1].index(TO_CPU_TENSOR)
    if all(k == DEVICE_KEEPING for k in kinds[last + 1:]):
        return QualV(TO_CPU_TENSOR)
    return UNKNOWN


def class_level_transform(ev, info, name: str) -> Optional[Value]:
    """`self.<name>` / `obj.<name>` that no method assigns, where the class body (or a base's) made a
    transform: `clip_transform = Compose([Resize(n), ToTensor(), Normalize(m, s)])`.  The value is
    read from the syntax with the names of the class's file (only calls of torchvision's transforms,
    and a list or tuple of them for Compose); None for anything else."""
    for cls in info.mro():
        node = cls.class_values.get(name)
        if node is None:
            continue
        if node.__class__ is not ast.Call or info.stores_attribute(name):
            return None
        # (names of this file are reads of the running group: incremental re-analysis repeats them)
        ev_reads = ev if cls.home is None else None
        env = cls.home.env if cls.home is not None else ev.own_env
        return _static_transform(env, node, ev_reads) if env else None
    return None


def _static_transform(env: dict, node: ast.AST, ev_reads) -> Optional[Value]:
    if node.__class__ is not ast.Call:
        return None
    qual = _qual(env, node.func, ev_reads)
    if qual is None or not qual.startswith("torchvision."):
        return None
    args = []
    if node.args and node.args[0].__class__ in (ast.List, ast.Tuple):
        args = [SeqV(tuple(_static_transform(env, e, ev_reads) or UNKNOWN for e in node.args[0].elts))]
    value = transform_call(node, qual, args)
    return value if type(value) is QualV else None


def _qual(env: dict, node: ast.AST, ev_reads) -> Optional[str]:
    if node.__class__ is ast.Name:
        if ev_reads is not None:
            ev_reads.note_module_read(("env", node.id))
        value = env.get(node.id)
        return value.name if type(value) is QualV else None
    if node.__class__ is ast.Attribute:
        base = _qual(env, node.value, ev_reads)
        return f"{base}.{node.attr}" if base is not None else None
    return None
