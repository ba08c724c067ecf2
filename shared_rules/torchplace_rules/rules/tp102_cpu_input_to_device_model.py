"""TP102 cpu-input-to-device-model: a module on an accelerator called with a CPU tensor."""
import ast

from ..context import file_context
from ..context.host_uses import argument_meets_weights
from ..edits import insert_line_before, is_assignable, make_fix, method_suffix, replace_node
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import (
    code_text, dev_text, fix_device_expr, mac_warning_doc, made_in_module_method, only_assumed_accelerator, origin_related,
    placed_device,
)
from ..flow.devices import mac_kind


class CpuInputToDeviceModel(Rule):
    code = "TP102"
    name = "cpu-input-to-device-model"
    severity = Severity.ERROR
    summary = "A module on an accelerator is called with a CPU tensor (or the reverse)"
    what_it_does = """
        Finds calls of an `nn.Module` whose parameters were moved to an accelerator
        (`model.to(device)`, `.cuda()`, `nn.Linear(..., device=device)`) with an
        input known to be on the CPU, and calls of a module that was never moved
        (and has parameters) with an input on the accelerator.
    """
    why_bad = """
        The module's weights and its input must share a device.  The call raises
        `RuntimeError: Input type (torch.FloatTensor) and weight type
        (torch.cuda.FloatTensor) should be the same` or "Expected all tensors to be
        on the same device".  Note that `model.to(device)` on its own line is
        correct: `Module.to()` moves parameters and buffers in place.
    """
    when_it_reports = """
        An error: the module's placement (moved with `.to()`/`.cuda()`, or never moved and holding
        parameters) and the input's device are both known on every path, and the input reaches
        the module's weights.  An argument is followed into `forward` of the project's own class:
        one that `forward` only reads on the host (`len()`, `.shape`, `int(v)`, slice bounds, truth
        tests) or moves first is not a mismatch.  Of a class whose `forward` cannot be read only the
        first input counts (the second may be lengths, boxes or a mask); a `torch.nn` layer's inputs
        all meet its weights.
    """ + mac_warning_doc("call")
    example = """
        model = torch.nn.Linear(100, 50).to(device)
        x = torch.randn(8, 100)
        out = model(x)                # TP102
    """
    fix_doc = "Move the input first: `x = x.to(device)` before the call."
    fix_safety = "Safe: the input is copied to the module's device; values do not change."
    VALID = [
        valid("""
            import torch
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 5)
            model.to(device)                    # in place: the model is on cuda
            x = torch.randn(3, 10).to(device)
            y = model(x)
        """),
        valid("""
            import torch
            device = torch.device("cuda")
            act = torch.nn.ReLU().to(device)    # no parameters: any input device works
            y = act(torch.randn(3))
        """),
        valid("""
            import torch
            device = torch.device("cuda")
            model = torch.nn.Linear(4, 2)
            def place(m):
                m.to(device)
            place(model)
            y = model(torch.randn(1, 4, device=device))
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            model = torch.nn.Linear(100, 50).to(device)
            input_tensor = torch.randn(100, 100)
            output = model(input_tensor)
            """,
            line=5,
            fixed="""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            model = torch.nn.Linear(100, 50).to(device)
            input_tensor = torch.randn(100, 100)
            input_tensor = input_tensor.to(device)
            output = model(input_tensor)
            """,
        ),
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(10, 5)

                def forward(self, x):
                    return self.fc(x)

            model = Net()
            model.cuda()
            print(model(torch.randn(2, 10)))
            """,
            line=14,
            fixed="""
            import torch
            import torch.nn as nn

            class Net(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.fc = nn.Linear(10, 5)

                def forward(self, x):
                    return self.fc(x)

            model = Net()
            model.cuda()
            print(model(torch.randn(2, 10).to("cuda")))
            """,
        ),
        Invalid(
            """
            import torch
            model = torch.nn.Linear(4, 2)
            x = torch.randn(3, 4, device="cuda")
            y = model(x)
            """,
            line=4,
        ),
    ]

    def on_conflict(self, ev, c) -> None:
        if c.cpu.batch is not None:
            return
        src = ev.src
        other_dev = placed_device(ev, c.other_dev)
        if only_assumed_accelerator(ev, other_dev, c.node):
            return
        if c.kind == "module_input" and other_dev.kind == "accel" and not made_in_module_method(ev, c):
            if not argument_meets_weights(c.node, c.cpu_node, c.other, ev):
                return  # the argument is only read on the host (sizes, slice bounds, numbers)
            module_text, arg_text = code_text(src, _called_module(c.node)), code_text(src, c.cpu_node)
            message = (f"`{module_text}` is on {dev_text(other_dev)} but its input `{arg_text}` is on the CPU: "
                       "the call raises a device mismatch")
            related = [origin_related(c.cpu_node, c.cpu, "input created on the CPU here"),
                       (c.other.placed_at, f"module placed on {dev_text(other_dev)} here") if getattr(c.other, "placed_at", None) is not None and hasattr(c.other.placed_at, "lineno") else None]
            ev.report(self, c.node, message, [r for r in related if r], self.fix(ev, c))
        elif c.kind == "module_device":
            if not argument_meets_weights(c.node, c.cpu_node, c.other, ev):
                return
            module_text, arg_text = code_text(src, _called_module(c.node)), code_text(src, c.cpu_node)
            message = (f"`{module_text}` is on {_indexed_text(ev, c.other_dev)} but its input `{arg_text}` is on "
                       f"{_indexed_text(ev, c.cpu.dev)}: the call raises \"Expected all tensors to be on the same device\"")
            related = [origin_related(c.cpu_node, c.cpu, f"input placed on {_short(c.cpu.dev)} here"),
                       (c.other.placed_at, f"module placed on {_short(c.other_dev)} here") if getattr(c.other, "placed_at", None) is not None and hasattr(c.other.placed_at, "lineno") else None]
            # (a layer on "the module's device": move the input to its parameters' device, wherever the
            # caller put the model)
            fix = self.fix(ev, c, None if c.other.dev.kind == "self" else c.other_dev)
            ev.report(self, c.node, message, [r for r in related if r], fix)
        elif c.kind == "module_mac":
            if not argument_meets_weights(c.node, c.cpu_node, c.other, ev):
                return
            self.cpu_on_a_mac(ev, c)
        elif c.kind == "module_reverse":
            func = c.node.func
            module = ev.eval(func) if isinstance(func, (ast.Name, ast.Attribute)) or _container_member(func) else None
            if not argument_meets_weights(c.node, c.other_node, module, ev):
                return
            module_text, arg_text = code_text(src, _called_module(c.node)), code_text(src, c.other_node)
            message = (f"`{module_text}` was never moved off the CPU but its input `{arg_text}` is on "
                       f"{dev_text(c.other_dev)}: the call raises a device mismatch")
            related = [(c.cpu.origin, "module created on the CPU here")] if c.cpu.origin is not None else []
            related.append(origin_related(c.other_node, c.other, f"input placed on {dev_text(c.other_dev)} here"))
            ev.report(self, c.node, message, [r for r in related if r], None)

    def cpu_on_a_mac(self, ev, c) -> None:
        """The module and its input are on the same accelerator on a CUDA machine, but one of the two
        devices was chosen by a test for CUDA alone: on a machine with MPS and no CUDA (Apple silicon)
        it is the CPU while the other is mps, and the call raises there."""
        src = ev.src
        module_text, arg_text = code_text(src, _called_module(c.node)), code_text(src, c.cpu_node)
        module_mps = mac_kind(c.other_dev) == "mps"
        module_where, input_where = ("mps", "the CPU") if module_mps else ("the CPU", "mps")
        message = (f"on a machine with MPS and no CUDA (Apple silicon), `{module_text}` is on {module_where} but its "
                   f"input `{arg_text}` is on {input_where} (one device is chosen by a test for CUDA alone): the call "
                   "raises a device mismatch there; choose both devices the same way")
        related = [origin_related(c.cpu_node, c.cpu, f"input placed here ({input_where} on such a machine)")]
        ev.report(self, c.node, message, [r for r in related if r], None, severity=Severity.WARNING)

    def fix(self, ev, c, dev=False):
        expr = fix_device_expr(ev, c.other_dev if dev is False else dev, module_node=c.node.func)
        if expr is None:
            return None
        arg = c.cpu_node
        stmt = ev.current_stmt
        if isinstance(arg, ast.Name) and is_assignable(arg) and stmt is not None and not isinstance(stmt, (ast.If, ast.While, ast.For, ast.With, ast.Try)):
            anchor = transfer_point(ev, arg.id, c.cpu.origin, stmt)
            if isinstance(anchor, ast.Call):  # the code already moves it, but throws the result away
                return make_fix(f"Assign the result: `{arg.id} = {ev.src.segment(anchor)}`", True,
                                replace_node(ev.src, anchor, f"{arg.id} = {ev.src.segment(anchor)}"))
            edit = insert_line_before(ev.src, anchor, f"{arg.id} = {arg.id}.to({expr})")
            if edit is not None:
                return make_fix(f"Move `{arg.id}` to the module's device before the call", True, edit)
        return make_fix(f"Move the input with `.to({expr})`", True, *method_suffix(ev.src, arg, f".to({expr})"))


def _container_member(func) -> bool:
    """`self.layers[i]` / `cells[0]`: a member of a module container picked by a name or a literal, whose
    evaluation runs no code (its class's `forward` tells which inputs meet the weights)."""
    return func.__class__ is ast.Subscript and isinstance(func.value, (ast.Name, ast.Attribute)) \
        and isinstance(func.slice, (ast.Name, ast.Constant))


def _indexed_text(ev, dev) -> str:
    """cuda:1; a bare "cuda" / `.cuda()` is the current device, cuda:0 where nothing picks another."""
    if dev.label == "cuda":
        return "the current CUDA device (cuda:0: nothing calls `torch.cuda.set_device`)"
    return dev_text(dev)


def _short(dev) -> str:
    return "the current CUDA device" if dev.label == "cuda" else dev_text(dev)


def transfer_point(ev, name: str, origin, stmt: ast.stmt):
    """Where the transfer of `name` goes so that every finding on the same value shares one edit
    (Fix All must not write `x = x.to(device)` twice): before the first statement of the same
    block that needed it, unless `name` is re-bound in between; or the code's own discarded
    `name.to(...)` (TP201's fix makes it an assignment: the same edit)."""
    block = file_context(ev).blocks.get(id(stmt))
    if block is None:
        return stmt
    index = next(i for i, s in enumerate(block) if s is stmt)
    for earlier in reversed(block[:index]):
        if _binds(earlier, name):
            break
        if _discarded_move(earlier, name) is not None:
            return _discarded_move(earlier, name)
    anchors = ev.__dict__.setdefault("_tp102_transfers", {})
    key = (id(ev.frame.func), name, id(origin))
    first = anchors.setdefault(key, stmt)
    if first is not stmt and any(s is first for s in block[:index]):
        start = next(i for i, s in enumerate(block) if s is first)
        if not any(_binds(s, name) for s in block[start:index]):
            return first
    anchors[key] = stmt
    return stmt


def _binds(stmt: ast.stmt, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(stmt))


def _discarded_move(stmt: ast.stmt, name: str):
    """`name.to(...)` / `name.cuda()` as a statement of its own: its call, else None."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
            and stmt.value.func.attr in ("to", "cuda") and isinstance(stmt.value.func.value, ast.Name) \
            and stmt.value.func.value.id == name:
        return stmt.value
    return None


def _called_module(call: ast.Call) -> ast.AST:
    """The module a conflicting call runs: `model` of `model(x)`, and of `model.generate(ids)`."""
    func = call.func
    return func.value if func.__class__ is ast.Attribute and func.attr == "generate" else func
