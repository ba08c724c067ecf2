"""TP401 hard-coded-cuda: `.cuda()` / `"cuda"` where a device variable is in scope."""
import ast

from ..context import file_context
from ..edits import make_fix, replace_node
from ..model import Edit, Severity, Span
from ..rule_base import Invalid, Rule, valid
from ..rule_support import device_variable_in_scope


class HardCodedCuda(Rule):
    code = "TP401"
    name = "hard-coded-cuda"
    severity = Severity.HINT
    summary = "`.cuda()` or `\"cuda\"` is used where a device variable is in scope"
    what_it_does = "Finds `.cuda()` calls and `\"cuda\"` device arguments in code that defines a device variable."
    why_bad = """
        The code chose a device once (`device = ...`), then bypasses it.  This may
        break on machines without CUDA (or with MPS), and may put data on `cuda:0`
        when `device` is another GPU.
    """
    example = """
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        x = batch.cuda()                  # TP401
    """
    when_it_reports = """
        A hint ("may"): `.cuda()` is right on a CUDA machine.  It needs a device variable bound to an
        accelerator in scope, and a call that no condition on the device choice guards:
        `if use_cuda:` / `if args.cuda:` / `x.cuda() if torch.cuda.is_available() else x` are the
        choice itself and are left alone.
    """
    fix_doc = "Use the variable: `x = batch.to(device)`."
    fix_safety = "Unsafe: the device variable may name another device than `cuda`."
    VALID = [
        valid("""
            import torch
            x = torch.randn(3).cuda()       # no device variable: nothing to prefer
        """),
    ]
    VALID.append(valid("""
        import torch
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        use_cuda = torch.cuda.is_available()
        x = torch.randn(3)
        if use_cuda:
            x = x.cuda()                    # guarded by the device choice
    """))
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            x = torch.ones(3, device="cuda")
            """,
            line=3,
            fixed="""
            import torch
            device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
            x = torch.ones(3, device=device)
            """,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if qual == "torch.device":
            return
        if method != "cuda" and not _passes_cuda_string(node):
            return  # cheap test first: this runs on every call
        name = device_variable_in_scope(ev)
        if name is None or file_context(ev).guarded_by_device_choice(node):
            return  # `if use_cuda: x = x.cuda()` is the device choice itself, not a hard-coded one
        if method == "cuda" and not node.args and not node.keywords and isinstance(node.func, ast.Attribute):
            end_recv, end_call = ev.src.end(node.func.value), ev.src.end(node)
            edit = Edit(Span(end_recv.start_line, end_recv.start_col, end_call.end_line, end_call.end_col), f".to({name})")
            ev.report(self, node, f"`.cuda()` ignores the device variable `{name}`; this may fail where `{name}` is not CUDA",
                      [], make_fix(f"Use `.to({name})`", False, edit))
            return
        for value_node in list(node.args) + [k.value for k in node.keywords if k.arg == "device"]:
            if isinstance(value_node, ast.Constant) and isinstance(value_node.value, str) \
                    and value_node.value.split(":")[0] == "cuda" and (method == "to" or qual or value_node in [k.value for k in node.keywords]):
                ev.report(self, value_node, f"`{value_node.value!r}` ignores the device variable `{name}`; this may fail "
                          f"where `{name}` is not CUDA", [], make_fix(f"Use `{name}`", False, replace_node(ev.src, value_node, name)))


def _passes_cuda_string(node: ast.Call) -> bool:
    """Does the call pass a string starting with "cuda"?  Memoised on the node: a call is
    evaluated once per context its function is analysed for."""
    known = node.__dict__.get("_tp_cuda_string")
    if known is None:
        known = node._tp_cuda_string = any(
            n.__class__ is ast.Constant and isinstance(n.value, str) and n.value.startswith("cuda")
            for n in list(node.args) + [k.value for k in node.keywords])
    return known
