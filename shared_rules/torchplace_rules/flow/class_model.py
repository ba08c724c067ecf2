"""What a class of the project is: an nn.Module or a plain class, its bases and
methods (looked up through the bases in order), and what its `__init__` (and
the helper methods `__init__` calls) registers."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Optional

from . import operators
from .autograd_functions import is_function_class
from .filled_containers import FilledContainers
from .ranks import factory_rank
from .torch_api import (
    CONTAINERS, MODULE_BASES, PARAMETER_CLASSES, TORCH_FACTORIES, is_torch_layer, layer_has_params, looks_like_dtype,
)
from .devices import CPU, SELF_DEV
from .torch_placement import container_elements, truth_flags
from .values import NONE, UNKNOWN, ClassV, DeviceV, DictV, ModuleV, ObjectV, QualV, SeqV, TensorV, Value, map_leaves
from ..syntax_nodes import access_path, calls_and_assignments, own_nodes, parameter_defaults

MOVE_METHODS = {"to", "cuda", "cpu", "type_as", "type"}
_HOST_USES = {"cpu", "tolist", "item", "numpy", "to", "cuda"}  # what forward may do with a CPU input itself
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
    wrapped_lists: set = field(default_factory=set)  # plain lists `nn.ModuleList(self.<name>)` registers whole
    overrides_apply: bool = False
    apply_moves: Optional[frozenset] = None  # with overrides_apply: the only attributes its `to`/`cuda` move
    registers_modules: bool = False  # __init__ calls self.add_module/register_module
    unresolved_base: bool = False  # a base class we cannot see into (maybe an nn.Module)
    torch_layers: dict = field(default_factory=dict)  # submodules that are torch.nn layers -> their class name
    submodule_classes: dict = field(default_factory=dict)  # name -> ClassInfo of classes defined here
    moves_self: bool = False  # __init__ (its own or a base's) calls self.to()/self.cuda()
    moves_parts: bool = False  # __init__ moves `self.<attr>` with `.to(x)`/`.cuda(x)`, x no literal
    init_values: dict = field(default_factory=dict)
    tensor_subclass: bool = False  # derives from torch.Tensor: `.to()` returns a new tensor
    optional_state: dict = field(default_factory=dict)  # state name -> the `__init__` argument (default None, or
    # a flag) it is registered under (`if meshes is not None: self.register_buffer(...)`, `if include_weight:`)
    bases: list = field(default_factory=list)  # ClassInfo of the bases defined in the project, in order
    fields: list = field(default_factory=list)  # a dataclass's / NamedTuple's fields, in order
    record_kind: Optional[str] = None  # "dataclass" | "namedtuple": __init__ takes the fields
    class_values: dict = field(default_factory=dict)  # name -> value node of class-level assignments
    home: Optional[object] = None  # the ModuleSummary of the file defining it (None: the checked file)
    plain_values: dict = field(default_factory=dict)  # name -> assignment: CPU tensors __init__ keeps unregistered
    plain_containers: set = field(default_factory=set)  # those of plain_values that are lists/tuples/dicts of tensors
    plain_bases: bool = True  # every base is `object`, `torch.nn.Module` or such a class of the project
    container: Optional[str] = None  # "Sequential" / "ModuleList" / "ModuleDict" it derives from: `self[i]` is a member
    autograd_function: bool = False  # a custom `torch.autograd.Function` (autograd_functions.py)
    placeholder_home: Optional[ast.Module] = None  # the tree of the file defining it: placeholders.py

    def unmoved(self, name: str) -> bool:
        """Does `Module.to()` leave a plain attribute `self.<name>` where it is: no override of
        `_apply`/`to`/`cuda`, or overrides that only move other attributes?"""
        return not self.overrides_apply or self.apply_moves is not None and name not in self.apply_moves

    def find_method(self, name: str, after: Optional["ClassInfo"] = None):
        """(method node, the class defining it) through the bases in order; `after`: start
        looking after that class (`super()`).  None when no project class defines it."""
        seen = False if after is not None else True
        for cls in self.mro():
            if not seen:
                seen = cls is after
                continue
            method = cls.methods.get(name)
            if method is not None:
                return method, cls
        return None

    def host_inputs(self) -> set:
        """Parameters of `forward` it reads on the host or moves itself (`pack_padded_sequence(x,
        lengths)`, `lengths.cpu()`, `x.to(self.device)`): a CPU tensor passed there is no mismatch.
        Positions (0 = the first after `self`) and names.  Memoised on the method node."""
        found = self.find_method("forward")
        if found is None:
            return set()
        forward = found[0]
        known = getattr(forward, "_tp_host_inputs", None)
        if known is None:
            params = [a.arg for a in forward.args.posonlyargs + forward.args.args][1:] + [a.arg for a in forward.args.kwonlyargs]
            used = set()
            for node in calls_and_assignments(forward):
                if isinstance(node, ast.Call):
                    func = node.func
                    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    if "pack" in name:
                        used.update(a.id for a in list(node.args) + [k.value for k in node.keywords] if isinstance(a, ast.Name))
                    if isinstance(func, ast.Attribute) and name in _HOST_USES:
                        moved = func.value
                        if isinstance(moved, ast.Subscript) and name in ("to", "cuda"):
                            moved = moved.value  # it moves an item of a dict or list itself: `batch["x"].to(dev)`
                        if isinstance(moved, ast.Name):
                            used.add(moved.id)
            known = {p for p in params if p in used} | {i for i, p in enumerate(params) if p in used}
            forward._tp_host_inputs = known
        return known

    def mro(self) -> list:
        """This class, then its project bases, in order.  The bases' part is kept once the scan
        has set them (without this class in it: no reference cycle keeps a tree alive)."""
        known = self.__dict__.get("_bases_mro")
        if known is None or known[0] != len(self.bases):
            known = self.__dict__["_bases_mro"] = (len(self.bases), tuple(self._linearize()[1:]))
        return [self, *known[1]]

    def moves_itself(self) -> bool:
        """Does a method of the class (or of a project base) move the instance: `self.to(...)`,
        `self.cuda()`, `self.apply(...)`, `self._apply(...)`?  Kept once asked."""
        known = self.__dict__.get("_moves_itself")
        if known is None:
            known = self.__dict__["_moves_itself"] = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _SELF_MOVES
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                for cls in self.mro() for method in cls.methods.values() for n in ast.walk(method))
        return known

    def holds_apart(self, name: str, held: "ClassInfo") -> bool:
        """Is `self.<name>`, an instance of `held` (a project class that is no nn.Module), kept apart
        from this module's moves: nn.Module registers only modules, parameters and buffers, so
        `Module.to()` does not reach the modules the object holds.  Only where nothing else may move
        them: every base of `held` is known and plain, no method of it but `__init__` moves or rebinds
        what it holds (nor is named as a move), this class moves the attribute in no override of
        `_apply`/`to`/`cuda`, and its methods only call the object or its methods (never pass it on,
        read into it or rebind it outside `__init__`).  Kept once asked."""
        known = self.__dict__.setdefault("_holds_apart", {})
        entry = known.get(name)
        if entry is None or entry[0] is not held:
            entry = known[name] = (held, not held.is_module and held.plain_bases and not held.unresolved_base
                                   and not held.tensor_subclass and self.unmoved(name) and not held.may_move_held()
                                   and all(_only_called(cls, name, held) for cls in self.mro()))
        return entry[1]

    def may_move_held(self) -> bool:
        """Of a plain class: does a method of it (or of a project base) other than `__init__` move or
        rebind anything it holds (`self.layer.to(...)`, `self.layer = ...`, `setattr(self, ...)`), or
        is one named as a move (`def to(self, device)`)?  Kept once asked."""
        known = self.__dict__.get("_may_move_held")
        if known is None:
            known = self.__dict__["_may_move_held"] = any(
                method_name in _HELD_MOVES or any(_moves_or_binds_self(n) for n in ast.walk(method))
                for cls in self.mro() for method_name, method in cls.methods.items() if method_name != "__init__")
        return known

    def changes_members(self) -> bool:
        """Does a method of the class (or of a project base) change the members of the container it
        derives from after `__init__` registered them (`self.append(m)`, `self.add_module(...)`,
        `self[i] = m`)?  Kept once asked."""
        known = self.__dict__.get("_changes_members")
        if known is None:
            known = self.__dict__["_changes_members"] = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _MEMBER_CHANGES
                and isinstance(n.func.value, ast.Name) and n.func.value.id == "self"
                or isinstance(n, (ast.Assign, ast.AugAssign, ast.Delete)) and any(
                    isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == "self"
                    for t in (n.targets if isinstance(n, (ast.Assign, ast.Delete)) else [n.target]))
                for cls in self.mro() for method in cls.methods.values() for n in ast.walk(method))
        return known

    def _linearize(self) -> list:
        out, stack = [], [self]
        while stack and len(out) < 32:
            cls = stack.pop(0)
            if cls not in out:
                out.append(cls)
                stack[:0] = cls.bases
        return out

    @property
    def has_params(self) -> bool:
        return bool(self.params or self.buffers or any(self.submodules.values()))

    def has_params_without(self, absent: set) -> bool:
        """`has_params` for an instance built without the `__init__` arguments in `absent`: state
        registered only when one of them is given is not there (`SubdivideMeshes()`)."""
        if not absent or not self.optional_state:
            return self.has_params
        def there(name):
            return self.optional_state.get(name) not in absent
        return any(there(n) for n in self.params | self.buffers) or any(
            has and there(n) for n, has in self.submodules.items())

    def attr_value(self, name: str, at: ast.AST) -> Value:
        """The value of `self.<name>` inside a method."""
        if name in self.params:
            return TensorV(SELF_DEV, origin=at, grad=True)
        if name in self.buffers:
            return TensorV(SELF_DEV, origin=at)
        if name in self.submodules:
            made = self.init_values.get("self." + name)  # what __init__ built there, where the module is
            if isinstance(made, ModuleV):
                return ModuleV(SELF_DEV, self.submodules[name], None, made.cls or self.submodule_classes.get(name),
                               torch_layer=name in self.torch_layers, attrs=made.attrs, layer=made.layer, items=made.items)
            return ModuleV(SELF_DEV, self.submodules[name], None, self.submodule_classes.get(name),
                           torch_layer=name in self.torch_layers, layer=self.torch_layers.get(name))
        if name in self.plain_tensors and self.is_module:
            assign = self.plain_tensors[name]
            return TensorV(CPU, origin=assign, plain_attr=name, rank=_rank_hint(assign.value))
        if self.is_module and name == "device":
            return DeviceV(SELF_DEV)
        value = self.init_values.get("self." + name, UNKNOWN)
        if value is NONE:
            return NONE  # a placeholder: whatever a method puts there is what it holds (placeholders.py)
        if self.unresolved_base and isinstance(value, (ModuleV, TensorV)) and value.dev is not None and value.dev.is_cpu:
            return UNKNOWN  # this object may itself be a module: what it holds moves with it
        if self.is_module:
            # Whatever else the module holds was registered with it or is unknown:
            # submodules follow the module's device; other tensors are not known.
            if value.__class__ is ModuleV:
                return ModuleV(SELF_DEV, value.has_params, None, value.cls)
            if value.__class__ is TensorV:
                if name in self.plain_values and self.unmoved(name) and name not in self.plain_containers:
                    # a CPU tensor `__init__` keeps unregistered, however it was made (`torch.linspace(...)[..., None]`,
                    # a helper method): `.to()` leaves it on the CPU
                    return TensorV(CPU, origin=self.plain_values[name], plain_attr=name, rank=value.rank,
                                   min_rank=value.min_rank)
                return TensorV(None, origin=at)
            if self.unmoved(name) and tensor_container_items(value):
                # A plain list/tuple/dict is never registered: `.to()` leaves the tensors in it where they
                # were (a buffer registered from it is a new tensor after the move; a Parameter keeps its
                # identity and moves, so containers of parameters stay unknown).  Its CPU tensors are the
                # attribute's (TP203 reports them where they meet the module's tensors).
                return plain_container(value, name)
            if value.__class__ is ObjectV and self.holds_apart(name, value.info):
                # a plain object is no submodule: `.to()` leaves the modules it holds where its `__init__` built them
                return value
            if name in self.plain_module_lists or value.__class__ is not DeviceV:
                return UNKNOWN  # plain containers are TP203's business, reported at their cause
        elif value.__class__ is ModuleV or value.__class__ is SeqV or value.__class__ is DictV:
            # A module a plain object holds (alone or in a list or dict), seen with no caller's instance (a
            # method analysed as an entry): whoever holds the object may have moved it in place since
            # (`runner.model.cuda()`, a `setup()` method): `Module.to()` changes the module, not the
            # attribute.  A caller's instance says where.
            return map_leaves(value, _maybe_moved)
        return value

    def set_only_in_init(self, name: str) -> bool:
        """Is `self.<name>` an attribute nothing but `__init__` sets (no class attribute, property or
        method of that name, no base that could define it, no other method binding it, no
        `setattr`/`__dict__`)?  Then an instance whose `__init__` did not bind it has no such
        attribute: reading it raises AttributeError, so a read that runs sees what `__init__` bound."""
        for cls in self.mro():
            if not cls.plain_bases or name in cls.class_values or name in cls.methods \
                    or (cls.is_module and (name in NN_MODULE_ATTRS or name.startswith("_") or cls.registers_modules)):
                return False
            bound = cls.__dict__.get("_bound_outside_init")
            if bound is None:
                bound = cls.__dict__["_bound_outside_init"] = _bound_outside_init(cls)
            if bound is True or name in bound:
                return False
        return True

    def stores_attribute(self, name: str) -> bool:
        """Does a method of this class or of a project base bind `self.<name>` (kept per class)?"""
        for cls in self.mro():
            stored = cls.__dict__.get("_stored_attrs")
            if stored is None:
                stored = cls.__dict__["_stored_attrs"] = {
                    node.attr for method in cls.methods.values() for node in ast.walk(method)
                    if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name) and node.value.id == "self"}
            if name in stored:
                return True
        return False

    def init_binds_value(self, name: str) -> bool:
        """Does `__init__` (or a method it calls), of this class or a base, bind `self.<name>` to
        something other than None (`self.w = w`): a tensor there is one TP203 judges where it is set?"""
        for cls in self.mro():
            init = cls.methods.get("__init__")
            if init is None:
                continue
            for method in _init_methods(init, cls):
                for node in method_nodes(method).relevant:
                    value = getattr(node, "value", None)
                    if node.__class__ is ast.Call or value is None or value.__class__ is ast.Constant and value.value is None:
                        continue
                    targets = node.targets if node.__class__ is ast.Assign else [node.target]
                    if any(t.__class__ is ast.Attribute and t.attr == name and t.value.__class__ is ast.Name
                           and t.value.id == "self" for target in targets for t in ast.walk(target)):
                        return True
        return False

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


TENSOR_BASES = ("torch.Tensor", "torch._tensor.Tensor")
# What an nn.Module instance has without its class binding it (torch 2.13: dir(nn.Module) and the
# attributes Module.__init__ sets; the private ones are left out by their leading underscore).
NN_MODULE_ATTRS = frozenset({
    "T_destination", "add_module", "apply", "bfloat16", "buffers", "call_super_init", "children", "compile",
    "cpu", "cuda", "double", "dump_patches", "eval", "extra_repr", "float", "forward", "get_buffer",
    "get_extra_state", "get_parameter", "get_submodule", "half", "ipu", "load_state_dict", "modules", "mtia",
    "named_buffers", "named_children", "named_modules", "named_parameters", "parameters",
    "register_backward_hook", "register_buffer", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
    "register_load_state_dict_pre_hook", "register_module", "register_parameter", "register_state_dict_post_hook",
    "register_state_dict_pre_hook", "requires_grad_", "set_extra_state", "set_submodule", "share_memory",
    "state_dict", "to", "to_empty", "train", "training", "type", "xpu", "zero_grad"})
_REGISTERING = frozenset({"register_buffer", "register_parameter", "add_module", "register_module"})


def _override_moves(method) -> Optional[frozenset]:
    """The attributes an override of `to`/`cuda` moves when all it does is `self.x = self.x.to(...)`
    and hand on to nn.Module's (`return super().to(device)`), which moves parameters and buffers
    only; None for `_apply` or any other body (it may move anything)."""
    if method.name == "_apply":
        return None
    moved = set()
    for stmt in method.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _self_attr(stmt.targets[0]) is not None \
                and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Attribute) \
                and stmt.value.func.attr in MOVE_METHODS and _self_attr(stmt.value.func.value) == _self_attr(stmt.targets[0]):
            moved.add(stmt.targets[0].attr)
            continue
        call = stmt.value if isinstance(stmt, (ast.Return, ast.Expr)) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in ("to", "cuda") \
                and isinstance(call.func.value, ast.Call) and isinstance(call.func.value.func, ast.Name) \
                and call.func.value.func.id == "super":
            continue
        return None
    return frozenset(moved)


def _maybe_moved(value: Value) -> Value:
    """A module made on the CPU that code other than its maker may have moved in place: unknown device."""
    if value.__class__ is ModuleV and value.dev is not None and value.dev.is_cpu and value.has_params:
        return replace(value, dev=None, placed_at=None)
    return value


def _rooted_at_self(node) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def _moves_or_binds_self(node) -> bool:
    """`self....<move>(...)`, a store into `self....`, `self` handed to a call, or `setattr`/`vars`/
    `__dict__` (may bind anything)."""
    if isinstance(node, ast.Call):
        func = node.func
        if any(isinstance(a, ast.Name) and a.id == "self" for a in node.args) \
                or any(isinstance(k.value, ast.Name) and k.value.id == "self" for k in node.keywords):
            return True
        if isinstance(func, ast.Attribute):
            return func.attr in _HELD_MOVES and _rooted_at_self(func.value)
        return isinstance(func, ast.Name) and func.id in ("setattr", "vars")
    if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return _rooted_at_self(node.value)
    return isinstance(node, ast.Attribute) and node.attr == "__dict__"


def _only_called(cls: ClassInfo, name: str, held: ClassInfo) -> bool:
    """Do the methods of `cls` use `self.<name>` only as `self.<name>(...)` or `self.<name>.m(...)` for a
    method `m` of `held` that is no move (and bind it only in `__init__`)?"""
    for method_name, method in cls.methods.items():
        parents = {}
        for parent in ast.walk(method):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent
        for node in parents:
            if _self_attr(node) != name:
                continue
            if isinstance(node.ctx, ast.Store):
                if method_name != "__init__":
                    return False
                continue
            up = parents[node]
            if isinstance(up, ast.Call) and up.func is node:
                continue
            if isinstance(up, ast.Attribute) and up.attr not in _HELD_MOVES and held.find_method(up.attr) is not None:
                call = parents.get(up)
                if isinstance(call, ast.Call) and call.func is up:
                    continue
            return False
    return True


def _self_attr(node) -> Optional[str]:
    return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" else None


def _bound_outside_init(cls: ClassInfo):
    """The attribute names the methods `__init__` calls on `self` bind (their own calls followed);
    True where a method may bind names the analysis cannot read (`setattr(self, k, v)`,
    `self.__dict__.update(...)`, a buffer registered under a computed name).  Methods that run
    later may bind them too: what a read sees then is the receiver's business, as for any attribute."""
    bound = set()
    for method_name, method in cls.methods.items():
        for node in ast.walk(method):
            if isinstance(node, ast.Attribute) and node.attr in ("__dict__", "__setattr__"):
                return True
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if name in ("setattr", "vars") or name in _REGISTERING and not (
                        node.args and isinstance(node.args[0], ast.Constant)):
                    return True
    todo, seen = ["__init__"], set()
    while todo:
        method = cls.methods.get(todo.pop())
        if method is None or method in seen:
            continue
        seen.add(method)
        for node in ast.walk(method):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                if isinstance(node.ctx, ast.Store) and method.name != "__init__":
                    bound.add(node.attr)
                elif node.attr in cls.methods:
                    todo.append(node.attr)
    return bound


