"""TP202 forward-creates-cpu: a CPU-made tensor meets inputs/parameters in a module method."""
import ast

from ..context import file_context
from ..edits import insert_keyword, make_fix
from ..flow.autograd_functions import function_entry
from ..flow.cross_file import foreign_home
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import accepts_device, called_on_self as _on_self, code_text, passed_to_a_helper


class ForwardCreatesCpu(Rule):
    code = "TP202"
    name = "forward-creates-cpu"
    severity = Severity.WARNING
    summary = "A module method creates a tensor on the CPU and combines it with its inputs or parameters"
    what_it_does = """
        Inside methods of `nn.Module` subclasses, finds tensor factories without
        `device=` (`torch.zeros(...)`, `torch.arange(...)`, `torch.tensor(...)`) whose
        result is combined with the method's tensor inputs, parameters, buffers or
        submodules; likewise in the `forward` and `backward` of a custom
        `torch.autograd.Function`, with the tensors autograd passes them (the inputs,
        the gradients, `ctx.saved_tensors`).
    """
    why_bad = """
        The module works on the CPU and fails as soon as it is moved to a GPU: the
        inputs and weights follow `model.to(device)`, the freshly created tensor
        does not.  0-dim tensors and CPU index tensors are exempt (PyTorch allows
        them).
    """
    when_it_reports = """
        A warning: a proven hazard for a module that reaches an accelerator.  The CPU tensor meets
        the module's parameters, buffers or submodules, or `forward`'s inputs (arguments of other
        methods are whatever their callers pass, not the module's device).  The module must be
        able to reach an accelerator: a device appears in the file, or the class is library API
        that other code imports and moves.  A class local to a function (a test's helper) with no
        device in that function, or a program that never uses an accelerator (its only device one it pins
        to the CPU: `device = torch.device("cpu")`, `model.to(device)`), is not reported; nor is
        a class of a program that hides every GPU at its entry (`os.environ["CUDA_VISIBLE_DEVICES"] = "-1"`)
        when every project file importing it does too, nor a class of a module in a folder of scripts
        (no `__init__.py`) that only programs naming no device import, when no file of that folder names one.
    """
    example = """
        def forward(self, x):
            mask = torch.ones(x.shape[0], 4)
            return self.fc(x) * mask      # TP202
    """
    fix_doc = "Create the tensor where the input lives: `torch.ones(..., device=x.device)`."
    fix_safety = "Safe for deterministic factories; unsafe for random ones (a different generator draws the values)."
    VALID = [
        valid("""
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)

                def forward(self, x):
                    mask = torch.ones(x.shape[0], 4, device=x.device)
                    pos = torch.arange(4)
                    return self.fc(x) * mask + x[:, pos] * torch.tensor(0.5)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)

                def forward(self, x):
                    mask = torch.ones(x.shape[0], 4)
                    return self.fc(x) * mask
            """,
            line=10,
            fixed="""
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(4, 4)

                def forward(self, x):
                    mask = torch.ones(x.shape[0], 4, device=x.device)
                    return self.fc(x) * mask
            """,
        ),
    ]

    def on_conflict(self, ev, c) -> None:
        if c.other_dev.kind != "self" or c.cpu.factory is None or c.cpu.plain_attr is not None or c.cpu.batch is not None:
            return
        func = ev.frame.func
        cls = ev.frame.cls
        if cls is None or func is None:
            return
        if not cls.is_module:
            if function_entry(func, cls):  # a custom autograd function: its inputs' and gradients' device
                ev.deferred.append((self.code, (c.cpu.factory, c.node, c.other_node, func, cls.node, c.cpu.random,
                                                accepts_device(ev, c.cpu.factory), True)))
            return
        if passed_to_a_helper(ev, c):
            return  # another method's argument: its device is the caller's business, not the module's
        if _made_by_caller(ev, c, func):
            return  # the caller's tensor, passed in: the module did not create it
        init = ev.frame.cls.methods.get("__init__")
        if func.name == "__init__" or init is not None and id(init) in ev.active_calls:
            return  # while the module is built its tensors are where they were created, not yet moved
        if init is not None and func.name not in _CALLED_BY_PYTORCH \
                and _called_only_from(init, func.name, ev.frame.cls.node, ev.tree):
            return  # (a helper only `__init__` calls, `self._precompute_cache(n)`: it too runs before any move)
        factory = c.cpu.factory
        home = _home_function(ev, factory)
        anchored = home is func  # the combining operands' names are in scope where the factory is
        func = home or _made_in(ev.frame.cls, factory) or func  # (the method that made it, e.g. a caller's)
        # Reported at the end: whether this module ever reaches an accelerator depends on the whole file.
        other = c.other_node if c.kind != "module_input" else None
        ev.deferred.append((self.code, (factory, c.node, other, func, ev.frame.cls.node, c.cpu.random,
                                        anchored and accepts_device(ev, factory), False)))

    def on_finish(self, ev) -> None:
        found = [payload for code, payload in ev.deferred if code == self.code]
        if not found:
            return
        ctx = file_context(ev)
        src = ev.src
        for factory, node, other_node, func, class_node, random, takes_device, autograd in found:
            if not ctx.may_reach_accelerator(class_node, ev.targets_accelerator, ev):
                continue  # no GPU this module is ever put on: nothing fails
            if autograd:
                message = (f"`{code_text(src, factory)}` is created on the CPU inside the autograd function's "
                           f"`{func.name}` and combined with the tensors autograd passes it: this fails once they are on a GPU")
            else:
                message = (f"`{code_text(src, factory)}` is created on the CPU inside `{func.name}` and combined with "
                           f"tensors on the module's device: this fails once the module is on a GPU")
            fix = None
            anchor = _device_anchor(other_node, func)
            if anchor and not any(k.arg == "device" for k in factory.keywords) and takes_device:
                edit = insert_keyword(src, factory, f"device={anchor}.device")
                if edit is not None:
                    fix = make_fix(f"Create it with `device={anchor}.device`", not random, edit)
            ev.report(self, factory, message, [(node, "combined with the module's tensors here" if not autograd
                                                 else "combined with the function's inputs or gradients here")], fix)


