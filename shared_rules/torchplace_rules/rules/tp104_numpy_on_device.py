"""TP104 numpy-on-device: `.numpy()` (or `np.asarray`) on an accelerator tensor."""
import ast

from ..edits import make_fix, method_suffix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text, dev_text, origin_related
from ..flow.values import TensorV


class NumpyOnDevice(Rule):
    code = "TP104"
    name = "numpy-on-device"
    severity = Severity.ERROR
    summary = "`.numpy()`, `np.asarray` or `np.array` on a tensor that lives on an accelerator"
    what_it_does = "Finds conversions to NumPy of tensors known to be on an accelerator."
    why_bad = """
        NumPy arrays live in host memory.  `.numpy()` on a CUDA tensor raises
        `TypeError: can't convert cuda:0 device type tensor to numpy. Use
        Tensor.cpu() to copy the tensor to host memory first.`; a tensor that
        requires grad raises "Can't call numpy() on Tensor that requires grad".
    """
    when_it_reports = """
        An error: the tensor is on an accelerator on every path that reaches the conversion.
    """
    example = """
        logits = model(x.to(device))
        preds = logits.argmax(1).numpy()   # TP104
    """
    fix_doc = "Copy to the host first: `.cpu().numpy()` (`.detach().cpu().numpy()` when it requires grad)."
    fix_safety = "Safe: the values are copied to host memory unchanged."
    VALID = [
        valid("""
            import torch
            x = torch.randn(3, device="cuda")
            a = x.cpu().numpy()
            b = torch.randn(3).numpy()
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda")
            x = torch.randn(3, device=device)
            a = x.numpy()
            """,
            line=4,
            fixed="""
            import torch
            device = torch.device("cuda")
            x = torch.randn(3, device=device)
            a = x.cpu().numpy()
            """,
        ),
        Invalid(
            """
            import numpy as np
            import torch
            model = torch.nn.Linear(4, 2).cuda()
            out = model(torch.randn(1, 4, device="cuda"))
            arr = np.asarray(out)
            """,
            line=5,
            fixed="""
            import numpy as np
            import torch
            model = torch.nn.Linear(4, 2).cuda()
            out = model(torch.randn(1, 4, device="cuda"))
            arr = np.asarray(out.detach().cpu())
            """,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if method == "numpy" and isinstance(recv, TensorV) and recv.dev is not None and recv.dev.kind == "accel":
            target = node.func.value
            tensor = recv
        elif qual in ("numpy.asarray", "numpy.array", "numpy.asanyarray") and args and isinstance(args[0], TensorV) \
                and args[0].dev is not None and args[0].dev.kind == "accel" and node.args and not isinstance(node.args[0], ast.Starred):
            target = node.args[0]
            tensor = args[0]
        else:
            return
        suffix = ".detach().cpu()" if tensor.grad else ".cpu()"
        message = (f"`{code_text(ev.src, target)}` is on {dev_text(tensor.dev)}: converting it to NumPy raises; "
                   f"copy it to the host with `{suffix}` first")
        fix = make_fix(f"Insert `{suffix}` before the conversion", True, *method_suffix(ev.src, target, suffix))
        related = origin_related(target, tensor, f"placed on {dev_text(tensor.dev)} here")
        ev.report(self, node, message, [related] if related else [], fix)
