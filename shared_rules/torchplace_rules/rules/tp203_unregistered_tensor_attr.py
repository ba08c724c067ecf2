"""TP203 unregistered-tensor-attr: a plain tensor (or list of modules) on an nn.Module."""
from ..edits import make_fix, replace_node, statement_line_start
from ..model import Severity
from ..flow.cross_file import foreign_home
from ..rule_base import Invalid, Rule, valid
from ..flow.values import QualV


class UnregisteredTensorAttr(Rule):
    code = "TP203"
    name = "unregistered-tensor-attr"
    severity = Severity.WARNING
    summary = "A module keeps a tensor (or a list of modules) in a plain attribute that `.to()` will not move"
    what_it_does = """
        In `nn.Module` subclasses, finds `self.t = torch.tensor(...)`-style plain
        tensor attributes created on the CPU in `__init__` and used in another
        method, and plain Python lists of submodules.
    """
    why_bad = """
        `model.to(device)` moves parameters, buffers and registered submodules -
        not plain tensor attributes.  After the move, `self.t` is still on the CPU
        and `forward` fails on a GPU.  Modules in a plain list are invisible to
        `.to()`, `.parameters()` (so the optimizer never trains them) and
        `state_dict()`.
    """
    example = """
        class Scale(nn.Module):
            def __init__(self):
                super().__init__()
                self.weights = torch.tensor([0.5, 2.0])      # TP203
            def forward(self, x):
                return x * self.weights
    """
    fix_doc = """
        Register a buffer: `self.register_buffer("weights", torch.tensor([0.5, 2.0]), persistent=False)`;
        hold submodules in `nn.ModuleList([...])`.
    """
    fix_safety = """
        The buffer fix is safe: `persistent=False` keeps `state_dict()` keys unchanged.
        The `nn.ModuleList` fix is unsafe: it adds the submodules' parameters to
        `parameters()` and `state_dict()`, which changes training and checkpoints.
    """
    VALID = [
        valid("""
            import torch
            import torch.nn as nn

            class Scale(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.register_buffer("weights", torch.tensor([0.5, 2.0]))
                    self.blocks = nn.ModuleList([nn.Linear(2, 2) for _ in range(3)])
                    self.cache = torch.zeros(2)

                def forward(self, x):
                    for block in self.blocks:
                        x = block(x)
                    return x * self.weights * self.cache.to(x.device)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            import torch.nn as nn

            class Scale(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.weights = torch.tensor([0.5, 2.0])

                def forward(self, x):
                    return x * self.weights
            """,
            line=7,
            fixed="""
            import torch
            import torch.nn as nn

            class Scale(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.register_buffer("weights", torch.tensor([0.5, 2.0]), persistent=False)

                def forward(self, x):
                    return x * self.weights
            """,
        ),
        Invalid(
            """
            import torch.nn as nn

            class Stack(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.layers = [nn.Linear(8, 8) for _ in range(4)]

                def forward(self, x):
                    for layer in self.layers:
                        x = layer(x)
                    return x
            """,
            line=6,
            fixed="""
            import torch.nn as nn

            class Stack(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.layers = nn.ModuleList([nn.Linear(8, 8) for _ in range(4)])

                def forward(self, x):
                    for layer in self.layers:
                        x = layer(x)
                    return x
            """,
        ),
    ]

    def on_class(self, ev, info) -> None:
        if not info.is_module or info.overrides_apply:
            return
        for name, assign in info.plain_tensors.items():
            uses = info.plain_attr_uses(name)
            if not uses:
                continue
            message = (f"`self.{name}` is a plain tensor attribute: `model.to(device)` will not move it, "
                       f"so `{info.name}` fails on a GPU; register it as a buffer")
            home = foreign_home(assign)
            if home is not None:  # set by a base class in another file: say so where it is used here
                message = (f"`self.{name}` is a plain tensor attribute set by a base class in `{home.path.name}` "
                           f"(line {assign.lineno}): `model.to(device)` will not move it, so `{info.name}` fails "
                           "on a GPU; register it as a buffer there")
                ev.report(self, uses[0], message)
                continue
            fix = None
            if statement_line_start(ev.src, assign) is not None:
                value = ev.src.segment(assign.value)
                fix = make_fix(f"Register `{name}` as a non-persistent buffer", True,
                               replace_node(ev.src, assign, f'self.register_buffer("{name}", {value}, persistent=False)'))
            ev.report(self, assign.targets[0], message, [(uses[0], "used here")], fix)
        for name, assign in info.plain_module_lists.items():
            uses = info.plain_attr_uses(name)
            if not uses or info.registers_modules:
                continue
            message = (f"`self.{name}` holds modules in a plain list: `.to()`, `.parameters()` and `state_dict()` "
                       "do not see them; use `nn.ModuleList`")
            nn = _nn_name(ev)
            fix = make_fix("Wrap the list in `nn.ModuleList`", False,
                           replace_node(ev.src, assign.value, f"{nn}.ModuleList({ev.src.segment(assign.value)})")) if nn else None
            ev.report(self, assign.targets[0], message, [(uses[0], "used here")], fix)


def _nn_name(ev) -> str | None:
    for name, value in ev.module_items():
        if isinstance(value, QualV) and value.name == "torch.nn":
            return name
    for name, value in ev.module_items():
        if isinstance(value, QualV) and value.name == "torch":
            return f"{name}.nn"
    return None