# what moves a module's parameters in place (`Module.to` and its kind go through `_apply`; `apply(fn)` may)
_SELF_MOVES = frozenset({"to", "cuda", "cpu", "xpu", "ipu", "mtia", "_apply", "apply"})
_HELD_MOVES = _SELF_MOVES | {"type", "to_empty"}  # (`Module.type(torch.cuda.FloatTensor)` moves too)
# what changes the members of an nn.Sequential / ModuleList / ModuleDict in place
_MEMBER_CHANGES = frozenset({"append", "extend", "insert", "add_module", "register_module", "update", "pop",
                             "__setitem__", "__delitem__", "__iadd__"})
# torch's dataset bases: no nn.Module, and they bind no instance attribute (torch/utils/data/dataset.py)
_DATASET_BASES = ("torch.utils.data.Dataset", "torch.utils.data.dataset.Dataset", "torch.utils.data.IterableDataset",
                  "torch.utils.data.dataset.IterableDataset")
_NO_MODULE_BASES = ("object", "builtins.object") + _DATASET_BASES  # bases known not to be (or hide) an nn.Module
_PLAIN_BASES = _NO_MODULE_BASES + ("torch.nn.Module", "torch.nn.modules.module.Module")


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
    info.container = next((v.name.rpartition(".")[2] if isinstance(v, QualV) else v.info.container for v in bases
                           if isinstance(v, QualV) and v.name.rpartition(".")[2] in CONTAINERS and is_torch_layer(v.name)
                           or isinstance(v, ClassV) and v.info.container), None)
    info.autograd_function = not is_module and is_function_class(bases)
    info.tensor_subclass = any(isinstance(v, QualV) and v.name in TENSOR_BASES
                               or isinstance(v, ClassV) and v.info.tensor_subclass for v in bases)
    # A base we cannot resolve may be an nn.Module (PreTrainedModel, ModelMixin, ...), also
    # through a base defined here that derives from one.
    info.unresolved_base = not is_module and any(
        v.info.unresolved_base if isinstance(v, ClassV)
        else not (isinstance(v, QualV) and v.name in _NO_MODULE_BASES)
        for v in bases)
    info.plain_bases = not stmt.keywords and all(
        v.info.plain_bases if isinstance(v, ClassV)
        else isinstance(v, QualV) and v.name in _PLAIN_BASES
        for v in bases)
    moves = frozenset()
    for item in stmt.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
            info.methods[item.name] = item
            if item.name in ("_apply", "to", "cuda"):
                info.overrides_apply = True
                moved = _override_moves(item) if moves is not None else None
                moves = moves | moved if moved is not None else None
    info.method_order = sorted(info.methods, key=lambda n: (n != "__init__", info.methods[n].lineno))
    _scan_record(stmt, info, bases)
    for value in bases:
        if isinstance(value, ClassV):  # inherit what the base registers
            b = value.info
            info.bases.append(b)
            info.params |= b.params
            info.buffers |= b.buffers
            info.submodules.update(b.submodules)
            info.plain_tensors.update(b.plain_tensors)
            info.moves_self |= b.moves_self  # (the base's `__init__` runs first: its `self.cuda()` too)
            if b.overrides_apply:
                moves = moves | b.apply_moves if moves is not None and b.apply_moves is not None else None
            info.overrides_apply |= b.overrides_apply
    info.apply_moves = moves if info.overrides_apply else None
    init = info.methods.get("__init__")
    if init is not None and is_module:
        _scan_init(init, info, analyzer)
    if init is not None:
        _scan_placeholders(init, info, analyzer)
    return info


