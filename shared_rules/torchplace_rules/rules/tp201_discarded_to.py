"""TP201 discarded-to: `x.to(device)` on a tensor as a bare statement."""
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
        text = code_text(ev.src, call)
        message = f"`{text}` returns a new tensor that is thrown away; `{code_text(ev.src, target)}` is unchanged"
        fix = None
        if is_assignable(target):
            fix = make_fix(f"Assign the result: `{ev.src.segment(target)} = {text}`", True,
                           replace_node(ev.src, call, f"{ev.src.segment(target)} = {ev.src.segment(call)}"))
        ev.report(self, stmt, message, [], fix)
