"""TP204 load-without-map-location: `torch.load` in device-aware code without `map_location`."""
from ..edits import insert_keyword, make_fix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import device_variable_in_scope


class LoadWithoutMapLocation(Rule):
    code = "TP204"
    name = "load-without-map-location"
    severity = Severity.WARNING
    summary = "`torch.load` without `map_location` in code that chooses its device at run time"
    what_it_does = """
        Finds `torch.load(...)` calls without `map_location` in files that pick a
        device (`torch.device(...)`, a `device` variable, `.cuda()`).
    """
    why_bad = """
        `torch.load` restores each tensor on the device it was saved from.  A
        checkpoint written on a GPU fails to load on a machine without one
        ("Attempting to deserialize object on a CUDA device but
        torch.cuda.is_available() is False"), and on a multi-GPU machine every
        process piles its copy onto `cuda:0`.
    """
    example = """
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        state = torch.load("ckpt.pt")        # TP204
    """
    fix_doc = "Say where tensors go: `torch.load(path, map_location=device)` (or `\"cpu\"`)."
    fix_safety = """
        Unsafe: tensors that were loaded onto their saved device and used directly
        (not through `load_state_dict`) will now live on `map_location`.
    """
    VALID = [
        valid("""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            state = torch.load("ckpt.pt", map_location=device)
        """),
        valid("""
            import torch
            state = torch.load("ckpt.pt")     # no device in play: nothing to report
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            state = torch.load("ckpt.pt", weights_only=True)
            """,
            line=3,
            fixed="""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            state = torch.load("ckpt.pt", weights_only=True, map_location=device)
            """,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if qual != "torch.load" or "map_location" in kwargs or len(node.args) >= 2 or any(k.startswith("**") for k in kwargs):
            return
        pending = ev.__dict__.setdefault("_tp204_pending", [])
        pending.append((node, device_variable_in_scope(ev)))

    def on_finish(self, ev) -> None:
        pending = ev.__dict__.get("_tp204_pending", [])
        if not ev.targets_accelerator:
            return
        for node, device_name in pending:
            location = device_name or '"cpu"'
            edit = insert_keyword(ev.src, node, f"map_location={location}")
            fix = make_fix(f"Add `map_location={location}`", False, edit) if edit else None
            ev.report(self, node, "`torch.load` restores tensors on the device they were saved from; without "
                      "`map_location` a GPU checkpoint fails on a machine without that GPU", [], fix)
