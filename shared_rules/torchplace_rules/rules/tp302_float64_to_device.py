"""TP302 float64-to-device: NumPy float64 data sent to an accelerator."""
from ..edits import make_fix, method_suffix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text, dev_text
from ..flow.values import TensorV


class Float64ToDevice(Rule):
    code = "TP302"
    name = "float64-to-device"
    severity = Severity.INFORMATION
    summary = "float64 data (NumPy's default) is sent to an accelerator"
    what_it_does = """
        Follows the dtype of NumPy data (`np.random.rand`, `np.zeros`, `np.array`
        of floats are float64) through `torch.from_numpy`/`torch.tensor` and reports
        the transfer of a float64 tensor to an accelerator.
    """
    why_bad = """
        Models use float32 weights: a float64 input fails with "expected scalar type
        Double but found Float" (or silently upcasts), and consumer GPUs run float64
        arithmetic many times slower than float32.  The copy also moves twice the bytes.
    """
    when_it_reports = """
        Information: the tensor's dtype is known to be float64 (NumPy's default) and the move's
        target is known to be an accelerator.
    """
    example = """
        data = np.random.rand(100, 32)
        x = torch.from_numpy(data).to(device)     # TP302: float64 on the GPU
    """
    fix_doc = "Convert before the copy: `torch.from_numpy(data).float().to(device)`."
    fix_safety = "Unsafe: float32 has less precision than float64."
    VALID = [
        valid("""
            import numpy as np
            import torch
            device = torch.device("cuda")
            data = np.random.rand(10, 3).astype(np.float32)
            x = torch.from_numpy(data).to(device)
            y = torch.tensor([1.0, 2.0]).to(device)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import numpy as np
            import torch
            device = torch.device("cuda")
            data = np.random.rand(100, 32)
            x = torch.from_numpy(data).to(device)
            """,
            line=5,
            fixed="""
            import numpy as np
            import torch
            device = torch.device("cuda")
            data = np.random.rand(100, 32)
            x = torch.from_numpy(data).float().to(device)
            """,
        ),
    ]

    def on_transfer(self, ev, node, recv, recv_node, dev, method) -> None:
        if not isinstance(recv, TensorV) or recv.dtype != "float64" or dev is None or dev.kind != "accel":
            return
        if recv.dev is None or not recv.dev.is_cpu or method == "cpu":
            return
        if any(k.arg == "dtype" for k in node.keywords):
            return
        message = f"`{code_text(ev.src, recv_node)}` is float64 (NumPy's default) and is sent to {dev_text(dev)}"
        fix = make_fix("Convert to float32 with `.float()` before the transfer", False,
                       *method_suffix(ev.src, recv_node, ".float()"))
        ev.report(self, node, message, [], fix)