#: methods PyTorch itself calls on a module that may already be on a GPU: `reset_parameters` after
#: `to_empty(device=...)` in meta-device initialisation (FSDP's `_materialize_meta_module`, Lightning's
#: `empty_init`), whatever the project's own callers are (review15a's V4)
_CALLED_BY_PYTORCH = frozenset({"reset_parameters"})


def _called_only_from(init, name: str, class_node, tree) -> bool:
    """Is every mention of the method `name` (`self.name(...)`, `obj.name`) in the class and its file
    inside `init`, and is there one?"""
    inside = {id(n) for n in ast.walk(init)}
    mentions = [n for root in (class_node, tree) if root is not None for n in ast.walk(root)
                if n.__class__ is ast.Attribute and n.attr == name]
    return bool(mentions) and all(id(n) in inside for n in mentions)


def _made_by_caller(ev, c, func) -> bool:
    """Is the CPU operand a parameter of this method whose tensor the code calling it made, not a
    method of the module (`scaler.transform(torch.randn(...))` in a test: `(data - self.mu)`)?
    TP202 is about tensors the module's own code creates; where the caller's tensor meets the
    module is the caller's placement (TP102/TP103 judge a module call's inputs)."""
    node = c.cpu_node
    if _made_in(ev.frame.cls, c.cpu.factory) is not None:
        return False
    if ev.frame.cls.overrides_apply and _handed_in_before(ev, c.cpu.factory):
        return True
    if _on_self(ev.frame.call_site):
        return False
    if _made_by_calling_code(ev, c.cpu.factory):
        return True
    a = func.args
    return node.__class__ is ast.Name and node.id in {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}


def _made_by_calling_code(ev, factory) -> bool:
    """Is the factory in the code that made this call, itself not a module's method: the same function
    (or module body) of the checked file as the call (`vn.update(torch.randn(64, 1) * 3.0)` in a test,
    where `update` does `self.running_mean.add_(value.mean(0))`)?  A module's `forward` that makes the
    tensor and hands it to a submodule's method is that module's own creation (still reported)."""
    call = ev.frame.call_site
    caller = ev.frame.caller_cls
    if call is None or factory is None or caller is not None and caller.is_module:
        return False
    ctx = file_context(ev)
    if not (ctx.in_this_file(call) and ctx.in_this_file(factory)):
        return False
    return ctx.enclosing_function(factory) is ctx.enclosing_function(call) and factory.lineno <= call.end_lineno


def _handed_in_before(ev, factory) -> bool:
    """Was the factory run by a function of this file that is no method (or by its module code), outside the
    module's class (`stats = Stats(torch.DoubleTensor(m))`, `model = Sim(stats=stats)`, then a method of the
    model meets `stats.mean`)?  The module's methods did not create it: it was handed to the module, whose
    own `to`/`_apply` (the caller checks there is one) may move what it holds."""
    ctx = file_context(ev)
    if factory is None or not ctx.in_this_file(factory):
        return False
    home = ctx.enclosing_function(factory)
    return home is None or ctx.parents.get(id(home)).__class__ is not ast.ClassDef


def _made_in(cls, factory):
    """The method of `cls` whose lines hold `factory` (None: none of them)."""
    line = getattr(factory, "lineno", None)
    for method in cls.methods.values():
        if line is not None and method.lineno <= line <= (method.end_lineno or method.lineno) \
                and foreign_home(method) is foreign_home(factory):
            return method
    return None


def _home_function(ev, factory):
    """The function of the checked file whose body holds `factory` (None: module code, or another file's).
    A fix may name only what is in scope there: the combining method's operands are not, in a helper
    (`self._mask(n)`) or a caller (`sample` feeding `self.forward(torch.zeros(...))`) that made it."""
    ctx = file_context(ev)
    if factory is None or not ctx.in_this_file(factory):
        return None
    home = ctx.enclosing_function(factory)
    return home if isinstance(home, (ast.FunctionDef, ast.AsyncFunctionDef)) else None


def _device_anchor(other_node, func) -> str | None:
    if isinstance(other_node, ast.Name):
        return other_node.id
    if isinstance(other_node, ast.Attribute) and isinstance(other_node.value, ast.Name) and other_node.value.id == "self":
        return ast.unparse(other_node)
    params = [a.arg for a in func.args.args[1:]]
    return params[0] if params else None