def _scan_placeholders(init, info: ClassInfo, analyzer) -> None:
    """Where the class's methods are read from when a None `__init__` bound is read (placeholders.py): the
    file's tree only, not its module environment, which holds this class (a cycle that would keep every
    checked file's trees until a full collection: test_reference_cycles)."""
    frame = getattr(analyzer, "frame", None)
    if (frame is not None and frame.kind == "module") or getattr(analyzer, "module_env", None) is not None:
        info.placeholder_home = getattr(analyzer, "tree", None)


def method_kind(node) -> str:
    """static | class | property | setter | method, from the decorators."""
    for deco in node.decorator_list:
        name = deco.attr if isinstance(deco, ast.Attribute) else getattr(deco, "id", None)
        if name == "staticmethod":
            return "static"
        if name == "classmethod":
            return "class"
        if name in ("property", "cached_property"):
            return "property"
        if name in ("setter", "deleter"):
            return "setter"
    return "method"


def _scan_record(stmt: ast.ClassDef, info: ClassInfo, bases: list) -> None:
    """Dataclasses and NamedTuples: their fields; any class: its class-level assignments."""
    names = {d.attr if isinstance(d, ast.Attribute) else getattr(d.func if isinstance(d, ast.Call) else d, "id",
             getattr(getattr(d, "func", None), "attr", None)) for d in stmt.decorator_list}
    if "dataclass" in names:
        info.record_kind = "dataclass"
    elif any(isinstance(b, QualV) and b.name.rsplit(".", 1)[-1] == "NamedTuple" for b in bases):
        info.record_kind = "namedtuple"
    for item in stmt.body:
        if item.__class__ is ast.AnnAssign and item.target.__class__ is ast.Name:
            info.fields.append(item.target.id)
            if item.value is not None:
                info.class_values[item.target.id] = item.value
        elif isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
            info.class_values[item.targets[0].id] = item.value


