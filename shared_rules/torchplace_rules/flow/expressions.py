"""Expression semantics of the device-flow analysis: what each expression
evaluates to, and where tensors meet (the `conflict` events).  A call is
handed to `calls.dispatch_call`."""
from __future__ import annotations

import ast
from dataclasses import replace
from typing import Optional

from . import torch_api as api
from .calls import dispatch_call
from .torch_methods import setitem_conflicts
from .devices import ACCEL_KIND, SELF_DEV, Dev, devices_conflict, parse_device_string
from .events import Conflict
from .values import (
    UNKNOWN, BatchV, DatasetV, DeviceV, DictV, ModuleV, NumpyV, PlacedV, QualV, SelfV, SeqV, TensorV, Value,
    iteration_element,
)

CONFIG_OBJECT_NAMES = {"args", "opt", "opts", "cfg", "config", "conf", "hparams", "hp", "params", "settings",
                       "FLAGS", "flags", "options", "training_args", "train_args", "cmd_args"}


class ExpressionEvaluator:
    """Mixed into `Analyzer` (`driver.py`); relies on its frame, `lookup` and `emit`."""

    # -- paths and names -----------------------------------------------------
    def path_of(self, node) -> Optional[str]:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            base = self.path_of(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            base = self.path_of(node.value)
            return f"{base}[{node.slice.value!r}]" if base else None
        return None

    def qualname(self, node) -> Optional[str]:
        value = self.eval(node)
        return value.name if isinstance(value, QualV) else None

    # -- binding -------------------------------------------------------------
    def bind(self, target, value: Value, value_node) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if isinstance(value, SeqV) and value.items is not None and len(value.items) == len(elts) \
                    and not any(isinstance(e, ast.Starred) for e in elts):
                items = value.items
            elif isinstance(value, SeqV):
                items = [value.element()] * len(elts)
            elif isinstance(value, BatchV):
                items = [value.element(target)] * len(elts)
            elif isinstance(value, TensorV) and value.dev is not None:
                items = [replace(value, rank=None, factory=None)] * len(elts)  # unbinding a tensor
            else:
                items = [UNKNOWN] * len(elts)
            nodes = value_node.elts if isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(elts) else [None] * len(elts)
            for elt, item, item_node in zip(elts, items, nodes):
                if isinstance(elt, ast.Starred):
                    self.bind(elt.value, UNKNOWN, None)
                else:
                    self.bind(elt, item, item_node)
            return
        path = self.path_of(target)
        if isinstance(target, ast.Subscript):
            base = self.eval(target.value)
            index = self.eval(target.slice)
            if isinstance(base, TensorV):  # x[mask] = values: PyTorch checks values (index_put_)
                setitem_conflicts(self, target, base, index, value, value_node)
        elif isinstance(target, ast.Attribute):
            self.eval(target.value)
        if path is None:
            return
        env = self.frame.env
        if isinstance(target, ast.Name):
            value = self.name_binding(target.id, value, value_node)
        prefix_dot, prefix_sub = path + ".", path + "["
        stale = [k for k in env if k.startswith(prefix_dot) or k.startswith(prefix_sub)] if len(env) < 400 or "." in path else ()
        for key in stale:
            del env[key]
        env[path] = value

    def name_binding(self, name: str, value: Value, value_node=None) -> Value:
        """Device variables take their name, so fixes can say `device`.  A name
        like `device` bound to an unknown configuration value is the target
        accelerator; bound to some tensor's `.device` it is that tensor's device."""
        if isinstance(value, DeviceV):
            if value.dev.kind == ACCEL_KIND:
                self.targets_accelerator = True
            return DeviceV(replace(value.dev, expr=name))
        if value is UNKNOWN and name in self.device_names and not _reads_tensor_device(value_node):
            self.targets_accelerator = True
            return DeviceV(Dev(ACCEL_KIND, "target", name))
        return value

    # -- truth of conditions -------------------------------------------------
    def assumed_truth(self, test) -> Optional[bool]:
        """`torch.cuda.is_available()` (and friends) are assumed true."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.assumed_truth(test.operand)
            return None if inner is None else not inner
        if isinstance(test, ast.Call) and not test.args:
            if self.qualname(test.func) in api.CUDA_AVAILABILITY:
                return True
        return None

    # -- expressions ---------------------------------------------------------
    def eval(self, node) -> Value:
        method = _DISPATCH.get(type(node))
        if method is None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self.eval(child)
            return UNKNOWN
        return method(self, node)

    def expr_Constant(self, node: ast.Constant) -> Value:
        if isinstance(node.value, str) and 2 < len(node.value) < 12:
            dev = parse_device_string(node.value, node)
            if dev is not None:
                return DeviceV(dev)
        return UNKNOWN

    def expr_Name(self, node: ast.Name) -> Value:
        return self.lookup(node.id)

    def expr_Attribute(self, node: ast.Attribute) -> Value:
        value = self.bound_path_value(node)
        if value is not None:
            return value
        base = self.eval(node.value)
        attr = node.attr
        if isinstance(base, QualV):
            member = base.member(self, attr, node) if hasattr(base, "member") else None
            return member if member is not None else QualV(f"{base.name}.{attr}")
        if isinstance(base, TensorV):
            if attr == "device":
                if base.dev is None:
                    return UNKNOWN
                text = self.src.segment(node)
                return DeviceV(replace(base.dev, expr=text if base.dev.kind != "cpu" else base.dev.expr))
            if attr in ("T", "mT", "H", "data", "real", "imag", "grad"):
                return replace(base, origin=node, factory=None, grad=base.grad and attr != "data")
            if base.module_output:
                return TensorV(base.dev, origin=node, grad=base.grad, module_output=True)
            return UNKNOWN
        if isinstance(base, SelfV):
            return self.class_attr(base.info, attr, node)
        if isinstance(base, ModuleV):
            if attr in ("weight", "bias") or (base.cls is not None and (attr in base.cls.params or attr in base.cls.buffers)):
                return TensorV(base.dev, origin=node, grad=True)
            if base.cls is not None and attr in base.cls.submodules:
                return ModuleV(base.dev, base.cls.submodules[attr], base.placed_at)
            if attr == "device" and base.dev is not None:
                return DeviceV(replace(base.dev, expr=self.src.segment(node)))
            return UNKNOWN
        if isinstance(base, PlacedV) and attr == "device":
            return DeviceV(replace(base.dev, expr=self.src.segment(node)))
        if attr in self.device_names and base is UNKNOWN and isinstance(node.value, ast.Name) \
                and (node.value.id in CONFIG_OBJECT_NAMES or (node.value.id == "self" and self.frame.cls is None)):
            self.targets_accelerator = True
            return DeviceV(Dev(ACCEL_KIND, "target", self.src.segment(node)))
        return UNKNOWN

    def expr_Subscript(self, node: ast.Subscript) -> Value:
        value = self.bound_path_value(node)
        if value is not None:
            return value
        base = self.eval(node.value)
        index = self.eval(node.slice)
        if isinstance(base, TensorV):
            # CPU indices may index an accelerator tensor; the reverse raises.
            if isinstance(index, TensorV) and base.dev is not None and index.dev is not None \
                    and base.dev.is_cpu and index.dev.kind == ACCEL_KIND and base.rank != 0:
                self.emit("conflict", Conflict(node, "index", base, node.value, index, node.slice, index.dev))
            rank = None
            if base.rank is not None and not isinstance(node.slice, (ast.Slice, ast.Tuple)) \
                    and not isinstance(index, (TensorV, SeqV, BatchV, PlacedV)) and _int_like(node.slice):
                rank = base.rank - 1  # x[i] drops one dimension
            return TensorV(base.dev, origin=node, rank=rank, batch=base.batch, grad=base.grad, module_output=base.module_output)
        if isinstance(base, BatchV):
            return base.element(node)
        if isinstance(base, SeqV):
            if base.items is not None and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                try:
                    return base.items[node.slice.value]
                except IndexError:
                    return UNKNOWN
            return base.element() if not isinstance(node.slice, ast.Slice) else base
        if isinstance(base, DictV):
            return base.elem
        if isinstance(base, DatasetV) and base.dev is not None:
            return SeqV(None, TensorV(base.dev, origin=node))
        if isinstance(base, NumpyV):
            return NumpyV(base.dtype)
        return UNKNOWN

    def expr_BinOp(self, node: ast.BinOp) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        return self.combine(node, [(left, node.left), (right, node.right)])

    def expr_Compare(self, node: ast.Compare) -> Value:
        values = [(self.eval(node.left), node.left)] + [(self.eval(c), c) for c in node.comparators]
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return UNKNOWN
        result = self.combine(node, values)
        return replace(result, dtype="bool", grad=False) if isinstance(result, TensorV) else result

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Value:
        value = self.eval(node.operand)
        if isinstance(value, TensorV):
            return replace(value, origin=node)
        return UNKNOWN

    def expr_BoolOp(self, node: ast.BoolOp) -> Value:
        values = [self.eval(v) for v in node.values]
        out = values[0]
        for v in values[1:]:
            out = out.join(v)
        return out

    def expr_IfExp(self, node: ast.IfExp) -> Value:
        assumed = self.assumed_truth(node.test)
        if assumed is True:
            return self.eval(node.body)
        if assumed is False:
            return self.eval(node.orelse)
        self.eval(node.test)
        body, orelse = self.eval(node.body), self.eval(node.orelse)
        # "cuda" if use_gpu else "cpu": the program targets the accelerator.
        if isinstance(body, DeviceV) and isinstance(orelse, DeviceV):
            accel = [v.dev for v in (body, orelse) if v.dev.kind == ACCEL_KIND]
            if len(accel) == 1 and any(v.dev.is_cpu for v in (body, orelse)):
                return DeviceV(replace(accel[0], label="target" if ":" not in accel[0].label else accel[0].label))
        return body.join(orelse)

    def expr_Tuple(self, node) -> Value:
        if any(isinstance(e, ast.Starred) for e in node.elts):
            for e in node.elts:
                self.eval(e)
            return SeqV(None, UNKNOWN)
        return SeqV(tuple(self.eval(e) for e in node.elts))

    expr_List = expr_Tuple

    def expr_Set(self, node) -> Value:
        for e in node.elts:
            self.eval(e)
        return UNKNOWN

    def expr_Dict(self, node: ast.Dict) -> Value:
        values = [self.eval(v) for v in node.values]
        for k in node.keys:
            if k is not None:
                self.eval(k)
        if not values:
            return DictV(UNKNOWN)
        out = values[0]
        for v in values[1:]:
            out = out.join(v)
        return DictV(out)

    def expr_comprehension(self, node) -> Value:
        saved = self.frame.env
        self.frame.env = dict(saved)
        try:
            for gen in node.generators:
                iterable = self.eval(gen.iter)
                element, _ = iteration_element(iterable, gen)
                self.bind(gen.target, element, None)
                for cond in gen.ifs:
                    self.eval(cond)
            if isinstance(node, ast.DictComp):
                self.eval(node.key)
                return DictV(self.eval(node.value))
            elt = self.eval(node.elt)
            return SeqV(None, elt) if not isinstance(node, ast.SetComp) else UNKNOWN
        finally:
            self.frame.env = saved

    expr_ListComp = expr_SetComp = expr_GeneratorExp = expr_DictComp = expr_comprehension

    def expr_Lambda(self, node) -> Value:
        return UNKNOWN

    def expr_NamedExpr(self, node: ast.NamedExpr) -> Value:
        value = self.eval(node.value)
        self.bind(node.target, value, node.value)
        return value

    def expr_Starred(self, node) -> Value:
        return self.eval(node.value)

    def expr_Await(self, node) -> Value:
        self.eval(node.value)
        return UNKNOWN

    def expr_JoinedStr(self, node: ast.JoinedStr) -> Value:
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                self.eval(v.value)
        return UNKNOWN

    # -- where tensors meet --------------------------------------------------
    def combine(self, node, operands: list) -> Value:
        """Arithmetic-like ops: report a device conflict, return the result."""
        tensors = [(v, n) for v, n in operands if isinstance(v, (TensorV, PlacedV, BatchV))]
        if not tensors:
            numpy = [v for v, _ in operands if isinstance(v, NumpyV)]
            return NumpyV(numpy[0].dtype) if numpy else UNKNOWN
        tensors = [(_as_tensor(v, n), n) for v, n in tensors]
        if self.check_operands(node, tensors):
            return UNKNOWN
        result_dev = None
        for v, _ in tensors:
            if v.dev is not None and v.rank != 0 and not v.dev.is_cpu:
                result_dev = v.dev
                break
        else:
            devs = {v.dev for v, _ in tensors if v.rank != 0}
            if len(devs) == 1 and len(tensors) == len(operands):
                result_dev = devs.pop()
        batch = next((v.batch for v, _ in tensors if v.batch is not None), None)
        grad = any(v.grad for v, _ in tensors)
        out = any(v.module_output for v, _ in tensors)
        # A CPU value derived from one factory keeps it: a fix at the factory moves it too.
        made = {id(v.factory): v for v, _ in tensors if v.factory is not None}
        factory = random = None
        if len(made) == 1 and result_dev is not None and result_dev.is_cpu and len(tensors) == 1:
            source = next(iter(made.values()))
            factory, random = source.factory, source.random
        return TensorV(result_dev, origin=node, batch=batch, grad=grad, module_output=out,
                       factory=factory, random=bool(random))

    def check_operands(self, node, operands: list) -> bool:
        """Emit a conflict for the first CPU/accelerator pair; True if one was found."""
        cpu = other = None
        for value, vnode in operands:
            value = _as_tensor(value, vnode) if isinstance(value, (PlacedV, BatchV)) else value
            if not isinstance(value, TensorV) or value.dev is None or value.rank == 0:
                continue
            if value.dev.is_cpu:
                cpu = cpu or (value, vnode)
            elif other is None or (other[0].dev.kind != ACCEL_KIND and value.dev.kind == ACCEL_KIND):
                other = (value, vnode)
        if cpu is None or other is None:
            # Two different explicit accelerators (cuda:0 vs cuda:1) also raise.
            accels = [(v, n) for v, n in operands if isinstance(v, TensorV) and v.dev is not None and v.dev.kind == ACCEL_KIND]
            for i in range(1, len(accels)):
                if devices_conflict(accels[0][0].dev, accels[i][0].dev):
                    self.emit("conflict", Conflict(node, "op", accels[i][0], accels[i][1], accels[0][0], accels[0][1], accels[0][0].dev))
                    return True
            return False
        if other[0].dev.kind == ACCEL_KIND or other[0].dev is SELF_DEV or other[0].dev.kind == "self":
            self.emit("conflict", Conflict(node, "op", cpu[0], cpu[1], other[0], other[1], other[0].dev))
            return other[0].dev.kind == ACCEL_KIND
        return False

    # -- calls -----------------------------------------------------------------
    def expr_Call(self, node: ast.Call) -> Value:
        recv = self.eval(node.func.value) if isinstance(node.func, ast.Attribute) else None
        return self.eval_call(node, recv_value=recv)

    def eval_call(self, node: ast.Call, recv_value: Optional[Value] = None) -> Value:
        return dispatch_call(self, node, recv_value)

    def eval_args(self, node: ast.Call) -> tuple[list, dict]:
        """The values of a call's arguments: positional, and keyword (`**x` as `"**<n>"`)."""
        args = [self.eval(a) for a in node.args]
        kwargs = {}
        for k in node.keywords:
            value = self.eval(k.value)
            kwargs[k.arg if k.arg is not None else f"**{len(kwargs)}"] = value
        return args, kwargs


def _int_like(node) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _int_like(node.operand)
    if isinstance(node, ast.BinOp):
        return _int_like(node.left) or _int_like(node.right)
    return isinstance(node, (ast.Name, ast.Attribute)) and not isinstance(node, ast.Starred)


def _reads_tensor_device(node) -> bool:
    """`x.device`, `a.device if c else b.device`, `x.get_device()`: a tensor's own device."""
    if node is None:
        return False
    return any(isinstance(n, ast.Attribute) and n.attr in ("device", "get_device") and not (
        isinstance(n.value, ast.Name) and n.value.id in CONFIG_OBJECT_NAMES) for n in ast.walk(node))


def _as_tensor(value: Value, node) -> TensorV:
    if isinstance(value, PlacedV):
        return value.as_tensor()
    if isinstance(value, BatchV):
        return value.element(node)
    return value


_DISPATCH = {
    getattr(ast, name[5:]): getattr(ExpressionEvaluator, name)
    for name in dir(ExpressionEvaluator)
    if name.startswith("expr_") and hasattr(ast, name[5:])
}
