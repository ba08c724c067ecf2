"""TP301 create-then-move: a factory builds on the CPU and is immediately copied over."""
from ..edits import insert_keyword, make_fix
from ..model import Edit, Severity, Span
from ..rule_base import Invalid, Rule, valid
from ..rule_support import accepts_device, code_text, dev_text
from ..flow.devices import RUNTIME, SELF_KIND
from ..flow.values import TensorV


class CreateThenMove(Rule):
    code = "TP301"
    name = "create-then-move"
    severity = Severity.INFORMATION
    summary = "`torch.randn(...).to(device)` allocates on the CPU and copies; create it on the device"
    what_it_does = "Finds tensor factories chained directly into `.to(device)` or `.cuda()`."
    why_bad = """
        The tensor is filled in host memory and then copied over the bus: twice
        the work, and a host-to-device copy on every call when it sits in a loop
        or in `forward`.  Passing `device=` creates it in place.
    """
    when_it_reports = """
        Information: the factory is chained directly into a move to a device known to be an
        accelerator; nothing fails.
    """
    example = """
        noise = torch.randn(64, 128).to(device)    # TP301
    """
    fix_doc = "Pass the device to the factory: `torch.randn(64, 128, device=device)`."
    fix_safety = """
        Safe for deterministic factories (`zeros`, `ones`, `full`, `arange`, `eye`,
        `tensor`, ...).  Unsafe for random ones: the accelerator's generator draws
        different numbers than the CPU generator seeded the same way.
    """
    VALID = [
        valid("""
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def bases(self, n, device):
                    return torch.rand(n, 4, device=device)  # made on the module's device
        """),
        valid("""
            import torch
            device = torch.device("cuda")
            a = torch.zeros(3, device=device)
            b = torch.zeros(3).to(torch.float64)
        """),
    ]
    INVALID = [
        Invalid(  # `.to(tensor)` takes the tensor's device and dtype: no `device=` fix
            """
            import torch
            x = torch.ones(3, device="cuda")
            y = torch.zeros(2).to(x)
            """,
            line=3,
        ),
        Invalid(  # copied to the module's device: a copy every call once the module is on a GPU
            """
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def bases(self, n, device):
                    return torch.randn(n, 4).to(device)
            """,
            line=5,
            fixed="""
            import torch
            import torch.nn as nn
            class Head(nn.Module):
                def bases(self, n, device):
                    return torch.randn(n, 4, device=device)
            """,
        ),
        Invalid(
            """
            import torch
            device = torch.device("cuda")
            a = torch.zeros(3, 4).to(device)
            """,
            line=3,
            fixed="""
            import torch
            device = torch.device("cuda")
            a = torch.zeros(3, 4, device=device)
            """,
        ),
        Invalid(
            """
            import torch
            b = torch.randn(2).cuda()
            """,
            line=2,
            fixed="""
            import torch
            b = torch.randn(2, device="cuda")
            """,
        ),
    ]

    def on_transfer(self, ev, node, recv, recv_node, dev, method) -> None:
        if not isinstance(recv, TensorV) or recv.factory is None or recv.factory is not recv_node:
            return
        if dev is None or recv.dev is None or not recv.dev.is_cpu:
            return
        if ev.call_sites:
            return  # a note about the function's own code: made where it runs for no particular call
        factory = recv.factory
        if any(k.arg == "device" for k in factory.keywords) or not accepts_device(ev, factory):
            return  # only a function that takes `device=` can create it there
        cls = ev.frame.cls
        to_module_device = dev.kind == SELF_KIND and cls is not None and cls.is_module  # a copy once it is on a GPU
        if not to_module_device and (dev.kind != "accel" or dev.label == RUNTIME):
            return
        self.note(ev, node, factory, method, recv, dev)

    def note(self, ev, node, factory, method, recv, dev) -> None:
        src = ev.src
        message = (f"`{code_text(src, factory)}` is created on the CPU and then copied to {dev_text(dev)}; "
                   "create it there with `device=`")
        ev.report(self, node, message, [], self.fix(ev, node, factory, method, recv))

    def fix(self, ev, node, factory, method, recv):
        src = ev.src
        if method == "cuda":
            if node.args or node.keywords:
                return None
            expr = '"cuda"'
        else:
            extra = [k for k in node.keywords if k.arg != "non_blocking"]
            if len(node.args) != 1 or extra:
                return None
            if isinstance(ev.eval(node.args[0]), TensorV):
                return None  # `.to(other_tensor)` also takes its dtype: `device=other_tensor` would not run
            expr = src.segment(node.args[0])
        insert = insert_keyword(src, factory, f"device={expr}")
        if insert is None:
            return None
        end_factory, end_call = src.end(factory), src.end(node)
        remove = Edit(Span(end_factory.start_line, end_factory.start_col, end_call.end_line, end_call.end_col), "")
        return make_fix(f"Create it with `device={expr}`", not recv.random, insert, remove)
