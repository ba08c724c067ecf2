"""TP402 sync-in-loop: host synchronisation on accelerator tensors inside a training loop."""
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text, dev_text
from ..flow.torch_api import SYNC_METHODS
from ..flow.values import TensorV


class SyncInLoop(Rule):
    code = "TP402"
    name = "sync-in-loop"
    severity = Severity.HINT
    summary = "`.item()`, `.cpu()`, `.tolist()` or `print()` of an accelerator tensor inside a training loop"
    what_it_does = """
        Finds calls that copy an accelerator tensor to the host inside a loop that
        trains (its body calls `.backward()` or `optimizer.step()`).  Syncs under a
        periodic guard such as `if step % 100 == 0:` are the recommended practice
        and are not reported.
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
        if not ev.in_training_loop or ev.in_periodic_branch:
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
