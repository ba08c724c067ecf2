"""TP403 pin-memory-without-non-blocking: pinned batches copied synchronously."""
from ..edits import insert_keyword, make_fix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..flow.values import BatchV, TensorV


class PinMemoryWithoutNonBlocking(Rule):
    code = "TP403"
    name = "pin-memory-without-non-blocking"
    severity = Severity.HINT
    summary = "Batches of a `pin_memory=True` loader are moved without `non_blocking=True`"
    what_it_does = "Finds `.to(device)`/`.cuda()` of batches from a DataLoader created with `pin_memory=True` that do not pass `non_blocking=True`."
    why_bad = """
        Pinned memory exists so the host-to-device copy can overlap with compute.
        A blocking copy waits for it to finish, so pinning may buy nothing.
    """
    when_it_reports = """
        A hint ("may"): whether the overlap matters depends on the step; it needs a batch of a
        loader made with `pin_memory=True` moved to a device known to be an accelerator.
    """
    example = """
        loader = DataLoader(ds, batch_size=64, pin_memory=True)
        for x, y in loader:
            x = x.to(device)              # TP403
    """
    fix_doc = "Add `non_blocking=True`: `x = x.to(device, non_blocking=True)`."
    fix_safety = "Safe: copies from pinned memory are ordered on the stream before the kernels that use them."
    VALID = [
        valid("""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            for x, y in DataLoader(ds, pin_memory=True):
                x = x.to(device, non_blocking=True)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            for x, y in DataLoader(ds, pin_memory=True):
                x = x.to(device)
            """,
            line=5,
            fixed="""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            for x, y in DataLoader(ds, pin_memory=True):
                x = x.to(device, non_blocking=True)
            """,
        ),
    ]

    def on_transfer(self, ev, node, recv, recv_node, dev, method) -> None:
        info = recv.info if isinstance(recv, BatchV) else (recv.batch if isinstance(recv, TensorV) else None)
        if info is None or not info.pin_memory or dev is None or dev.kind != "accel" or method == "cpu":
            return
        if any(k.arg == "non_blocking" for k in node.keywords):
            return
        edit = insert_keyword(ev.src, node, "non_blocking=True")
        ev.report(self, node, "this batch comes from a `pin_memory=True` loader; a blocking copy may waste the pinning",
                  [], make_fix("Add `non_blocking=True`", True, edit) if edit else None)