def _init_helpers(init, info: ClassInfo) -> list:
    """The `method_nodes` of `__init__` and of the methods it calls as `self.name(...)`
    (transitively): where `__init__` really sets the module up."""
    return [method_nodes(method) for method in _init_methods(init, info)]


def _init_methods(init, info: ClassInfo) -> list:
    """`__init__` and the methods it calls as `self.name(...)` (transitively), in the order met."""
    done, todo = [], [init]
    while todo and len(done) < 12:
        method = todo.pop(0)
        if method in done:
            continue
        done.append(method)
        for name in method_nodes(method).self_calls:
            found = info.find_method(name)
            if found is not None and method_kind(found[0]) == "method":
                todo.append(found[0])
    return done


class _MethodNodes:
    """What `_scan_init` needs of one method, in `ast.walk` order: the calls of a method
    (`x.f(...)`) and the assignments (all that can register anything), the names it calls on
    `self`, and its `self.X = []`.  Memoised on the method node (a helper such as
    `post_init` of a base class is shared by every subclass); the nodes are kept, so an
    edit that re-parses the method makes a new node and a new entry."""

    __slots__ = ("relevant", "self_calls", "empty_lists")

    def __init__(self, method) -> None:
        self.relevant, self.self_calls, self.empty_lists = [], [], []
        for node in calls_and_assignments(method):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute):
                    self.relevant.append(node)
                    if isinstance(func.value, ast.Name) and func.value.id == "self":
                        self.self_calls.append(func.attr)
                elif isinstance(func, ast.Name) and func.id == "setattr" and node.args \
                        and isinstance(node.args[0], ast.Name) and node.args[0].id == "self":
                    self.relevant.append(node)  # setattr(self, name, m): registers m as `nn.Module.__setattr__` does
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                self.relevant.append(node)
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.List) \
                        and not node.value.elts and isinstance(node.targets[0], ast.Attribute) \
                        and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self":
                    self.empty_lists.append((node.targets[0].attr, node))


