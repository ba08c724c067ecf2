"""TP101 mixed-devices: an op that combines an accelerator tensor with a CPU tensor."""
import ast
from typing import Optional

from ..flow.cross_file import foreign_home, home_elsewhere
from ..edits import insert_keyword, make_fix, method_suffix, needs_parens, replace_node
from ..context import file_context
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import (
    accepts_device, already_reported, code_text, dev_text, fix_device_expr, mac_warning_doc, made_in_module_method,
    only_assumed_accelerator, origin_related, passed_to_a_helper, placed_device,
)


_ITERATOR_OPS = (ast.BinOp, ast.AugAssign, ast.Compare, ast.UnaryOp)


def _cause_reported(ev, code: str, c) -> bool:
    """The same CPU tensor already gave a finding on the way here: the first use that raises is the
    one to fix.  A finding in the other branch of an `if` around this use is not on the way here.
    One made in another file is named in the message (a related location can only be in this file)."""
    origin = c.cpu.origin
    if origin is None or origin is c.cpu_node or not hasattr(origin, "lineno"):
        return False
    made = _made_elsewhere(ev, c)
    if made is not None:
        return already_reported(ev, lambda f: f.code == code and made in f.message)
    span = ev.src.span(origin)
    other_branches = _other_branches(ev, c.node)
    return already_reported(ev, lambda f: f.code == code and not any(
        first <= f.span.start_line <= last for first, last in other_branches) and any(
        r.span == span and r.message == "created on the CPU here" for r in f.related))


def _other_branches(ev, node) -> list:
    """(first, last) 0-based lines of the `if` branches around `node` that do not hold it."""
    parents = file_context(ev).parents
    out = []
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If):
            other = parent.orelse if any(s is child for s in parent.body) else \
                parent.body if any(s is child for s in parent.orelse) else None
            if other:
                out.append((other[0].lineno - 1, other[-1].end_lineno - 1))
        child, parent = parent, parents.get(id(parent))
    return out


def _made_elsewhere(ev, c) -> Optional[str]:
    """For a CPU operand created in another file's code, where: ` (made in other.py line 18)`."""
    origin = c.cpu.origin
    home = home_elsewhere(ev, origin) if origin is not None and hasattr(origin, "lineno") else None
    return f" (made in {home.path.name} line {origin.lineno})" if home is not None else None


def _names_in_scope_at(ev, expr: str, where: ast.AST, op: ast.AST) -> bool:
    """Can `expr`, a device expression valid at the op, be written at `where` (a factory call)?  A
    literal anywhere in this file; a name only in the op's own function."""
    ctx = file_context(ev)
    if not ctx.in_this_file(where):
        return False
    return expr[0] in "\"'" or ctx.enclosing_function(where) is ctx.enclosing_function(op)


