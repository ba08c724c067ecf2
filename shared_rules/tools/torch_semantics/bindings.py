"""One table record per public callable: its overloads, parameters, roles and result device.

Sources, in order: the ATen overloads a builtin binds (aten.py; composite ones traced),
hand-read contracts (contracts.py), Python functions traced on sample calls (tracing.py,
samples.py), and torch's stubs/docstrings for hand-bound builtins (signatures.py).
"""
from __future__ import annotations

import ast
import inspect

from . import aten, samples, signatures, tracing
from .contracts import KERNEL_ROLES, PY_CONTRACTS

TENSOR_KINDS = ("tensor", "tensor?", "tensors", "tensors?", "index")
FOLLOWING_ROLES = ("s", "s1", "z", "?")  # a result on the common device follows these
_ATEN_MODULES = {"torch._C._nn": "nn", "torch._C._linalg": "linalg", "torch._C._special": "special",
                 "torch._C._fft": "fft"}
# Python modules whose functions are pure tensor computations: safe to run on samples.
_TRACEABLE_MODULES = ("torch.functional", "torch.nn.functional", "torch._tensor", "torch._lowrank",
                      "torch.nn.utils.rnn")


def overload(params, roles, result, returns, follows, src) -> dict:
    """The table's overload record (format documented in torchplace_rules/torch_semantics.py)."""
    plist = []
    for name, kind, kw_only, has_default in params:
        flags = ("k" if kw_only else "") + ("o" if has_default else "")
        role = roles.get(name, "?") if kind in TENSOR_KINDS else ("g" if kind == "generator" else "")
        plist.append([name, kind, flags, role])
    record = {"params": plist, "result": result, "returns": returns, "src": src}
    if result in ("inputs", "like") and follows:
        record["follows"] = follows
    return record


def _result(params, roles, returns, inplace, follows) -> tuple[str, list[str]]:
    if returns in ("-", "N", "B"):
        return "none", []
    if returns == "?":
        return "unknown", []
    if inplace:
        return "receiver", []
    names = [p[0] for p in params]
    tensors = [p[0] for p in params if p[1] in TENSOR_KINDS and p[0] != "out"]
    if "device" in names:
        if tensors and all(roles.get(t) == "n" for t in tensors):
            return "factory", []
        return ("like", tensors[:1]) if tensors else ("factory", [])
    if follows is None:
        follows = [t for t in tensors if roles.get(t, "?") in FOLLOWING_ROLES]
    return ("inputs", follows) if follows else ("unknown", [])


# -- ATen builtins -----------------------------------------------------------------------
def _leaf_roles(op: aten.AtenOp, method: bool) -> dict[str, str]:
    curated = KERNEL_ROLES.get(op.name, ({}, ""))[0]
    flat_kw = {a.name for a in op.func.func.arguments.flat_kwarg_only}
    out_names = {a.name for a in op.func.func.arguments.out}
    roles = {}
    for a in op.func.func.arguments.flat_all:
        if a.type.is_tensor_like():
            written = a.annotation is not None and a.annotation.is_write
            role = curated.get(a.name) or aten.default_role(op.check, a.name in flat_kw, a.name in out_names, written)
            roles[aten.python_name(a.name, method)] = role
    if op.has_out and op.check in ("exact", "iterator"):  # the out= overload is checked alike
        roles["out"] = aten.default_role(op.check, True, True)
    return roles


def aten_overload(op: aten.AtenOp, func, method: bool, qual: str) -> dict:
    params = op.python_args(method)
    if method:
        params = [("self", "tensor", False, False)] + params
    follows = None
    if op.check == "composite" and op.name not in KERNEL_ROLES:
        roles, follows = traced_roles(func, params, qual)
    else:
        roles = _leaf_roles(op, method)
    result, follows = _result(params, roles, op.returns(), op.inplace, follows)
    return overload(params, roles, result, op.returns(), follows, f"aten::{op.name} ({op.check})")


# -- tracing -------------------------------------------------------------------------------
def traced_roles(func, params, qual: str) -> tuple[dict[str, str], list[str] | None]:
    """Roles of the tensor parameters from one sample run; '?' for each when none runs."""
    tensors = [p[0] for p in params if p[1] in TENSOR_KINDS]
    trace = tracing.first_trace(func, samples.runs(params, samples.HAND.get(qual)))
    if trace is None:
        return {t: "?" for t in tensors}, None
    roles = tracing.roles_from(trace)
    star = next((p[0] for p in params if p[0].startswith("*")), None)
    # A tensor passed but never seen by a kernel: its size, or its options (device!) feeding a
    # factory, were read: unknown.
    names = {p[0] for p in params}
    if star is not None:  # hand samples name the elements of *args
        extra = [roles.pop(n) for n in list(roles) if n not in names]
        if extra:
            roles[star] = max(extra, key=tracing.STRICTNESS.__getitem__)
    follows = {f if f in names else star for f in tracing.result_follows(trace)}
    follows = [f for f in follows if f is not None and roles.get(f, "?") not in ("n", "i", "c")]
    return {t: roles.get(t, "?") for t in tensors}, (sorted(follows) or None)


# -- Python functions and hand-bound builtins ---------------------------------------------------
def _returns_of(func) -> str:
    try:
        ann = inspect.signature(func).return_annotation
    except (TypeError, ValueError):
        return "?"
    text = ann if isinstance(ann, str) else inspect.formatannotation(ann)
    text = text.replace("torch.", "")
    if text in ("None",):
        return "-"
    if text in ("Tensor", "'Tensor'"):
        return "T"
    if "Tensor" in text:
        return "T*"
    if text in ("bool",):
        return "B"
    if text in ("int", "float", "Number"):
        return "N"
    return "?"


