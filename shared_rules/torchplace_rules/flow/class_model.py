"""What a class defined in the file is: an nn.Module, and what its __init__ registers."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Optional

from . import operators
from .torch_api import CONTAINERS, MODULE_BASES, PARAMETER_CLASSES, TORCH_FACTORIES, is_torch_layer, layer_has_params
from .devices import CPU, SELF_DEV
from .values import UNKNOWN, ClassV, DeviceV, ModuleV, QualV, TensorV, Value

MOVE_METHODS = {"to", "cuda", "cpu", "type_as", "type"}
_MOVING_ATTRS = frozenset(MOVE_METHODS | {"device", "shape", "dtype"})  # `self.x.to(...)`: not a use


@dataclass(eq=False)  # compared by identity: kept between versions by analysis_memo
class ClassInfo:
    node: ast.ClassDef
    name: str
    is_module: bool
    methods: dict = field(default_factory=dict)
    method_order: list = field(default_factory=list)
    params: set = field(default_factory=set)
    buffers: set = field(default_factory=set)
    submodules: dict = field(default_factory=dict)  # name -> has_params
    plain_tensors: dict = field(default_factory=dict)  # name -> ast.Assign in __init__
    plain_module_lists: dict = field(default_factory=dict)  # name -> ast.Assign
    overrides_apply: bool = False
    registers_modules: bool = False  # __init__ calls self.add_module/register_module
    unresolved_base: bool = False  # a base class we cannot see into (maybe an nn.Module)
    torch_layers: set = field(default_factory=set)  # submodules that are torch.nn layers
    submodule_classes: dict = field(default_factory=dict)  # name -> ClassInfo of classes defined here
    moves_self: bool = False  # __init__ calls self.to()/self.cuda()
    init_values: dict = field(default_factory=dict)

    @property
    def has_params(self) -> bool:
        return bool(self.params or self.buffers or any(self.submodules.values()))

    def attr_value(self, name: str, at: ast.AST) -> Value:
        """The value of `self.<name>` inside a method."""
        if name in self.params:
            return TensorV(SELF_DEV, origin=at, grad=True)
        if name in self.buffers:
            return TensorV(SELF_DEV, origin=at)
        if name in self.submodules:
            return ModuleV(SELF_DEV, self.submodules[name], None, self.submodule_classes.get(name),
                           torch_layer=name in self.torch_layers)
        if name in self.plain_tensors and self.is_module:
            assign = self.plain_tensors[name]
            return TensorV(CPU, origin=assign, plain_attr=name, rank=_rank_hint(assign.value))
        if self.is_module and name == "device":
            return DeviceV(SELF_DEV)
        value = self.init_values.get("self." + name, UNKNOWN)
        if self.unresolved_base and isinstance(value, (ModuleV, TensorV)) and value.dev is not None and value.dev.is_cpu:
            return UNKNOWN  # this object may itself be a module: what it holds moves with it
        if self.is_module:
            # Whatever else the module holds was registered with it or is unknown:
            # submodules follow the module's device; other tensors are not known.
            if isinstance(value, ModuleV):
                return ModuleV(SELF_DEV, value.has_params, None, value.cls)
            if isinstance(value, TensorV):
                return TensorV(None, origin=at)
            if name in self.plain_module_lists or not isinstance(value, (DeviceV,)):
                return UNKNOWN  # plain containers are TP203's business, reported at their cause
        return value

    def plain_attr_uses(self, name: str) -> list[ast.Attribute]:
        """Loads of `self.<name>` outside __init__ that are not being moved."""
        uses = []
        for method_name, method in self.methods.items():
            if method_name == "__init__":
                continue
            for parent in ast.walk(method):  # children in the order ast.walk visits them
                moving = isinstance(parent, ast.Attribute) and parent.attr in _MOVING_ATTRS
                for node in ast.iter_child_nodes(parent):
                    if (not moving and isinstance(node, ast.Attribute) and node.attr == name
                            and isinstance(node.value, ast.Name) and node.value.id == "self"
                            and isinstance(node.ctx, ast.Load)):
                        uses.append(node)
        return uses


def scan_class(stmt: ast.ClassDef, analyzer) -> ClassInfo:
    is_module = False
    bases = [analyzer.eval(b) for b in stmt.bases]
    for value in bases:
        if isinstance(value, QualV) and (value.name in MODULE_BASES or is_torch_layer(value.name)):
            is_module = True
        elif isinstance(value, QualV) and getattr(analyzer, "project", None) is not None \
                and analyzer.project.third_party.is_module_class(value.name):
            is_module = True  # an nn.Module subclass from an installed package (asked of jedi)
        elif isinstance(value, ClassV) and value.info.is_module:
            is_module = True
    info = ClassInfo(stmt, stmt.name, is_module)
    # A base we cannot resolve may be an nn.Module (PreTrainedModel, ModelMixin, ...), also
    # through a base defined here that derives from one.
    info.unresolved_base = not is_module and any(
        v.info.unresolved_base if isinstance(v, ClassV)
        else not (isinstance(v, QualV) and v.name in ("object", "builtins.object"))
        for v in bases)
    for item in stmt.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            info.methods[item.name] = item
            if item.name in ("_apply", "to", "cuda"):
                info.overrides_apply = True
    info.method_order = sorted(info.methods, key=lambda n: (n != "__init__", info.methods[n].lineno))
    for value in bases:
        if isinstance(value, ClassV):  # inherit what the base registers
            b = value.info
            info.params |= b.params
            info.buffers |= b.buffers
            info.submodules.update(b.submodules)
            info.plain_tensors.update(b.plain_tensors)
            info.overrides_apply |= b.overrides_apply
    init = info.methods.get("__init__")
    if init is not None and is_module:
        _scan_init(init, info, analyzer)
    return info


def _scan_init(init, info: ClassInfo, analyzer) -> None:
    empty_lists = {}  # self.X = [] (filled with .append later)
    relevant = []  # method calls and assignments: all that registers anything
    for node in ast.walk(init):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                relevant.append(node)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            relevant.append(node)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.List) \
                    and not node.value.elts and isinstance(node.targets[0], ast.Attribute) \
                    and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self":
                empty_lists[node.targets[0].attr] = node
    relevant.sort(key=lambda n: (n.lineno, n.col_offset))  # stable: ties keep the walk's order
    for node in relevant:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            recv = node.func.value
            if isinstance(recv, ast.Name) and recv.id == "self":
                if node.func.attr in ("register_buffer", "register_parameter") and node.args:
                    key = node.args[0]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        (info.buffers if node.func.attr == "register_buffer" else info.params).add(key.value)
                elif node.func.attr in ("to", "cuda"):
                    info.moves_self = True
                elif node.func.attr in ("add_module", "register_module"):
                    info.registers_modules = True
                    if node.args and isinstance(node.args[0], ast.Constant):
                        info.submodules[str(node.args[0].value)] = True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append" \
                and node.args and _classify(node.args[0], analyzer) == "module":
            owner = node.func.value
            if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self" \
                    and owner.attr in empty_lists:
                info.plain_module_lists.setdefault(owner.attr, empty_lists[owner.attr])
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if node.value is None or len(targets) != 1:
            continue
        target = targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"):
            continue
        name, value = target.attr, node.value
        kind = _classify(value, analyzer)
        if kind in ("param", "buffer", "module"):
            # `self.layers = nn.ModuleList(self.layers)`: the later registration wins.
            info.plain_module_lists.pop(name, None)
            info.plain_tensors.pop(name, None)
        if kind == "param":
            info.params.add(name)
        elif kind == "buffer":
            info.buffers.add(name)
        elif kind == "module":
            info.submodules[name] = _module_has_params(value, analyzer)
            qual = _qual(value.func, analyzer) if isinstance(value, ast.Call) else None
            if qual and is_torch_layer(qual) and qual.split(".")[-1] not in CONTAINERS:
                info.torch_layers.add(name)
            callee = analyzer.eval(value.func) if isinstance(value, ast.Call) else None
            if isinstance(callee, ClassV):
                info.submodule_classes[name] = callee.info
        elif kind == "cpu_tensor" and isinstance(node, ast.Assign) and name not in info.buffers:
            info.plain_tensors.setdefault(name, node)
        elif kind == "module_list" and isinstance(node, ast.Assign):
            info.plain_module_lists.setdefault(name, node)


def _qual(func, analyzer) -> Optional[str]:
    value = analyzer.eval(func)
    return value.name if isinstance(value, QualV) else None


def _classify(value: ast.AST, analyzer) -> Optional[str]:
    if isinstance(value, ast.Call):
        qual = _qual(value.func, analyzer)
        if qual in PARAMETER_CLASSES:
            return "param"
        if qual in ("torch.nn.Buffer", "torch.nn.parameter.Buffer"):
            return "buffer"
        if qual and is_torch_layer(qual):
            return "module"
        if qual and qual.startswith("torch.") and qual.split(".")[-1] in TORCH_FACTORIES and qual.count(".") == 1:
            if any(k.arg == "device" for k in value.keywords):
                return None
            return "cpu_tensor"
        callee = analyzer.eval(value.func) if isinstance(value.func, ast.Name) else None
        if isinstance(callee, ClassV) and callee.info.is_module:
            return "module"
    if isinstance(value, (ast.List, ast.ListComp)):
        elts = value.elts if isinstance(value, ast.List) else [value.elt]
        if elts and all(_classify(e, analyzer) == "module" for e in elts):
            return "module_list"
    return None


def _module_has_params(value: ast.Call, analyzer) -> bool:
    qual = _qual(value.func, analyzer)
    if qual:
        return layer_has_params(qual.split(".")[-1], value)
    callee = analyzer.eval(value.func)
    if isinstance(callee, ClassV):
        return callee.info.has_params
    return True


def _rank_hint(value: ast.AST) -> Optional[int]:
    if isinstance(value, ast.Call) and value.args:
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in ("tensor", "as_tensor", "scalar_tensor"):
            first = value.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, (int, float, bool)):
                return 0
            return None if not isinstance(first, (ast.List, ast.Tuple)) else 1
    return None


def device_parameter(info: ClassInfo, analyzer) -> Optional[str]:
    """The parameter of `__init__` passed as `device=` to every torch layer and factory it
    calls (directly or through `self.<attr> = param`), if there is one: an instance built with
    `Net(device=device)` is placed where that argument says.  Memoised on the `__init__` node."""
    init = info.methods.get("__init__")
    if init is None or not info.is_module:
        return None
    if not hasattr(init, "_tp_device_param"):
        init._tp_device_param = _device_parameter(init, analyzer)
    return init._tp_device_param


def _device_parameter(init: ast.FunctionDef, analyzer) -> Optional[str]:
    params = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs}
    aliases = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Name) \
                and node.value.id in params and isinstance(node.targets[0], ast.Attribute) \
                and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self":
            aliases[node.targets[0].attr] = node.value.id
    used = set()
    for node in ast.walk(init):
        if not isinstance(node, ast.Call):
            continue
        qual = _qual(node.func, analyzer)
        if qual is None or not (is_torch_layer(qual) or operators.makes_tensors_from_nothing(qual)) \
                or qual.rpartition(".")[2] in CONTAINERS:
            continue
        device = next((k.value for k in node.keywords if k.arg == "device"), None)
        if isinstance(device, ast.Name) and device.id in params:
            used.add(device.id)
        elif isinstance(device, ast.Attribute) and isinstance(device.value, ast.Name) and device.value.id == "self" \
                and device.attr in aliases:
            used.add(aliases[device.attr])
        else:
            return None  # a layer or tensor built elsewhere: the instance is not in one place
    return used.pop() if len(used) == 1 else None