class MixedDevices(Rule):
    code = "TP101"
    name = "mixed-devices"
    severity = Severity.ERROR
    summary = "An operation combines a tensor on an accelerator with a tensor on the CPU"
    what_it_does = """
        Finds arithmetic, comparisons, indexing and `torch.*` / `torch.nn.functional.*`
        calls (including the tensor lists of `torch.cat` and `torch.stack`) whose
        operands are known to live on different devices: one on an accelerator
        (`cuda`, `mps`, ...) and one on the CPU.
    """
    why_bad = """
        PyTorch does not move data implicitly.  Such an op raises
        `RuntimeError: Expected all tensors to be on the same device, but found at
        least two devices, cuda:0 and cpu!` at run time, often after a long queue on
        a remote GPU.  (It does not "silently run on the CPU".)  What PyTorch itself
        allows is never reported: a 0-dim CPU tensor in ops that accept one (arithmetic,
        comparisons, `torch.where`, the value of `x[mask] = v`; not `index_select`,
        `gather`, `embedding`, `cross_entropy` targets, `stack` or conv weights), CPU
        index tensors indexing a CUDA tensor, and 0-dim tensors where PyTorch reads a
        number (`torch.arange(n)`).  Arguments PyTorch wants on the CPU
        (`pack_padded_sequence` lengths) are reported when they are on an accelerator.
    """
    when_it_reports = """
        An error: the mismatch is proven on every path that reaches the line.  Both operands'
        devices are known there (where paths disagree a device becomes unknown, and unknown never
        reports), and the CPU operand cannot be the 0-dim tensor that arithmetic accepts: in `+`,
        `*`, comparisons and in-place arithmetic its rank must be known (else the finding is a hint
        that says "may").  The related locations
        show where each operand got its device (the message names the file and line where a CPU
        tensor made in another file's code was made).  Code inside `pytest.raises(...)` /
        `assertRaises(...)` blocks is expected to raise and is not reported.

        A warning where one operand is on a CUDA device whose index the program chooses at run time
        (`f"cuda:{args.gpu_id}"`, `torch.device("cuda", local_rank)`, `.cuda(gpu)`) and the other on
        one of known index (`"cuda:1"`, or `.cuda()` / `"cuda"`: the current device, cuda:0 where the
        program never calls `torch.cuda.set_device`): the op raises whenever the chosen index is
        another one (`--gpu_id 1`), which the analysis cannot rule out.

        It also reports `optimizer.step()` of an optimizer with per-parameter state (SGD with a
        momentum, Adam, AdamW, RMSprop, ...) that loaded a state with `load_state_dict` and whose
        module was then moved in place (`model.cuda()`, `model = model.to(device)`):
        `load_state_dict` casts the state to the parameters' device at load time and the move takes
        the parameters (the same Parameter objects), not the state.  An error where the load happened
        on every path to the step; a warning where only on some (a resume flag the analysis cannot
        decide: every run that loads the state raises); nothing where code touches `optimizer.state`, hands the optimizer to an
        unknown function, or the module is rebound to another one.

        And where torch itself draws on the default device with a CPU generator after the program made an
        accelerator the default (`torch.set_default_tensor_type(torch.cuda.FloatTensor)`,
        `torch.set_default_device("cuda")`, in the file or in the body of a project module it imports):
        `random_split` without `generator=`, and iterating a `DataLoader(..., shuffle=True)` without a
        sampler or `generator=` ("Expected a 'cuda' device type for generator but found 'cpu'").
    """ + mac_warning_doc("op")
    example = """
        device = torch.device("cuda")
        weights = torch.randn(5, 5, device=device)
        bias = torch.ones(5)
        out = weights + bias          # TP101
    """
    fix_doc = """
        Create the CPU operand on the right device (`torch.ones(5, device=device)`),
        or move it where it is used (`bias.to(weights.device)`).
    """
    fix_safety = """
        Moving an operand with `.to(...)` and adding `device=` to deterministic
        factories (`zeros`, `ones`, `full`, `arange`, `tensor`, ...) are safe.  Adding
        `device=` to a random factory (`randn`, `rand`, ...) is unsafe: the
        accelerator's generator draws different numbers than the CPU's.
    """
    VALID = [
        valid("""
            import torch
            device = torch.device("cuda")
            a = torch.ones(3, device=device)
            b = torch.zeros(3, device=device)
            c = a + b
        """),
        valid("""
            import torch
            device = torch.device("cuda")
            x = torch.randn(4, 4, device=device)
            scale = torch.tensor(2.0)          # 0-dim CPU tensors may join CUDA ops
            y = x * scale
            idx = torch.arange(2)              # CPU indices may index a CUDA tensor
            z = x[idx]
        """),
        valid("""
            import torch
            mat1 = torch.randn(8, 8, device="cuda")
            mat2 = torch.randn(8, 8, device="cuda")
            mat1 += mat2
        """),
        valid("""
            import torch
            torch.set_default_device("cuda")
            a = torch.ones(3)
            b = torch.ones(3, device="cuda")
            c = a + b
        """),
        valid("""
            import torch
            x = torch.randn(3, device="cuda")
            y = torch.zeros_like(x) + x.new_ones(3) + torch.ones(3, device=x.device)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.nn.utils.rnn import pack_padded_sequence
            device = torch.device("cuda")
            x = torch.randn(2, 5, 3, device=device)
            lengths = torch.tensor([5, 3], device=device)
            packed = pack_padded_sequence(x, lengths, batch_first=True)
            """,
            line=6,
            fixed="""
            import torch
            from torch.nn.utils.rnn import pack_padded_sequence
            device = torch.device("cuda")
            x = torch.randn(2, 5, 3, device=device)
            lengths = torch.tensor([5, 3], device=device)
            packed = pack_padded_sequence(x, lengths.cpu(), batch_first=True)
            """,
        ),
        Invalid(
            """
            import torch
            device = torch.device("cuda")
            a = torch.ones(2, device=device)
            b = torch.ones(2)
            c = a + b
            """,
            line=5,
            fixed="""
            import torch
            device = torch.device("cuda")
            a = torch.ones(2, device=device)
            b = torch.ones(2, device=device)
            c = a + b
            """,
        ),
        Invalid(
            """
            import torch
            x = torch.randn(4, 3).cuda()
            w = torch.randn(3, 2)
            y = torch.matmul(x, w)
            """,
            line=4,
            fixed="""
            import torch
            x = torch.randn(4, 3).cuda()
            w = torch.randn(3, 2, device="cuda")
            y = torch.matmul(x, w)
            """,
        ),
        Invalid(
            """
            import numpy as np
            import torch
            device = "cuda" if torch.cuda.is_available() else "cpu"
            feats = torch.from_numpy(np.zeros((2, 3), dtype=np.float32))
            extra = torch.ones(2, 3).to(device)
            both = torch.cat([feats, extra])
            """,
            line=6,
            fixed="""
            import numpy as np
            import torch
            device = "cuda" if torch.cuda.is_available() else "cpu"
            feats = torch.from_numpy(np.zeros((2, 3), dtype=np.float32))
            extra = torch.ones(2, 3).to(device)
            both = torch.cat([feats.to(device), extra])
            """,
        ),
    ]

    def on_conflict(self, ev, c) -> None:
        other_dev = placed_device(ev, c.other_dev)
        if only_assumed_accelerator(ev, other_dev, c.node):
            return
        if c.kind == "needs_cpu" and other_dev.kind == "accel":
            self.needs_cpu(ev, c, other_dev)
            return
        if c.kind in ("cpu_generator", "cpu_sampler"):
            if other_dev.kind == "accel":
                self.cpu_generator(ev, c, other_dev)
            return
        if c.kind in ("optimizer_state", "optimizer_state_maybe"):
            self.stale_optimizer_state(ev, c)
            return
        if c.cpu.batch is not None or c.kind not in ("op", "index", "op_index", "op_mac") or other_dev.kind != "accel":
            return
        # (a factory of a module method meeting what a caller passed a helper method: TP202 leaves that to
        # the caller, so a call context that placed the module reports the op here)
        if made_in_module_method(ev, c) and not (c.cpu.plain_attr is None and passed_to_a_helper(ev, c)) \
                or _cause_reported(ev, self.code, c):
            return
        if c.kind == "op_index":
            self.index_chosen_at_run_time(ev, c)
            return
        if c.kind == "op_mac":
            self.cpu_on_a_mac(ev, c)
            return
        # A 0-dim CPU tensor may meet a CUDA tensor in arithmetic: without the rank it is not proven.
        # (A 0-dim tensor on another accelerator, cuda:0 with cuda:1, raises whatever its rank.)
        # Nor is the CPU tensor an in-place op writes into (`a += b`): its output stays where it is.
        on_cpu = c.cpu.dev is None or c.cpu.dev.is_cpu
        written = isinstance(c.node, ast.AugAssign) and c.cpu_node is c.node.target
        # (`a @ b` takes no 0-dim operand at all: "both arguments to matmul need to be at least 1D")
        matmul = isinstance(getattr(c.node, "op", None), ast.MatMult)
        certain = not (c.cpu.maybe_scalar and on_cpu and not written and isinstance(c.node, _ITERATOR_OPS) and not matmul)
        src = ev.src
        cpu_text, other_text = code_text(src, c.cpu_node), code_text(src, c.other_node)
        made = _made_elsewhere(ev, c) or ""
        if not certain:
            message = (f"`{cpu_text}` is on the CPU{made} but `{other_text}` is on {dev_text(other_dev)}: this may raise "
                       "\"Expected all tensors to be on the same device\" unless it is a 0-dim tensor")
        elif c.kind == "index":
            message = (f"`{cpu_text}` is on the CPU{made} but is indexed with `{other_text}` on {dev_text(other_dev)}: "
                       "indices must be on the CPU or on the indexed tensor's device")
        else:
            where = "the CPU" if c.cpu.dev is None or c.cpu.dev.is_cpu else dev_text(c.cpu.dev)
            message = (f"`{cpu_text}` is on {where}{made} but `{other_text}` is on {dev_text(other_dev)}: this raises "
                       "\"Expected all tensors to be on the same device\"")
        related = [origin_related(c.cpu_node, c.cpu, "created on the CPU here"),
                   origin_related(c.other_node, c.other, f"placed on {dev_text(other_dev)} here")]
        ev.report(self, c.node, message, [r for r in related if r], self.fix(ev, c),
                  severity=None if certain else Severity.HINT)

    def index_chosen_at_run_time(self, ev, c) -> None:
        """c.other is on cuda:<i>, i chosen at run time; c.cpu on a CUDA device of known index (the
        current device, cuda:0, where nothing picks another): the op raises whenever i is not that index."""
        src = ev.src
        known, runtime = code_text(src, c.cpu_node), code_text(src, c.other_node)
        label = c.cpu.dev.label
        where = ("the current CUDA device (cuda:0: nothing calls `torch.cuda.set_device`)" if label == "cuda"
                 else label)
        index = f" `{c.other.dev.expr}`" if c.other.dev.expr and c.other.dev.expr[0] not in "\"'" else ""
        message = (f"`{known}` is on {where} but `{runtime}` is on the CUDA device{index} whose index the program "
                   f"chooses at run time: this raises \"Expected all tensors to be on the same device\" whenever "
                   f"that index is not {label.partition(':')[2] or '0'}")
        related = [origin_related(c.cpu_node, c.cpu, f"placed on {where.partition(' (')[0]} here"),
                   origin_related(c.other_node, c.other, "placed on the run-time CUDA device here")]
        ev.report(self, c.node, message, [r for r in related if r], self.index_fix(ev, c), severity=Severity.WARNING)

    def cpu_on_a_mac(self, ev, c) -> None:
        """c.cpu's device was chosen by a test for CUDA alone (the CPU where there is none), c.other's by
        one that also picks MPS: on a machine with MPS and no CUDA (Apple silicon) the op meets a CPU
        tensor and an mps one, and raises there (a 0-dim CPU tensor is let through, as on CUDA)."""
        if c.cpu.maybe_scalar and isinstance(c.node, _ITERATOR_OPS) and not isinstance(getattr(c.node, "op", None), ast.MatMult):
            return
        src = ev.src
        cpu_text, other_text = code_text(src, c.cpu_node), code_text(src, c.other_node)
        mac_cpu, mac_mps = _named(c.cpu.dev), _named(c.other.dev)
        if mac_cpu == mac_mps:  # (two variables of one name, in two files)
            mac_cpu, mac_mps = "a device chosen by a test for CUDA alone", "one chosen with MPS in mind"
        message = (f"`{cpu_text}` is on {mac_cpu}, the CPU on a machine with MPS and no CUDA (Apple silicon), but "
                   f"`{other_text}` is on {mac_mps}, mps there: this raises \"Expected all tensors to be on the same "
                   "device\" on such a machine; choose both devices the same way")
        related = [origin_related(c.cpu_node, c.cpu, f"placed on {mac_cpu} here (only CUDA is tested for)"),
                   origin_related(c.other_node, c.other, f"placed on {mac_mps} here")]
        ev.report(self, c.node, message, [r for r in related if r], None, severity=Severity.WARNING)

    def index_fix(self, ev, c):
        """`x.cuda()` -> `x.to(device)` (the run-time device), else the usual fix."""
        node = c.cpu_node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda" \
                and not node.args and not node.keywords:
            expr = fix_device_expr(ev, c.other_dev, c.other_node)
            if expr is not None:
                base = code_text(ev.src, node.func.value)
                moved = f"({base}).to({expr})" if needs_parens(node.func.value) else f"{base}.to({expr})"
                return make_fix(f"Move `{base}` with `.to({expr})`", True, replace_node(ev.src, node, moved))
        return self.fix(ev, c)

    def stale_optimizer_state(self, ev, c) -> None:
        """`optimizer.step()` whose loaded state stayed on the load-time device while an in-place move
        (`model.cuda()`) took the parameters elsewhere (c.cpu: where one side is, c.other: the other)."""
        opt = code_text(ev.src, c.node.func.value)
        sure = c.kind == "optimizer_state"
        a, b = dev_text(c.cpu.dev), dev_text(c.other.dev)
        loaded_at = c.cpu.origin if c.cpu.dev.is_cpu else c.other.origin
        # loaded on some paths only (`if resume:`): every run that loads it raises, a proven hazard
        when = "" if sure or not hasattr(loaded_at, "lineno") else f" whenever it loads that state (line {loaded_at.lineno})"
        message = (f"`{opt}` loaded its state with `load_state_dict` where its parameters were then, and a module move "
                   f"took the parameters elsewhere (state on {a}, parameters on {b}): `{opt}.step()` raises{when}"
                   " \"Expected all tensors to be on the same device\"; load the state after the move, or move it")
        related = [origin_related(c.cpu_node, c.cpu, "state loaded here" if c.cpu.dev.is_cpu else "parameters moved here"),
                   origin_related(c.other_node, c.other, "parameters moved here" if c.cpu.dev.is_cpu else "state loaded here")]
        ev.report(self, c.node, message, [r for r in related if r], None, severity=None if sure else Severity.WARNING)

    def needs_cpu(self, ev, c, other_dev) -> None:
        """An argument PyTorch wants on the CPU (c.other, at c.other_node) is on an accelerator."""
        arg_text, call_text = code_text(ev.src, c.other_node), code_text(ev.src, c.node.func)
        message = (f"`{arg_text}` is on {dev_text(other_dev)} but `{call_text}` needs it on the CPU: "
                   "this raises a device error")
        related = [origin_related(c.other_node, c.other, f"placed on {dev_text(other_dev)} here")]
        fix = make_fix(f"Pass `{arg_text}.cpu()`", True, *method_suffix(ev.src, c.other_node, ".cpu()"))
        ev.report(self, c.node, message, [r for r in related if r], fix)

    def cpu_generator(self, ev, c, other_dev) -> None:
        """torch draws a permutation on the default device (an accelerator) with a CPU generator: `random_split`
        (the default generator), a shuffling DataLoader's RandomSampler (a new `torch.Generator()`)."""
        if c.kind == "cpu_generator":
            what = f"`{code_text(ev.src, c.node.func)}` draws its permutation on the default device, {dev_text(other_dev)}, with the CPU default generator"
        else:
            what = (f"the shuffling DataLoader iterated here (`{code_text(ev.src, c.node)}`) draws its permutation on the default "
                    f"device, {dev_text(other_dev)}, with a new CPU generator")
        message = (f"{what}: this raises \"Expected a '{other_dev.label.split(':')[0]}' device type for generator but "
                   f"found 'cpu'\"; pass `generator=torch.Generator(device=...)`")
        at = other_dev.at
        related = [(at, "made the default device here")] if hasattr(at, "lineno") and foreign_home(at) is None else []
        ev.report(self, c.node, message, related, None)

    def fix(self, ev, c):
        expr = fix_device_expr(ev, c.other_dev, c.other_node)
        if expr is None:
            return None
        factory = c.cpu.factory
        if factory is not None and not _names_in_scope_at(ev, expr, factory, c.node):
            factory = None  # made in the caller, where the device's name (`device`, `x.device`) is not bound
        if factory is not None and not any(k.arg == "device" for k in factory.keywords) and accepts_device(ev, factory):
            edit = insert_keyword(ev.src, factory, f"device={expr}")
            if edit is not None:
                return make_fix(f"Create `{code_text(ev.src, factory)}` with `device={expr}`", not c.cpu.random, edit)
        return make_fix(f"Move `{code_text(ev.src, c.cpu_node)}` with `.to({expr})`", True,
                        *method_suffix(ev.src, c.cpu_node, f".to({expr})"))


def _named(dev) -> str:
    """A device as the Mac message names it: its variable where one holds it (`DEVICE`), else its label."""
    return f"`{dev.expr}`" if dev.expr else dev.label