def _literal_target(call: ast.Call) -> bool:
    """Does `x.to(...)`/`x.cuda(...)` name where it moves in the code itself (`"cuda"`, `0`,
    `torch.device("cpu")`, no argument), not through a value such as an argument of `__init__`?
    A dtype (`.to(torch.float16)`, `.to(dtype)`, `.to(x.dtype)`) moves nothing."""
    target = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "device"), None)
    if target is None or target.__class__ is ast.Constant:
        return True
    if looks_like_dtype(target):
        return True
    return target.__class__ is ast.Call and all(a.__class__ is ast.Constant for a in target.args) \
        and target.func.__class__ is ast.Attribute and target.func.attr == "device"


def method_nodes(method) -> _MethodNodes:
    known = method.__dict__.get("_tp_init_nodes")
    if known is None:
        known = method._tp_init_nodes = _MethodNodes(method)
    return known


def _scan_init(init, info: ClassInfo, analyzer) -> None:
    empty_lists = {}  # self.X = [] (filled with .append later)
    relevant = []  # method calls and assignments: all that registers anything
    for part in _init_helpers(init, info):
        relevant.extend(part.relevant)
        empty_lists.update(part.empty_lists)
    relevant.sort(key=lambda n: (n.lineno, n.col_offset))  # stable: ties keep the walk's order
    guards, unguarded = _none_guarded(init), set()
    off_by_default, kept_plain = _off_by_default(init), set()
    params = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs}
    aliases = set()  # self.<attr> = <a parameter of __init__>
    filled = FilledContainers(relevant, lambda v: _module_has_params(v, analyzer))
    for node in relevant:
        if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute:
            recv = node.func.value
            fill = filled.fill(node) if filled.holds else None
            if fill is not None:
                info.submodules[fill[0]] = fill[1]
            if recv.__class__ is ast.Name and recv.id == "self":
                if node.func.attr in ("register_buffer", "register_parameter") and node.args:
                    key = node.args[0]
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        (info.buffers if node.func.attr == "register_buffer" else info.params).add(key.value)
                        if key.value in kept_plain:  # (`else: self.register_buffer(...)` after a flag's Parameter)
                            info.plain_tensors.pop(key.value, None)
                        _note_guard(info, key.value, guards.get(id(node)), unguarded)
                elif node.func.attr in ("to", "cuda"):
                    info.moves_self = True
                elif node.func.attr in ("add_module", "register_module", "__setattr__"):
                    # (`self.__setattr__(name, m)` is `nn.Module.__setattr__`: a module value is registered)
                    info.registers_modules = True
                    if node.args and isinstance(node.args[0], ast.Constant):
                        info.submodules[str(node.args[0].value)] = True
            elif node.func.attr in ("to", "cuda") and recv.__class__ is ast.Attribute and recv.value.__class__ is ast.Name \
                    and recv.value.id == "self" and not _literal_target(node):
                info.moves_parts = True
        if node.__class__ is ast.Call and node.func.__class__ is ast.Name and info.is_module:  # setattr(self, k, m)
            info.registers_modules = True
        if info.wrapped_lists and node.__class__ is ast.Call and node.func.__class__ is ast.Attribute \
                and node.func.attr in ("append", "extend", "insert") and node.func.value.__class__ is ast.Attribute:
            info.wrapped_lists.discard(node.func.value.attr)  # added after the container copied the list
        if node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == "append" \
                and node.args and _classify(node.args[0], analyzer) == "module" and _module_has_params(node.args[0], analyzer):
            owner = node.func.value
            if isinstance(owner, ast.Attribute) and isinstance(owner.value, ast.Name) and owner.value.id == "self" \
                    and owner.attr in empty_lists:
                info.plain_module_lists.setdefault(owner.attr, empty_lists[owner.attr])
        if node.__class__ not in (ast.Assign, ast.AnnAssign):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if node.value is None or len(targets) != 1:
            continue
        target = targets[0]
        if not (target.__class__ is ast.Attribute and target.value.__class__ is ast.Name and target.value.id == "self"):
            continue
        name, value = target.attr, node.value
        if value.__class__ is ast.Name and value.id in params:
            aliases.add(name)
        if _to_constructor_device(value, name, params, aliases):
            # `self.t = self.t.to(self.device)`: the class places the tensor where its caller's
            # `device=` says (as a layer built with device=device): not an unregistered CPU tensor
            info.plain_tensors.pop(name, None)
            continue
        kind = _classify(value, analyzer)
        if kind == "param" and name in info.plain_tensors and id(node) in off_by_default:
            kept_plain.add(name)
            continue  # `if learn: self.t = nn.Parameter(self.t)` with `learn=False`: by default `self.t` stays plain
        if kind in ("param", "buffer", "module"):
            # `self.layers = nn.ModuleList(self.layers)`: the later registration wins.
            info.plain_module_lists.pop(name, None)
            info.plain_tensors.pop(name, None)
            if kind == "module" and value.__class__ is ast.Call:
                _drop_wrapped_lists(value, info, analyzer)
        if kind in ("param", "buffer", "module"):
            _note_guard(info, name, guards.get(id(node)), unguarded)
        if kind == "param":
            info.params.add(name)
        elif kind == "buffer":
            info.buffers.add(name)
        elif kind == "module":
            qual = _qual(value.func, analyzer) if isinstance(value, ast.Call) else None
            started = filled.start(name, value if qual is not None and qual.split(".")[-1] in CONTAINERS else None)
            info.submodules[name] = False if started else _module_has_params(value, analyzer)
            if qual and is_torch_layer(qual) and qual.split(".")[-1] not in CONTAINERS:
                info.torch_layers[name] = qual.split(".")[-1]
            callee = analyzer.eval(value.func) if isinstance(value, ast.Call) else None
            if isinstance(callee, ClassV):
                info.submodule_classes[name] = callee.info
        elif kind == "cpu_tensor" and isinstance(node, ast.Assign) and name not in info.buffers:
            info.plain_tensors.setdefault(name, node)
        elif kind == "module_list" and isinstance(node, ast.Assign) \
                and any(_module_has_params(e, analyzer) for e in (value.elts if isinstance(value, ast.List) else [value.elt])):
            info.plain_module_lists.setdefault(name, node)  # modules with nothing to move, train or save: harmless
    for name in filled.filled_elsewhere(info.node):
        info.submodules[name] = True


