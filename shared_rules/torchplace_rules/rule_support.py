"""Small helpers the rule files share: naming code in messages, device text."""
from __future__ import annotations

import ast
from typing import Optional

from .context import file_context
from .flow.contexts import MODULE_CALL_ENTRIES
from .flow.cross_file import home_elsewhere
from .flow.devices import RUNTIME, Dev
from .flow.state import device_variable
from .flow.values import TensorV
from .torch_semantics import lookup_function


def code_text(src, node: Optional[ast.AST], limit: int = 40) -> str:
    if node is None:
        return "a tensor"
    text = " ".join(src.segment(node).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def dev_text(dev: Optional[Dev]) -> str:
    if dev is None:
        return "an unknown device"
    if dev.kind == "cpu":
        return "the CPU"
    if dev.kind == "self":
        return "the module's device"
    if dev.label in ("target", "cuda", RUNTIME) and dev.expr and dev.expr[0] not in "\"'":
        return f"the accelerator (`{dev.expr}`)"
    if dev.label in ("target", RUNTIME):
        return "the accelerator"
    return dev.label


def mac_warning_doc(what: str) -> str:
    """The paragraph of TP101's and TP102's "When it reports" on the Mac warning (`what`: "op", "call")."""
    return f"""
        A warning where both sides are on the same accelerator on a CUDA machine but their devices
        were chosen differently: one by a test for CUDA alone (`"cuda" if torch.cuda.is_available()
        else "cpu"`, `if torch.cuda.is_available(): x = x.to("cuda")`), the other by one that also
        picks Apple's MPS (`elif torch.backends.mps.is_available(): device = torch.device("mps")`, or
        a function returning such a choice).  On a machine with MPS and no CUDA (Apple silicon: the
        macOS builds of PyTorch have no CUDA) the first is the CPU and the second mps, and the {what}
        raises there.
    """


def fix_device_expr(ev, dev: Optional[Dev], other_node: Optional[ast.AST] = None,
                    module_node: Optional[ast.AST] = None) -> Optional[str]:
    """Source text for the accelerator device, valid where the fix goes: a device in scope,
    else `other.device` (a tensor), else the device of the module's parameters."""
    expr = ev.device_expression(dev)
    if expr:
        return expr
    if other_node is not None and isinstance(other_node, (ast.Name, ast.Attribute)):
        return f"{ev.src.segment(other_node)}.device"
    if module_node is not None and isinstance(module_node, (ast.Name, ast.Attribute)):
        return f"next({ev.src.segment(module_node)}.parameters()).device"
    return None


def placed_device(ev, dev: Optional[Dev]) -> Optional[Dev]:
    """`dev`, or where "the module's device" really is in the call context being analysed
    (a module moved to cuda whose method runs for this call)."""
    if dev is not None and dev.kind == "self" and ev.frame.self_dev is not None:
        return ev.frame.self_dev
    return dev


def only_assumed_accelerator(ev, dev: Optional[Dev], node: Optional[ast.AST] = None) -> bool:
    """The accelerator side is the device a program is only assumed to target (`config.device`,
    `args.device` read from an object the analysis cannot see; not a choice code made, such as a library's
    `"cuda" if torch.cuda.device_count() else "cpu"`), in a test that names no device (the test holding
    `node` and what it runs, or the whole module): such a test runs on the CPU, so nothing proves the conflict."""
    return dev is not None and dev.assumed and file_context(ev).cpu_test_at(node)


def made_in_module_method(ev, c) -> bool:
    """A CPU tensor made by a factory inside a module's method (reported at the factory, TP202), or a
    plain tensor attribute set in this file (reported where it is set, TP203), meets the module's own
    tensors: in every call context the cause is reported there, not at each use."""
    if c.other_dev.kind != "self" or c.cpu.batch is not None:
        return False
    if c.cpu.plain_attr is not None:
        # (made in another file's code: TP203 reports it there; in this file the use is where it fails;
        # passed to another module, `self.encoder(x, bias=self.bias)`, it fails there)
        return home_elsewhere(ev, c.cpu.origin) is None and _own_attribute(ev, c.cpu.plain_attr)
    return c.cpu.factory is not None and ev.frame.cls is not None and ev.frame.cls.is_module and ev.frame.func is not None


def _own_attribute(ev, name: str) -> bool:
    """Is `self.<name>` an attribute the running method's class (or a base) sets itself, to a tensor
    in its `__init__` (TP203 reports it there), not a tensor another module passed here
    (`self.encoder(x, bias=self.bias)`) nor one a later call left where `__init__` put None or
    nothing (a cache a method or the caller filled: `if self.cache is None: self.cache = ...`)?"""
    cls = ev.frame.cls
    return cls is not None and cls.init_binds_value(name)


def device_variable_in_scope(ev) -> Optional[str]:
    """A name bound to an accelerator device here (`device = torch.device(...)`)."""
    return device_variable(ev.frame.env) or ev.module_device_variable()


def origin_related(node: Optional[ast.AST], tensor: TensorV, message: str):
    origin = tensor.origin
    if origin is None or origin is node or not isinstance(origin, ast.AST) or not hasattr(origin, "lineno"):
        return None
    return (origin, message)


def accepts_device(ev, call: ast.Call) -> bool:
    """May a fix add `device=` to this call: is it a torch function some overload of which takes
    `device=` (PyTorch's own signatures, `data/torch_semantics.json`)?  Evaluate where the call is."""
    qual = ev.qualname(call.func)
    known = lookup_function(qual) if qual else None
    return known is not None and known.takes_device


def from_method_argument(c, func, in_call: bool = False) -> bool:
    """Is the module-side operand an argument of a method other than `forward` (or a `__call__` the
    class defines), assumed rather than known?  Only the module call's inputs are assumed to be on
    the module's device; other methods receive whatever their callers pass (a deserialised request,
    CPU test data).  In a call's context (`in_call`) an argument the caller really passed (its
    origin is the caller's code, not the parameter) is known."""
    if func.name in MODULE_CALL_ENTRIES:
        return False
    a = func.args
    params = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    origin = getattr(c.other, "origin", None)
    if isinstance(origin, ast.arg) and origin.arg in params:
        return True
    if in_call and origin is not None:
        return False
    return isinstance(c.other_node, ast.Name) and c.other_node.id in params


def called_on_self(call) -> bool:
    """Is this context a call of a method on `self` (`self.loss(out, target)`): its arguments are
    what the same module's method passed, known in that method."""
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
        and isinstance(call.func.value, ast.Name) and call.func.value.id == "self"


def passed_to_a_helper(ev, c) -> bool:
    """Is the module-side operand of conflict `c` what a caller passed the running method, one other
    than `forward` (`self.mlm.noise(seq, mask)`)?  TP202 leaves it to the caller; in a call context
    that placed the module on an accelerator TP101 reports the op itself."""
    func = ev.frame.func
    return func is not None and from_method_argument(c, func, in_call=called_on_self(ev.frame.call_site))


def already_reported(ev, matches) -> bool:
    """Has a finding `matches(finding)` been reported in this file?  A rule that stays quiet because
    of what another group reported first makes the running group's record depend on that group:
    it is not kept for reuse (incremental analysis must equal a fresh one)."""
    reported = any(matches(f) for f in ev.findings.values())
    if reported and ev.recorder is not None:
        ev.recorder.uncacheable = True
    return reported
