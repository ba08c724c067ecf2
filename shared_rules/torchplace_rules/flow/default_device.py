"""An accelerator made the default device, and what torch itself then draws with a CPU generator.

`torch.set_default_tensor_type(torch.cuda.FloatTensor)` (or the string `"torch.cuda.FloatTensor"`) makes
factories without `device=` create CUDA tensors, as `torch.set_default_device("cuda")` does; a project
module whose body calls it sets the default for every file that imports it (Python runs the body on
the first import).  torch's own sampling code then draws on the default device with a CPU generator:
`random_split` calls `randperm(n, generator=generator)` with `torch.default_generator` (a CPU generator)
unless a `generator=` is passed, and the CUDA kernels check the generator's device ("Expected a 'cuda'
device type for generator but found 'cpu'", at::check_generator).
"""
from __future__ import annotations

import ast
from typing import Optional

from .devices import ACCEL_KIND, CPU, Dev
from .events import Conflict
from .values import UNKNOWN, DeviceV, QualV, TensorV, Value

_TENSOR_TYPES = frozenset({"FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor"})  # (floating types only)
_SPLITS = frozenset({"torch.utils.data.random_split", "torch.utils.data.dataset.random_split"})


def tensor_type_default(ev, node: ast.Call, args: list) -> Value:
    """The default device `torch.set_default_tensor_type(t)` leaves: cuda for a `torch.cuda.*Tensor`
    type (named or as its string), the CPU for a `torch.*Tensor` one, unknown otherwise."""
    name = None
    if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
        name = node.args[0].value
    elif args and isinstance(args[0], QualV):
        name = args[0].name
    head, _, last = (name or "").rpartition(".")
    if last not in _TENSOR_TYPES:
        return UNKNOWN
    if head == "torch.cuda":
        ev.targets_accelerator = True
        return DeviceV(Dev(ACCEL_KIND, "cuda", '"cuda"', node))
    return DeviceV(CPU) if head == "torch" else UNKNOWN


def is_tensor_type_default(dev: Dev) -> bool:
    """Was `dev` made the default by `set_default_tensor_type` (which `torch.Tensor(...)` follows too)?"""
    at = dev.at
    func = at.func if at.__class__ is ast.Call else None
    name = func.attr if func.__class__ is ast.Attribute else func.id if func.__class__ is ast.Name else None
    return name == "set_default_tensor_type"


def check_random_split(ev, node: ast.Call, qual: str, kwargs: dict, default: Optional[Dev]) -> None:
    """`random_split(dataset, lengths)` without `generator=` while an accelerator is the default device:
    its permutation is drawn there with the CPU default generator, which raises."""
    if qual not in _SPLITS or default is None or default.kind != ACCEL_KIND:
        return
    if "generator" in kwargs or len(node.args) > 2 or any(k.arg is None for k in node.keywords) \
            or any(isinstance(a, ast.Starred) for a in node.args):
        return  # (a generator passed, or maybe passed through `*args`/`**kwargs`)
    generator = TensorV(CPU, origin=node)
    ev.emit("conflict", Conflict(node, "cpu_generator", generator, node, TensorV(default, origin=node), node, default))


def check_shuffled_loader(ev, node: ast.AST, loader: Value, default: Optional[Dev]) -> None:
    """Iterating (`for b in loader`, `iter(loader)`) a `DataLoader(..., shuffle=True)` with no sampler or
    `generator=` while an accelerator is the default device: its RandomSampler draws `randperm(n,
    generator=torch.Generator())` there with a new CPU generator, which raises (the SSD training scripts'
    "Expected a 'cuda' device type for generator but found 'cpu'")."""
    if default is None or default.kind != ACCEL_KIND or not _shuffles_with_its_own_generator(getattr(loader, "at", None)):
        return
    generator = TensorV(CPU, origin=node)
    ev.emit("conflict", Conflict(node, "cpu_sampler", generator, node, TensorV(default, origin=node), node, default))


def _shuffles_with_its_own_generator(call) -> bool:
    """Is `call` a `DataLoader(...)` with `shuffle=True` (a literal) and no sampler, batch sampler or
    generator passed (nor maybe passed through `**options`)?"""
    if call.__class__ is not ast.Call:
        return False
    func = call.func
    if (func.attr if func.__class__ is ast.Attribute else getattr(func, "id", None)) != "DataLoader":
        return False
    if len(call.args) > 3 or any(a.__class__ is ast.Starred for a in call.args):
        return False  # (the fourth positional argument is the sampler)
    keywords = {k.arg: k.value for k in call.keywords}
    if None in keywords or any(name in keywords for name in ("sampler", "batch_sampler", "generator")):
        return False
    shuffle = call.args[2] if len(call.args) == 3 else keywords.get("shuffle")
    return shuffle.__class__ is ast.Constant and shuffle.value is True
