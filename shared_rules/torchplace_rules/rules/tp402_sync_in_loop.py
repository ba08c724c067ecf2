"""TP402 sync-in-loop: host synchronisation on accelerator tensors inside a training loop."""
import ast

from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text, dev_text
from ..flow.torch_api import SYNC_METHODS, TRAINING_STEP_METHODS
from ..flow.values import TensorV


class SyncInLoop(Rule):
    code = "TP402"
    name = "sync-in-loop"
    severity = Severity.HINT
    summary = "`.item()`, `.cpu()`, `.tolist()` or `print()` of an accelerator tensor inside a training loop"
    what_it_does = """
        Finds calls that copy an accelerator tensor to the host inside the loop that
        runs the training steps (its own body calls `.backward()` or `optimizer.step()`).
        Syncs under a periodic guard such as `if step % 100 == 0:` are the recommended
        practice and are not reported, nor are syncs in an outer loop (once per epoch)
        whose steps run in an inner loop.
    """
    why_bad = """
        Each of these waits until the GPU has finished all queued work, then copies.
        Once per step this may stall the pipeline and slow training; accumulate on
        the device and synchronise every N steps instead.
    """
    example = """
        for x, y in loader:
            loss = criterion(model(x.to(device)), y.to(device))
            loss.backward()
            total += loss.item()      # TP402
    """
    when_it_reports = """
        A hint: whether one sync per step slows training depends on the model and the step
        time.  It needs a tensor known to be on an accelerator and a loop that itself makes
        the step; a loop that only contains the step loop (epochs) runs the sync once per
        epoch, which is cheap.
    """
    fix_doc = "Accumulate on the device (`total += loss.detach()`) and call `.item()` once per epoch or every N steps."
    VALID = [
        valid("""
            import torch
            x = torch.randn(3, device="cuda")
            print(x.sum().item())          # outside any training loop
        """),
        valid("""
            import torch
            w = torch.randn(3, device="cuda", requires_grad=True)
            for step in range(1000):
                loss = (w * w).sum()
                loss.backward()
                if step % 100 == 0:
                    print(loss.item())     # logging every N steps is the fix
        """),
    ]
    VALID.append(valid("""
        import torch
        w = torch.randn(3, device="cuda", requires_grad=True)
        for epoch in range(10):
            for step in range(100):
                loss = (w * w).sum()
                loss.backward()
            print(loss.item())             # once per epoch: the step loop is the inner one
    """))
    INVALID = [
        Invalid(
            """
            import torch
            w = torch.randn(3, device="cuda", requires_grad=True)
            for step in range(10):
                loss = (w * w).sum()
                loss.backward()
                print(loss.item())
            """,
            line=6,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if not ev.frame.loops:
            return  # cheap test first (outside a loop nothing syncs every step): this runs on every call
        if not any(loop.training and _steps_directly(loop.node) for loop in ev.frame.loops) or ev.in_periodic_branch:
            return
        if method in SYNC_METHODS and _on_accel(recv):
            what = f"`.{method}()`"
            target = node.func.value
        elif qual == "print" and any(_on_accel(a) for a in args):
            what, target = "`print()`", next(n for n, a in zip(node.args, args) if _on_accel(a))
            recv = next(a for a in args if _on_accel(a))
        else:
            return
        ev.report(self, node, f"{what} of `{code_text(ev.src, target)}` on {dev_text(recv.dev)} waits for the GPU "
                  "every step; this may slow training", [], None)


def _on_accel(value) -> bool:
    return isinstance(value, TensorV) and value.dev is not None and value.dev.kind == "accel"


def _steps_directly(loop: ast.AST) -> bool:
    """Does this loop's own body make a training step (`.backward()`, `optimizer.step()`), rather
    than an inner loop doing it (an epoch loop around a step loop)?  Memoised on the loop."""
    known = getattr(loop, "_tp_steps", None)
    if known is None:
        known = False
        stack = list(loop.body)
        while stack and not known:
            node = stack.pop()
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                 ast.ClassDef)):
                continue
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in TRAINING_STEP_METHODS:
                known = node.func.attr == "backward" or "optim" in ast.unparse(node.func.value).lower()
            stack.extend(ast.iter_child_nodes(node))
        loop._tp_steps = known
    return known
