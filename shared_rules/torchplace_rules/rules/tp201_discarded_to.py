"""TP201 discarded-to: `x.to(device)` on a tensor as a bare statement."""
import ast

from ..edits import is_assignable, make_fix, replace_node
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text
from ..flow.torch_api import DISCARDABLE_METHODS
from ..flow.values import TensorV


class DiscardedTo(Rule):
    code = "TP201"
    name = "discarded-to"
    severity = Severity.WARNING
    summary = "The tensor returned by `.to()`/`.cuda()`/`.cpu()`/`.float()` is thrown away"
    what_it_does = """
        Finds `x.to(...)`, `x.cuda()`, `x.cpu()`, `x.float()` and similar calls on a
        tensor used as a statement on their own.  Never reported for modules:
        `model.to(device)` alone is correct.
    """
    why_bad = """
        `Tensor.to()` returns a new tensor and leaves `x` where it was.  The
        statement does nothing but copy data; `x` stays on the CPU (or keeps its
        dtype) and the next op with device tensors fails.  `Module.to()` is
        different: it moves the parameters in place.
    """
    when_it_reports = """
        A warning: the receiver is known to be a tensor (never a module, whose `.to()` works in
        place, nor an object of unknown type) that a name refers to: `x`, `self.x`, `x[0]`, or an
        in-place method's result (`t.uniform_().to(...)` returns `t`).  A discarded conversion of
        a fresh temporary (`torch.zeros(1).to(device)`, a warm-up) leaves no name behind and is
        not reported.
    """
    example = """
        x = torch.randn(8, 3)
        x.to(device)                  # TP201: x is still on the CPU
    """
    fix_doc = "Keep the result: `x = x.to(device)`."
    fix_safety = "Safe: the statement had no effect; the fix makes it do what it says."
    VALID = [
        valid("""
            import torch
            device = torch.device("cuda")
            model = torch.nn.Linear(3, 1)
            model.to(device)
            model.cuda()
            x = torch.randn(2, 3)
            x = x.to(device)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda")
            x = torch.zeros(3)
            x.to(device)
            """,
            line=4,
            fixed="""
            import torch
            device = torch.device("cuda")
            x = torch.zeros(3)
            x = x.to(device)
            """,
        ),
        Invalid(
            """
            import torch
            t = torch.randn(4, device="cuda")
            t.cpu()
            print(t.numpy())
            """,
            line=3,
            fixed="""
            import torch
            t = torch.randn(4, device="cuda")
            t = t.cpu()
            print(t.numpy())
            """,
        ),
    ]

    def on_expr_stmt(self, ev, stmt, call, recv, result) -> None:
        method = call.func.attr
        if method not in DISCARDABLE_METHODS or not isinstance(recv, TensorV):
            return
        target = call.func.value
        if not _names_a_value(ev, target):
            return  # a fresh temporary (`torch.zeros(1).to(device)`: a warm-up): no name is left behind
        text = code_text(ev.src, call)
        message = f"`{text}` returns a new tensor that is thrown away; `{code_text(ev.src, target)}` is unchanged"
        fix = None
        if is_assignable(target):
            fix = make_fix(f"Assign the result: `{ev.src.segment(target)} = {text}`", True,
                           replace_node(ev.src, call, f"{ev.src.segment(target)} = {ev.src.segment(call)}"))
        ev.report(self, stmt, message, [], fix)


def _names_a_value(ev, node) -> bool:
    """Does the receiver refer to a value some name holds: `x`, `self.x`, `x[0]`, `x.float()`, or an
    in-place method's result (`t.uniform_(a, b)` returns `t`)?  A factory call, an operator's
    result or a literal is a temporary nobody refers to."""
    while True:
        if isinstance(node, ast.Name):
            return True
        if isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and ev.qualname(node.func) is None:
            node = node.func.value  # a method of some value (not `torch.zeros`): follow the receiver
        else:
            return False
