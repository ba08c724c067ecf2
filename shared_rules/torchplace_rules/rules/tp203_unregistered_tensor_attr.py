"""TP203 unregistered-tensor-attr: a plain tensor (or list of modules) on an nn.Module."""
import ast

from ..context import file_context
from ..context.called_functions import CalledFunctions
from ..context.host_uses import first_device_use
from ..context.scopes import ancestors, own_nodes, parent_map
from ..edits import make_fix, replace_node, statement_line_start
from ..flow.devices import ACCEL_KIND
from ..model import Severity
from ..syntax_nodes import calls_and_assignments
from ..flow.contexts import parameter_names
from ..flow.cross_file import foreign_home
from ..rule_base import Invalid, Rule, valid
from ..flow.values import QualV
from ..rule_support import from_method_argument


class UnregisteredTensorAttr(Rule):
    code = "TP203"
    name = "unregistered-tensor-attr"
    severity = Severity.WARNING
    summary = "A module keeps a tensor (or a list of modules) in a plain attribute that `.to()` will not move"
    what_it_does = """
        In `nn.Module` subclasses, finds `self.t = torch.tensor(...)`-style plain
        tensor attributes created on the CPU in `__init__` (or in a method it calls,
        or from a CPU tensor a caller passes the constructor) and used in another
        method, plain lists, tuples and dicts of CPU tensors (reported where they
        meet the module's tensors), and plain Python lists of submodules.  An
        attribute `__init__` makes an `nn.Parameter` only under a flag that defaults
        to False (`if learn_logvar: self.logvar = nn.Parameter(self.logvar)`) stays
        plain in a default construction.
    """
    why_bad = """
        `model.to(device)` moves parameters, buffers and registered submodules -
        not plain tensor attributes, nor the tensors in a plain list or dict (even
        when the same tensors were also registered as buffers: the buffer is a new
        tensor after the move).  After the move, `self.t` is still on the CPU
        and `forward` fails on a GPU.  Modules in a plain list are invisible to
        `.to()`, `.parameters()` (so the optimizer never trains them) and
        `state_dict()`.
    """
    when_it_reports = """
        A warning: a proven hazard.  The attribute, as `__init__` made it, meets the module's own
        tensors where the analysis sees the op (the module's inputs, parameters or buffers), in the
        module's methods or where they hand it on (another module, a helper).  Where only the text of
        `forward` puts it next to device work, in an op whose devices the analysis does not know, it is
        a hint that says "may".  Host reads (`if self.t[i]:`, `len(self.t)`,
        `self.t.shape`, `.item()`), moves where it is used (`self.t.to(x.device)`, also in a method
        of the class or a function of the file it is handed to) and uses after the method re-binds
        it are not evidence; nor is an attribute another method re-binds to what its caller hands (a
        setter, `def set_target(self, t): self.t = t`: `__init__`'s value may be a placeholder, or a method that
        replaces it with a buffer, `del self.t; self.register_buffer("t", ...)`), nor is an attribute `__init__` moves to a device
        its caller gives (`self.t = self.t.to(self.device)`, `device` a constructor parameter); an
        attribute that may be 0-dim is judged only where the op is known, and one that is on the CPU only for the instances some calls make
        (`Block(x_example)` with a CPU tensor) only where the analysis sees it meet them in an instance that
        may leave the CPU (one built and never moved meets CPU inputs only).  The
        module must be able to reach an accelerator (as for TP202): a device in the file, or
        library API.  The buffer fix is offered only then.  A class that overrides `_apply`, `to` or
        `cuda` may move its attributes itself: only the attributes an override of `to`/`cuda` that does
        nothing but `self.x = self.x.to(device)` and `super().to(device)` leaves are judged.
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
        valid("""
            import torch
            import torch.nn as nn

            class Mix(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.w = nn.Parameter(torch.ones(3))
                    self.params = [self.w]                          # a Parameter moves with .to()
                    self.table = {"a": torch.ones(3)}

                def forward(self, x):
                    return x * self.params[0] + self.table["a"].to(x.device)
        """),
        valid("""
            import torch
            import torch.nn as nn

            class Lookup(nn.Module):
                def __init__(self, device=None):
                    super().__init__()
                    self.device = device
                    self.table = torch.full((5,), -1, dtype=torch.long)
                    self.table = self.table.to(self.device)      # placed where the caller's device= says

                def forward(self, idx):
                    return self.table[idx]
        """),
        valid("""
            import torch
            import torch.nn as nn

            def _blur(x, window):
                window = window.to(x.device, dtype=x.dtype)  # moved where it is used
                return nn.functional.conv2d(x, window)

            class Blur(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.window = torch.ones(1, 1, 3, 3)

                def forward(self, x):
                    return _blur(x, self.window)
        """),
        valid("""
            import torch
            import torch.nn as nn

            class Inspiration(nn.Module):
                def __init__(self, c):
                    super().__init__()
                    self.weight = nn.Parameter(torch.rand(1, c, c))
                    self.G = torch.Tensor(1, c, c)              # a placeholder: set_target replaces it

                def set_target(self, target):
                    self.G = target

                def forward(self, x):
                    return torch.bmm(self.weight.expand_as(self.G), self.G)
        """),
    ]
    INVALID = [
        Invalid(  # a function of the file that uses the attribute where it is
            """
            import torch
            import torch.nn as nn

            def _blur(x, window):
                return nn.functional.conv2d(x, window)

            class Blur(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.window = torch.ones(1, 1, 3, 3)

                def forward(self, x):
                    return _blur(x, self.window)
            """,
            line=10,
        ),
        Invalid(  # pytorch/pytorch#43815: a dict of tensors, also registered as buffers, is not moved
            """
            import torch
            import torch.nn as nn

            class Foo(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.data = {"a": torch.ones(1), "b": torch.ones(3)}
                    for name in self.data:
                        self.register_buffer("data_" + name, self.data[name])

                def forward(self, x):
                    return x * self.data["b"]
            """,
            line=12,
        ),
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
        if not info.is_module or not _may_leave_attributes(info):
            return
        if info.plain_tensors:
            ev.deferred.append((self.code, ("class", info)))
        if not info.overrides_apply:
            self.report_lists(ev, info)

    def on_init_analysed(self, ev, info) -> None:
        """CPU tensors `__init__` keeps however it makes them (a helper, a function, NumPy): judged
        with the same evidence as the ones the class scan sees."""
        if not _may_leave_attributes(info):
            return
        if info.plain_values:
            ev.deferred.append((self.code, ("values", info)))
        if not info.overrides_apply:
            self.report_lists(ev, info)

    def on_init_context(self, ev, info, attrs) -> None:
        """CPU tensors `__init__` keeps for one call (`Block(x_example)` with a CPU tensor: the states
        it makes with `device=x_example.device`): judged like those every instance holds."""
        if _may_leave_attributes(info):
            ev.deferred.append((self.code, ("context", info, attrs)))

    def report_lists(self, ev, info) -> None:
        for name, assign in info.plain_module_lists.items():
            uses = info.plain_attr_uses(name)
            if not uses or info.registers_modules or _items_moved_by_hand(info, name):
                continue
            message = (f"`self.{name}` holds modules in a plain list: `.to()`, `.parameters()` and `state_dict()` "
                       "do not see them; use `nn.ModuleList`")
            nn = _nn_name(ev)
            fix = make_fix("Wrap the list in `nn.ModuleList`", False,
                           replace_node(ev.src, assign.value, f"{nn}.ModuleList({ev.src.segment(assign.value)})")) if nn else None
            ev.report(self, assign.targets[0], message, [(uses[0], "used here")], fix)

    def on_conflict(self, ev, c) -> None:
        """The evidence: the attribute, as `__init__` made it, meets the module's own tensors."""
        name = c.cpu.plain_attr
        if name is not None and c.other_dev.kind in (ACCEL_KIND, "self"):
            # it met the module's (or an accelerator's) tensors where it was handed on, to another module
            # or a helper: the attribute `__init__` kept at `origin` is seen to fail
            ev.deferred.append((self.code, ("failed", id(c.cpu.origin))))
        if name is None or c.other_dev.kind != "self" or ev.frame.cls is None or ev.frame.func is None:
            return
        if from_method_argument(c, ev.frame.func, in_call=bool(ev.call_sites)):
            return
        made = ev.frame.cls.plain_tensors.get(name)
        if made is None and name not in (ev.frame.cls.plain_values or ()) and _instance_on_the_cpu(ev):
            # CPU only for the instances some calls make (`Proj(cpu_lstm)` keeps its weights), met here in such
            # an instance that stays on the CPU: its inputs are CPU tensors too, nothing fails
            return
        if c.cpu.maybe_scalar and made is not None and _may_be_zero_dim(made.value):
            return  # `torch.tensor(cfg.weight)` may be 0-dim, which many ops accept next to CUDA tensors
        if c.cpu.maybe_scalar and made is None and name not in ev.frame.cls.plain_containers \
                and isinstance(c.node, _ARITHMETIC):
            return  # a tensor of unknown rank kept from what `__init__` computed: arithmetic accepts a 0-dim one
        ev.deferred.append((self.code, ("use", ev.frame.cls.node, name, c.node)))

    def on_finish(self, ev) -> None:
        entries = [payload for code, payload in ev.deferred if code == self.code]
        uses: dict = {}
        failed = set()  # id(the value `__init__` kept) of attributes seen to meet an accelerator's tensors
        for entry in entries:
            if entry[0] == "use":
                uses.setdefault((id(entry[1]), entry[2]), entry[3])
            elif entry[0] == "failed":
                failed.add(entry[1])
        judged = []  # (class, {name: assignment}) in the order they were seen, each once
        in_contexts: dict = {}  # id(class) -> {name: assignment}: what its `__init__` kept for the calls seen
        for entry in entries:
            if entry[0] in ("class", "values"):
                info = entry[1]
                attrs = info.plain_tensors if entry[0] == "class" else info.plain_values
            elif entry[0] == "context":
                info = entry[1]
                attrs = in_contexts.get(id(info))
                if attrs is None:
                    attrs = in_contexts[id(info)] = {}
                for name, assign in entry[2].items():
                    if name not in info.plain_containers:
                        attrs.setdefault(name, assign)
            else:
                continue
            if not any(seen is info and kept is attrs for seen, kept in judged):
                judged.append((info, attrs))
        ctx = owner_moves = None
        for info, attrs in judged:
            found, functions = [], None
            for name, assign in attrs.items():
                if not info.unmoved(name):
                    continue  # an override of `to()` moves it
                if owner_moves is None:
                    owner_moves = _moved_by_owners(ev.tree)
                if name in owner_moves:
                    continue  # an owner's `_apply` moves it: `m.stride = fn(m.stride)`
                if _placeholder_of_a_registered_name(info, name):
                    continue  # `else: self.pos = torch.tensor([])`, read by `forward` only under a test
                if _set_from_callers(info, name):
                    continue  # a placeholder a setter replaces with what the caller hands (`setTarget(t)`)
                if _registered_by_a_method(info, name):
                    continue  # a placeholder another method replaces with a buffer (`del self.t; register_buffer("t", ..)`)
                use = uses.get((id(info.node), name))
                # the flow saw it meet the module's tensors in an op it knows, or fail where it was handed on
                seen = use is not None or id(assign) in failed or id(assign.value) in failed
                if use is None and name not in info.plain_containers and attrs is not in_contexts.get(id(info)):
                    # (a container, or a tensor made on the CPU for some calls only: where the flow saw it)
                    functions = functions or CalledFunctions.of_file(ev, info.home)  # (one per class: imports resolved once)
                    use = _use_in_forward(info, name, assign, functions)
                if use is not None:
                    found.append((name, assign, use, seen))
            if not found:
                continue
            ctx = ctx or file_context(ev)
            if not ctx.may_reach_accelerator(info.node, ev.targets_accelerator, ev):
                continue  # never put on a GPU: the attribute never meets one
            for name, assign, use, seen in found:
                self.report_attribute(ev, info, name, assign, use, seen)

    def report_attribute(self, ev, info, name, assign, use, seen: bool) -> None:
        """`seen`: the flow saw the attribute meet the module's tensors (a warning); else only the text of
        `forward` puts it next to them, in an op whose devices the analysis does not know (a hint, "may":
        an index, a 0-dim value, a value some other code moves or replaces are all fine there)."""
        if name in info.plain_containers:  # reported where it fails: a list can't be one buffer
            message = (f"`self.{name}` keeps CPU tensors in a plain {_container_kind(assign.value)}: `model.to(device)` "
                       f"does not move them, so `{info.name}` fails here on a GPU; register each as a buffer "
                       "(and read it from there) or move them where they are used")
            related = [(assign.targets[0], "set here")] if foreign_home(assign) is None else []
            ev.report(self, use, message, related)
            return
        fails = "fails" if seen else "may fail where `forward` uses it"
        severity = None if seen else Severity.HINT
        message = (f"`self.{name}` is a plain tensor attribute: `model.to(device)` will not move it, "
                   f"so `{info.name}` {fails} on a GPU; register it as a buffer")
        home = foreign_home(assign)
        if home is not None:  # set by a base class in another file: say so where it is used here
            message = (f"`self.{name}` is a plain tensor attribute set by a base class in `{home.path.name}` "
                       f"(line {assign.lineno}): `model.to(device)` will not move it, so `{info.name}` {fails} "
                       "on a GPU; register it as a buffer there")
            ev.report(self, use, message, severity=severity)
            return
        fix = None
        if statement_line_start(ev.src, assign) is not None:
            value = ev.src.segment(assign.value)
            fix = make_fix(f"Register `{name}` as a non-persistent buffer", True,
                           replace_node(ev.src, assign, f'self.register_buffer("{name}", {value}, persistent=False)'))
        ev.report(self, assign.targets[0], message, [(use, "used here")], fix, severity=severity)


_ARITHMETIC = (ast.BinOp, ast.AugAssign, ast.Compare, ast.UnaryOp)  # where a 0-dim CPU tensor meets any device


def _items_moved_by_hand(info, name: str) -> bool:
    """Does a method other than `__init__` put a moved module back into the list (`self.enc[0] =
    self.enc[0].to(x.device)`)?  Then the list hides its modules on purpose (from DDP, from the
    optimizer, from the checkpoint) and places them itself where they are used."""
    for method_name, method in info.methods.items():
        if method_name == "__init__":
            continue
        for node in ast.walk(method):
            if node.__class__ is ast.Assign and any(
                    t.__class__ is ast.Subscript and t.value.__class__ is ast.Attribute and t.value.attr == name
                    and t.value.value.__class__ is ast.Name and t.value.value.id == "self" for t in node.targets) \
                    and any(n.__class__ is ast.Call and n.func.__class__ is ast.Attribute and n.func.attr in ("to", "cuda")
                            for n in ast.walk(node.value)):
                return True
    return False


def _may_leave_attributes(info) -> bool:
    """No override of `_apply`/`to`/`cuda`, or overrides that move only some attributes themselves."""
    return not info.overrides_apply or info.apply_moves is not None


def _set_from_callers(info, name: str) -> bool:
    """Does a method other than `__init__` re-bind `self.<name>` to one of its parameters (`def
    setTarget(self, target): self.G = target`)?  Then where the attribute is when `forward` reads
    it is where the caller's tensor is: what `__init__` made may be a placeholder never used.  So
    too a method other than `forward` that moves it itself (`def set_device(self, gpu): self.table =
    self.table.to(self.device)`): the class has its own way of placing it, which its users call."""
    for method_name, method in info.methods.items():
        if method_name == "__init__":
            continue
        params = parameter_names(method)
        for node in calls_and_assignments(method):
            if node.__class__ is ast.Assign and any(
                    t.__class__ is ast.Attribute and t.attr == name and t.value.__class__ is ast.Name and t.value.id == "self"
                    for t in node.targets):
                if method_name != "forward" and _moved_copy_of(node.value, name):
                    return True
                root = node.value
                while root.__class__ in (ast.Attribute, ast.Call, ast.Subscript):
                    root = root.func if root.__class__ is ast.Call else root.value
                if root.__class__ is ast.Name and root.id in params and root.id != "self":
                    return True
    return False


def _instance_on_the_cpu(ev) -> bool:
    """Does the flow run this method for an instance known to be on the CPU (built and never moved)?"""
    dev = ev.frame.self_dev
    return dev is not None and dev.is_cpu


def _registered_by_a_method(info, name: str) -> bool:
    """Does a method other than `__init__` register `self.<name>` as a buffer or parameter
    (`del self.table; self.register_buffer("table", t)`, a TorchScript-friendly placeholder that a setup
    method replaces)?  Then where `forward` reads it, it may be that buffer, which `.to()` moves."""
    for method_name, method in info.methods.items():
        if method_name == "__init__":
            continue
        for node in calls_and_assignments(method):
            func = node.func if node.__class__ is ast.Call else None
            if func.__class__ is ast.Attribute and func.attr in ("register_buffer", "register_parameter") \
                    and func.value.__class__ is ast.Name and func.value.id == "self" and node.args \
                    and node.args[0].__class__ is ast.Constant and node.args[0].value == name:
                return True
    return False


def _placeholder_of_a_registered_name(info, name: str) -> bool:
    """`__init__` registers `self.<name>` (a parameter, buffer or submodule) on some path and keeps a plain
    tensor under that name on another (`if sep: self.pos = nn.Parameter(...) else: self.pos =
    torch.tensor([])  # for torchscriptability`), and `forward` reads it only inside `if` blocks: the
    plain tensor is the placeholder of the configurations whose `forward` does not read it.  (Read
    unconditionally, the plain path is a real unregistered tensor and stays reported.)"""
    if name not in info.params and name not in info.buffers and name not in info.submodules:
        return False
    forward = info.methods.get("forward")
    if forward is None:
        return False
    parents, reads = parent_map(forward), 0
    for node in own_nodes(forward.body):
        if node.__class__ is ast.Attribute and node.attr == name and node.value.__class__ is ast.Name \
                and node.value.id == "self" and node.ctx.__class__ is ast.Load:
            reads += 1
            if not any(a.__class__ is ast.If and node is not a.test and not _inside(a.test, node, parents)
                       for a in ancestors(parents, node)):
                return False
    return reads > 0


def _inside(root: ast.AST, node: ast.AST, parents: dict) -> bool:
    return any(a is root for a in ancestors(parents, node))


def _moved_by_owners(tree: ast.AST) -> frozenset:
    """Attribute names an `_apply(self, fn)` override of a class of the file applies `fn` to on another
    object (`m = self.model[-1]; m.stride = fn(m.stride)`: YOLO models move their detection head's plain
    tensors so): `model.to(device)` on the owner moves that attribute of the submodule it holds, whatever
    its class, so a plain tensor of that name is not known to stay on the CPU."""
    names = set()
    for cls in tree.body:
        if cls.__class__ is not ast.ClassDef:
            continue
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef) or method.name != "_apply" or len(method.args.args) < 2:
                continue
            fn = method.args.args[1].arg
            for node in ast.walk(method):
                if node.__class__ is not ast.Assign or len(node.targets) != 1:
                    continue
                target, value = node.targets[0], node.value
                if target.__class__ is ast.Attribute and not (target.value.__class__ is ast.Name and target.value.id == "self") \
                        and value.__class__ is ast.Call and value.func.__class__ is ast.Name and value.func.id == fn \
                        and value.args and value.args[0].__class__ is ast.Attribute and value.args[0].attr == target.attr:
                    names.add(target.attr)
    return frozenset(names)


def _moved_copy_of(value: ast.AST, name: str) -> bool:
    """`self.<name>.to(...)` / `self.<name>.cuda(...)`."""
    if value.__class__ is not ast.Call or value.func.__class__ is not ast.Attribute or value.func.attr not in ("to", "cuda"):
        return False
    recv = value.func.value
    return recv.__class__ is ast.Attribute and recv.attr == name and recv.value.__class__ is ast.Name \
        and recv.value.id == "self"


def _container_kind(value: ast.AST) -> str:
    return {ast.List: "list", ast.Tuple: "tuple", ast.Dict: "dict"}.get(type(value), "container")


def _nn_name(ev) -> str | None:
    for name, value in ev.module_items():
        if isinstance(value, QualV) and value.name == "torch.nn":
            return name
    for name, value in ev.module_items():
        if isinstance(value, QualV) and value.name == "torch":
            return f"{name}.nn"
    return None


def _use_in_forward(info, name: str, assign, functions: dict | None):
    """A use of `self.<name>` in `forward` that may meet the inputs or weights (not a host read, not
    a move, not after `forward` re-binds it): evidence where the flow has no model of the op.  A
    possibly 0-dim attribute (`torch.tensor(x)`) is left to the flow: 0-dim CPU tensors may meet
    CUDA tensors in many ops."""
    forward = info.methods.get("forward")
    if forward is None or _may_be_zero_dim(assign.value):
        return None
    use = first_device_use(forward, info.methods, attr=name, functions=functions)
    if use is not None and _one_dim(assign.value) and _only_single_items_read(forward, name):
        return None  # `self.schedule[epoch]`: one item of a 1-D tensor is 0-dim, which meets CUDA tensors in arithmetic
    return use


def _one_dim(value) -> bool:
    """`torch.linspace(...)`, `torch.arange(...)`, `torch.logspace(...)`, `torch.tensor([1.0, 2.0])`: 1-D."""
    if value.__class__ is not ast.Call:
        return False
    func = value.func
    name = func.attr if func.__class__ is ast.Attribute else getattr(func, "id", "")
    if name in ("linspace", "logspace", "arange"):
        return True
    first = value.args[0] if value.args else None
    return name in ("tensor", "as_tensor") and first.__class__ is ast.List \
        and not any(e.__class__ in (ast.List, ast.Tuple, ast.ListComp, ast.Starred) for e in first.elts)


def _only_single_items_read(method, name: str) -> bool:
    """Is every read of `self.<name>` in `method` one item picked by a Python int (`self.t[epoch]` with
    `epoch: int`, `self.t[0]`, `self.t[i - 1]`), never by a slice, a tuple, a list, None or a tensor?"""
    ints = {a.arg for a in method.args.args + method.args.kwonlyargs if _int_annotation(a.annotation)}
    parents = parent_map(method)
    for node in own_nodes(method.body):
        if node.__class__ is ast.Attribute and node.attr == name and node.value.__class__ is ast.Name \
                and node.value.id == "self" and node.ctx.__class__ is ast.Load:
            parent = parents.get(id(node))
            if parent.__class__ is not ast.Subscript or parent.value is not node or not _int_index(parent.slice, ints):
                return False
    return True


def _int_annotation(annotation) -> bool:
    """`int`, `Optional[int]`, `int | None`: an int (where it is not None)."""
    if annotation is None:
        return False
    names = {n.id for n in ast.walk(annotation) if n.__class__ is ast.Name}
    return "int" in names and names <= {"int", "Optional", "None"}


def _int_index(node, ints: set) -> bool:
    if node.__class__ is ast.Constant:
        return type(node.value) is int
    if node.__class__ is ast.Name:
        return node.id in ints
    if node.__class__ is ast.UnaryOp:
        return _int_index(node.operand, ints)
    return node.__class__ is ast.BinOp and _int_index(node.left, ints) and _int_index(node.right, ints)


def _may_be_zero_dim(value) -> bool:
    if not isinstance(value, ast.Call):
        return True
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name in ("tensor", "as_tensor", "scalar_tensor"):
        first = value.args[0] if value.args else None
        return not isinstance(first, (ast.List, ast.Tuple, ast.ListComp))
    if name in ("zeros", "ones", "empty", "full", "rand", "randn"):
        first = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "size"), None)
        return first is None or (isinstance(first, (ast.Tuple, ast.List)) and not first.elts)
    return name in ("sum", "mean", "max", "min", "norm", "item")