def python_records(qual: str, func, method: bool) -> list[dict] | None:
    params = signatures.from_signature(func)
    if params is None:
        return None
    if method and params and params[0][0] == "self":
        params[0] = ("self", "tensor", False, False)
    params = _guess_kinds(params)
    contract = PY_CONTRACTS.get(qual, {})
    if "kinds" in contract:  # an annotation the signature reader cannot take (`Tensor | list[Tensor]`)
        params = [(p[0], contract["kinds"].get(p[0], p[1])) + tuple(p[2:]) for p in params]
    returns = _returns_of(func)
    module = getattr(func, "__module__", "") or ""
    if "roles" in contract:
        roles, follows = dict(contract["roles"]), None
    elif module.startswith(_TRACEABLE_MODULES) or qual in samples.HAND:
        roles, follows = traced_roles(func, params, qual)
    else:
        roles, follows = {}, None
    if "result" in contract:
        result, follows = contract["result"], contract.get("follows", [])
    else:
        if returns == "?" and follows:
            returns = "T"
        result, follows = _result(params, roles, returns, False, follows)
    src = f"contract: {contract['src']}" if contract else f"python: {module}"
    return [overload(params, roles, result, returns, follows, src)]


def _guess_kinds(params):
    """Unannotated parameters named like tensors are tried as tensors (the run decides their
    role); an indexing key may hold tensors (advanced indexing)."""
    out = []
    for name, kind, kw, default in params:
        if kind == "other" and name in ("indices", "key"):
            kind = "index"  # x[key]: ints, slices, tensors or tuples of them
        elif kind == "other" and name in _TENSOR_NAMES:
            kind = "tensor"
        out.append((name, kind, kw, default))
    return out


_TENSOR_NAMES = ("input", "self", "other", "tensor", "tensors", "x", "y", "a", "b", "A", "B", "x1", "x2", "mat",
                 "vec", "target", "weight", "bias", "operands", "*tensors", "*operands")


def _docstring_params(func) -> list[tuple[str, str, bool, bool]] | None:
    line = (func.__doc__ or "").strip().split("\n")[0]
    head = line.split("->")[0].strip()
    if "(" not in head:
        return None
    try:
        node = ast.parse(f"def {head}: pass").body[0]
    except SyntaxError:
        return None
    a = node.args
    defaults = [None] * (len(a.args) - len(a.defaults)) + list(a.defaults)
    params = [(p.arg, "other", False, d is not None) for p, d in zip(a.args, defaults) if p.arg != "self"]
    if a.vararg is not None:
        params.append(("*" + a.vararg.arg, "other", False, True))
    params += [(p.arg, "other", True, d is not None) for p, d in zip(a.kwonlyargs, a.kw_defaults)]
    return params


def builtin_records(qual: str, func, stub: str, name: str, method: bool) -> list[dict] | None:
    """A hand-bound builtin (no ATen overload of its name): structure from its docstring
    or stub overloads, kinds from the stub."""
    stubbed = signatures.from_stub(stub, name, method)
    documented = _docstring_params(func)
    if len(stubbed) <= 1 and documented is not None:
        kinds = {p[0]: p[1] for p in (stubbed[0] if stubbed else [])}
        overloads = [[(n, kinds.get(n, k), kw, d) for n, k, kw, d in documented]]
    else:
        overloads = stubbed
    if not overloads:
        return None
    contract = PY_CONTRACTS.get(qual, {})
    records = []
    for params in overloads:
        if method:
            params = [("self", "tensor", False, False)] + params
        params = _guess_kinds(params)
        roles = dict(contract.get("roles", {}))
        hand = samples.HAND.get(qual)
        follows = None
        if hand is not None:
            roles, follows = traced_roles(func, params, qual)
        if "result" in contract:
            result, follows = contract["result"], contract.get("follows", [])
        else:
            result, follows = _result(params, roles, "T" if follows else "?", False, follows)
        src = f"contract: {contract['src']}" if contract else "builtin"
        returns = {"none": "-", "numpy": "?", "unknown": "?", "generator": "?"}.get(result, "T")
        records.append(overload(params, roles, result, returns, follows, src))
    return records


def _with_contract(qual: str, record: dict) -> dict:
    """A hand-read contract overrides what the schema says about roles and the result."""
    contract = PY_CONTRACTS.get(qual)
    if contract is None:
        return record
    for param in record["params"]:
        if param[0] in contract.get("roles", {}):
            param[3] = contract["roles"][param[0]]
    if "result" in contract:
        record["result"] = contract["result"]
        record.pop("follows", None)
        if contract.get("follows"):
            record["follows"] = contract["follows"]
        if contract["result"] in ("none", "numpy"):
            record["returns"] = "-" if contract["result"] == "none" else "?"
    record["src"] += f"; contract: {contract['src']}"
    return record


def builtin_aten(func, method: bool) -> tuple[str | None, str]:
    """(ATen module, ATen base name) of a builtin: `torch._C._linalg.linalg_norm` -> (linalg, linalg_norm)."""
    if method:
        return None, func.__name__
    return _ATEN_MODULES.get(getattr(func, "__module__", None) or ""), func.__name__


def records_for(qual: str, func, method: bool) -> list[dict] | None:
    """All overload records of one public callable; None when nothing describes it."""
    if inspect.isfunction(func) or isinstance(func, staticmethod):
        return python_records(qual, func, method)
    module, name = builtin_aten(func, method)
    ops = aten.find(name, module, method)
    if ops:
        return [_with_contract(qual, aten_overload(op, func, method, qual)) for op in ops]
    stub = "Tensor" if method else ("nn" if module == "nn" else "torch")
    return builtin_records(qual, func, stub, name, method)