def _drop_wrapped_lists(value: ast.Call, info: ClassInfo, analyzer) -> None:
    """`self.blocks = nn.ModuleList(self.blocks_list)` / `nn.Sequential(*self.blocks_list)`: the
    container registers the very modules the plain list holds, so `.to()` moves them in place and
    `parameters()`/`state_dict()` see them.  (Modules appended to the list later are not in the
    container: an `append` after this line lists the attribute again.)"""
    names = [a.attr for a in (arg.value if arg.__class__ is ast.Starred else arg for arg in value.args)
             if a.__class__ is ast.Attribute and a.value.__class__ is ast.Name and a.value.id == "self"]
    if not names:
        return  # (most layers: no `self.<list>` argument, no evaluation)
    qual = _qual(value.func, analyzer)
    if not qual or not is_torch_layer(qual) or qual.split(".")[-1] not in CONTAINERS:
        return
    for name in names:
        info.plain_module_lists.pop(name, None)
        info.wrapped_lists.add(name)


def _to_constructor_device(value, name: str, params: set, aliases: set) -> bool:
    """`self.<name>.to(d)` where d is a parameter of `__init__` or `self.<attr>` bound to one."""
    if not (value.__class__ is ast.Call and value.func.__class__ is ast.Attribute and value.func.attr == "to"):
        return False
    recv = value.func.value
    if not (isinstance(recv, ast.Attribute) and recv.attr == name and isinstance(recv.value, ast.Name)
            and recv.value.id == "self"):
        return False
    device = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "device"), None)
    if isinstance(device, ast.Name):
        return device.id in params
    return isinstance(device, ast.Attribute) and isinstance(device.value, ast.Name) and device.value.id == "self" \
        and device.attr in aliases


