"""TP103 batch-not-moved: a DataLoader batch reaches the accelerator untransferred."""
import ast

from ..context.host_uses import argument_meets_weights
from ..edits import insert_line_before, make_fix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import already_reported, code_text, dev_text, fix_device_expr, only_assumed_accelerator, placed_device


class BatchNotMoved(Rule):
    code = "TP103"
    name = "batch-not-moved"
    severity = Severity.ERROR
    summary = "A batch from a DataLoader reaches a model or op on the accelerator without a transfer"
    what_it_does = """
        Follows the batches of a `for ... in loader` loop (tensors, `(inputs,
        labels)` tuples, `{name: tensor}` dicts, lists; also through `enumerate`,
        `zip` and `tqdm`) and reports the first place where one, still on the CPU,
        meets a model or tensor on the accelerator.
    """
    why_bad = """
        A `DataLoader` yields CPU tensors (also with `pin_memory=True`: pinning
        speeds the copy up but does not make it).  The first training step raises
        a device mismatch.
    """
    when_it_reports = """
        An error: the batch comes from a loop over a `DataLoader` (CPU tensors, as no `collate_fn`
        moves them) and reaches, untransferred on every path, a model or a tensor known to be on
        the accelerator.  Parts of a batch that the model's `forward` only reads on the host
        (lengths turned into numbers, sizes) are not reported.
    """
    example = """
        model = Net().to(device)
        for inputs, labels in train_loader:
            loss = criterion(model(inputs), labels)   # TP103
    """
    fix_doc = """
        Move the batch at the top of the loop body:
        `inputs, labels = inputs.to(device), labels.to(device)`, or for dict
        batches `batch = {k: v.to(device) for k, v in batch.items()}`.
    """
    fix_safety = "Safe: the batch is copied to the device the model uses; values do not change."
    VALID = [
        valid("""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 2).to(device)
            loader = DataLoader(dataset, batch_size=4)
            for x, y in loader:
                x, y = x.to(device), y.to(device)
                out = model(x)
        """),
        valid("""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 2).to(device)
            for batch in DataLoader(dataset):
                batch = {k: v.to(device) for k, v in batch.items()}
                out = model(**batch)
        """),
        valid("""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 2).to(device)
            loader = DataLoader(dataset, collate_fn=to_device_collate)
            for x in loader:
                out = model(x)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 2).to(device)
            loader = DataLoader(dataset, batch_size=4)
            for inputs, labels in loader:
                out = model(inputs)
            """,
            line=7,
            fixed="""
            import torch
            from torch.utils.data import DataLoader
            device = torch.device("cuda")
            model = torch.nn.Linear(10, 2).to(device)
            loader = DataLoader(dataset, batch_size=4)
            for inputs, labels in loader:
                inputs, labels = inputs.to(device), labels.to(device)
                out = model(inputs)
            """,
        ),
        Invalid(
            """
            import torch
            from torch.utils.data import DataLoader

            def train(model, train_loader, device):
                model.to(device)
                for step, batch in enumerate(train_loader):
                    out = model(**batch)
            """,
            line=7,
            fixed="""
            import torch
            from torch.utils.data import DataLoader

            def train(model, train_loader, device):
                model.to(device)
                for step, batch in enumerate(train_loader):
                    batch = {k: v.to(device) for k, v in batch.items()}
                    out = model(**batch)
            """,
        ),
    ]

    def on_conflict(self, ev, c) -> None:
        batch = c.cpu.batch
        other_dev = placed_device(ev, c.other_dev)
        if batch is None or other_dev.kind != "accel" or only_assumed_accelerator(ev, other_dev, c.node):
            return
        if c.kind == "module_input" and not argument_meets_weights(c.node, c.cpu_node, c.other, ev):
            return  # `forward` reads this part of the batch only on the host (lengths, sizes)
        src = ev.src
        loop = batch.loop
        if loop.target is not None and _reported_for_loop(ev, self.code, src.span(loop.target)):
            return  # one finding per loop: its fix moves the whole batch
        where = code_text(src, c.node.func) if c.kind == "module_input" else code_text(src, c.other_node)
        advice = "move the batch at the top of the loop" if loop.target is not None and loop.__class__ is not ast.comprehension \
            else "move the batch where it is taken"
        message = (f"batch `{code_text(src, c.cpu_node)}` from `{code_text(src, loop.iter)}` is still on the CPU "
                   f"but `{where}` is on {dev_text(other_dev)}: {advice}")
        ev.report(self, c.node, message, [(loop.target, "batch produced on the CPU here")], self.fix(ev, c, loop))

    def fix(self, ev, c, loop):
        expr = fix_device_expr(ev, c.other_dev, module_node=c.node.func if c.kind == "module_input" else None)
        if expr is None or loop.__class__ is ast.comprehension or not loop.body:
            return None  # (a comprehension's batch, `[b for b in loader][0]`: no top of a loop to move it at)
        target = loop.target
        if isinstance(loop.iter, ast.Call) and isinstance(loop.iter.func, ast.Name) and loop.iter.func.id == "enumerate" \
                and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            target = target.elts[1]
        names = [e.id for e in target.elts] if isinstance(target, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in target.elts) else None
        if names is None and isinstance(target, ast.Name):
            names = [target.id]
        if not names:
            return None
        if len(names) > 1:
            code = f"{', '.join(names)} = {', '.join(f'{n}.to({expr})' for n in names)}"
        else:
            code = f"{names[0]} = {_single_batch_transfer(loop, names[0], expr)}"
        edit = insert_line_before(ev.src, loop.body[0], code)
        if edit is None:
            return None  # body on the `for` line
        return make_fix("Move the batch to the device at the top of the loop", True, edit)


def _reported_for_loop(ev, code: str, target_span) -> bool:
    return already_reported(ev, lambda f: f.code == code and f.related and f.related[0].span == target_span)


def _single_batch_transfer(loop, name: str, expr: str) -> str:
    """`batch.to(device)`, or a dict/list comprehension for structured batches."""
    kind = "tensor"
    for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name \
                and isinstance(node.slice, ast.Constant):
            kind = "dict" if isinstance(node.slice.value, str) else "list"
            break
        if isinstance(node, ast.keyword) and node.arg is None and isinstance(node.value, ast.Name) and node.value.id == name:
            kind = "dict"
            break
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name \
                and node.attr in ("items", "keys", "values"):
            kind = "dict"
            break
    if kind == "dict":
        return f"{{k: v.to({expr}) for k, v in {name}.items()}}"
    if kind == "list":
        return f"[b.to({expr}) for b in {name}]"
    return f"{name}.to({expr})"