def _none_guarded(init) -> dict:
    """id(node) -> the `__init__` parameter of each `if param is not None:` (default None) or `if flag:`
    block its nodes are in.  Memoised on the `__init__` node (read, never changed, by the caller)."""
    known = init.__dict__.get("_tp_none_guarded")
    if known is None:
        known = init._tp_none_guarded = _find_none_guards(init)
    return known


def _constant_defaults(init, values: tuple) -> set:
    """The parameters of `__init__` whose default is one of the constants `values`."""
    return {n for n, d in parameter_defaults(init).items()
            if d.__class__ is ast.Constant and any(d.value is v for v in values)}


def _find_none_guards(init) -> dict:
    optional = _constant_defaults(init, (None,))
    flags = truth_flags(init)
    guards = {}
    if not optional and not flags:
        return guards  # no parameter defaults to None or is tested as a flag: nothing to guard, no walk
    for node in own_nodes(init):  # (breadth first, as `ast.walk`: the outermost guard counts)
        test = node.test if node.__class__ is ast.If else None
        guard = None
        if test.__class__ is ast.Compare and test.left.__class__ is ast.Name and test.left.id in optional \
                and len(test.ops) == 1 and isinstance(test.ops[0], ast.IsNot) \
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
            guard = test.left.id
        elif test.__class__ is ast.Name and test.id in flags:
            guard = test.id  # `if include_weight:` (absent_arguments: only where the call makes it false)
        if guard is not None:
            for stmt in node.body:
                for inner in own_nodes(stmt):
                    guards.setdefault(id(inner), guard)
    return guards


def _off_by_default(init) -> frozenset:
    """id(node) of the nodes in the `if flag:` / `if self.flag:` blocks of `__init__` whose flag is an
    argument of `__init__` defaulting to False or None (`learn_logvar=False`; `self.flag = flag` set
    before) and never set otherwise: what a default construction never runs.  Memoised on the node."""
    if "_tp_off_by_default" not in init.__dict__:
        init._tp_off_by_default = _find_off_by_default(init)
    return init._tp_off_by_default


def _find_off_by_default(init) -> frozenset:
    flags = _constant_defaults(init, (False, None))
    if not flags:
        return frozenset()
    copies = {}  # self.<attr> = <flag>, in `__init__`'s own statements: attr -> flag
    for stmt in init.body:
        if stmt.__class__ is ast.Assign and len(stmt.targets) == 1 and stmt.value.__class__ is ast.Name \
                and stmt.value.id in flags and _self_attr(stmt.targets[0]) is not None:
            copies[stmt.targets[0].attr] = stmt.value.id
    found = set()
    for node in own_nodes(init):
        if node.__class__ is not ast.If:
            continue
        test = node.test
        flag = test.id if test.__class__ is ast.Name else copies.get(_self_attr(test)) if test.__class__ is ast.Attribute else None
        if flag in flags and not _reassigned(init, flag, copies):
            for stmt in node.body:
                found.update(id(inner) for inner in own_nodes(stmt))
    return frozenset(found)


def _reassigned(init, flag: str, copies: dict) -> bool:
    """Is the flag (or its `self.` copy) assigned anywhere in `__init__` but the copy itself?"""
    names = {flag} | {f"self.{attr}" for attr, f in copies.items() if f == flag}
    count = 0
    for node in own_nodes(init):
        if node.__class__ in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            targets = node.targets if node.__class__ is ast.Assign else [node.target]
            count += sum(1 for t in targets if access_path(t) in names)
    return count > sum(1 for f in copies.values() if f == flag)


def _note_guard(info: ClassInfo, name: str, guard: Optional[str], unguarded: set) -> None:
    if guard is None:
        unguarded.add(name)
        info.optional_state.pop(name, None)
    elif name not in unguarded:
        info.optional_state[name] = guard


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
        if qual and qual.count(".") == 1 and operators.makes_tensors_from_nothing(qual):
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


def _module_has_params(value: ast.AST, analyzer, depth: int = 0) -> bool:
    if not isinstance(value, ast.Call) or depth > 3:
        return True
    qual = _qual(value.func, analyzer)
    if qual:
        elements = container_elements(value) if qual.split(".")[-1] in CONTAINERS else None
        if elements is not None:  # nn.ModuleList(Pool(s) for s in scales): what its modules hold; a
            # class the analysis cannot see counts as it does assigned directly (`self.x = Unseen()`)
            return any(_classify(e, analyzer) == "module" and _module_has_params(e, analyzer, depth + 1) for e in elements)
        return layer_has_params(qual.split(".")[-1], value)
    callee = analyzer.eval(value.func)
    if isinstance(callee, ClassV):
        return callee.info.has_params
    return True


def _rank_hint(value: ast.AST) -> Optional[int]:
    if isinstance(value, ast.Call):
        func = value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in TORCH_FACTORIES and name not in ("tensor", "as_tensor"):
            return factory_rank(value, name)  # `torch.full((1, 1, 1), v)`, `torch.full(size=(n,), fill_value=v)`
        if name in ("tensor", "as_tensor", "scalar_tensor") and value.args:
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
    nodes = calls_and_assignments(init)
    for node in nodes:
        if node.__class__ is ast.Assign and len(node.targets) == 1 and node.value.__class__ is ast.Name \
                and node.value.id in params and isinstance(node.targets[0], ast.Attribute) \
                and isinstance(node.targets[0].value, ast.Name) and node.targets[0].value.id == "self":
            aliases[node.targets[0].attr] = node.value.id
    used = set()
    for node in nodes:
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


def plain_container(value: Value, name: str) -> Value:
    """A list/tuple/dict of tensors a module holds in `self.<name>`: its CPU tensors are the attribute's."""
    return map_leaves(value, lambda v: replace(v, factory=None, plain_attr=name) if isinstance(v, TensorV) and v.dev.is_cpu else v)


def tensor_container_items(value: Value) -> tuple:
    """The items of a list, tuple or dict whose items are all tensors of a known device, none a
    parameter (empty for anything else; the element that stands for them all in a list appended to)."""
    if value.__class__ is SeqV:
        items = value.items if value.items is not None else (value.elem,)  # a list appended to: what it holds
    elif isinstance(value, DictV):
        items = tuple(v for _, v in value.items) if value.items is not None else None
    else:
        return ()
    return items if items and all(isinstance(v, TensorV) and v.dev is not None and not v.grad for v in items) else ()


# `types.SimpleNamespace(device="cpu", rank=0)` / `argparse.Namespace(...)`: an object holding exactly the
# keyword arguments it was made with (a test's stand-in for parsed command-line arguments)
NAMESPACE_CLASSES = frozenset({"types.SimpleNamespace", "argparse.Namespace"})
NAMESPACE_INFO = ClassInfo(ast.ClassDef(name="SimpleNamespace", bases=[], keywords=[], body=[], decorator_list=[]),
                           "SimpleNamespace", False)


def namespace_object(kwargs: dict, node: ast.Call) -> Value:
    """The namespace a call makes; unknown where it unpacks a mapping (`**vars(args)`) or takes a
    positional mapping (Python 3.13), which may add any attribute."""
    if node.args or any(k.arg is None for k in node.keywords):
        return UNKNOWN
    return ObjectV(NAMESPACE_INFO, id(NAMESPACE_INFO.node), tuple(sorted(kwargs.items())), node)
