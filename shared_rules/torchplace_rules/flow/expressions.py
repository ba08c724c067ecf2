"""Expression semantics of the device-flow analysis: what each expression
evaluates to, and where tensors meet (the `conflict` events).  A call is
handed to `calls.dispatch_call`."""
from __future__ import annotations

import ast
import operator
import re
from dataclasses import replace
from pathlib import Path
from typing import Optional

from . import torch_api as api
from ..flag_writes import binds_locally, declares_global, flag_may_be_rebound
from ..syntax_nodes import access_path, call_rebinding_own_name, element_node, is_main_test, scope_nodes, writes_items
from .calls import dispatch_call
from .iteration_protocol import protocol_iterable
from .container_values import concatenated, merged_mapping, repeated
from .contexts import default_value, lambda_function, static_lambda
from .project_calls import find_method, property_value, self_attribute
from .ranks import broadcast_rank, floor, subscript_rank
from .torch_methods import setitem_conflicts
from .torch_placement import unplace_parameter_owners
from .cross_file import LazyImportV, ProjectModuleV, home_elsewhere, module_dict_item
from .devices import (
    ACCEL_KIND, CPU_KIND, RUNTIME, SELF_DEV, SELF_KIND, Dev, chosen_target, devices_conflict, index_dependent,
    mac_conflict, mac_kind,
    parse_device_string, picks_current_device, runtime_device,
)
from .class_model import NAMESPACE_INFO
from .class_tests import class_test_answer
from .command_line import flag_default
from .events import Conflict
from .optimizers import optimizer_attribute, unlink_rebound
from .placeholders import filled_value
from .star_arguments import spread_display
from .state import NotYetSet, forget_aliases, held_values, moves_its_items, with_stored_items
from .values import (
    MEMBERS, SELF_MOVED,
    AcceleratorAvailable,
    FALSE, NONE, NUMBER, IntV, Number, TRUE, UNKNOWN, BatchV, BoundMethodV, ClassV, DatasetV, DeviceV, DictV, FlagV, FuncV, ModuleV, NumpyV, ObjectV, PlacedV, QualV,
    OptimizerV, SelfV, SeqV, TensorV, TextV, Value, attrs_get, iteration_element, join_all, unproven, PROVEN as _PROVEN,
)

# Attributes of a tensor that are no tensors (a module's output may be an object with tensor fields).
TENSOR_METADATA = {"shape", "dtype", "ndim", "is_cuda", "is_sparse", "requires_grad", "layout", "names", "is_leaf",
                   "itemsize", "nbytes", "is_quantized", "is_meta"}
CONFIG_OBJECT_NAMES = {"args", "opt", "opts", "cfg", "config", "conf", "hparams", "hp", "params", "settings",
                       "FLAGS", "flags", "options", "training_args", "train_args", "cmd_args"}


def _not_yet_set(frame, target: ast.Attribute) -> Optional[NotYetSet]:
    """`self.name = ...` in `__init__`, before anything bound it there: a `NotYetSet` if the class
    lets nothing else set it."""
    func, cls = frame.func, frame.cls
    if cls is None or func is None or func.name != "__init__" or not func.args.args \
            or not isinstance(target.value, ast.Name) or target.value.id != func.args.args[0].arg:
        return None
    return NotYetSet(lambda: cls.set_only_in_init(target.attr))


# the unary operators that map a number to a number (`not` gives a bool, a flag here)
_NUMBER_SIGNS = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}


class ExpressionEvaluator:
    """Mixed into `Analyzer` (`driver.py`); relies on its frame, `lookup` and `emit`."""

    # -- paths and names -----------------------------------------------------
    def path_of(self, node) -> Optional[str]:
        """The access path `node` names (`x`, `self.encoder.weight`, `batch["x"]`), None for other
        expressions.  It depends on the node alone: kept on it after the first time."""
        if node.__class__ is ast.Name:
            return node.id
        path = getattr(node, "_tp_path", _UNSET)  # (a default, not `except AttributeError`: no exception made)
        if path is _UNSET:
            path = access_path(node)
            if isinstance(node, ast.AST):
                node._tp_path = path
        return path

    def qualname(self, node) -> Optional[str]:
        value = self.eval(node)
        return value.name if isinstance(value, QualV) else None

    # -- binding -------------------------------------------------------------
    def bind(self, target, value: Value, value_node) -> None:
        if target.__class__ in (ast.Tuple, ast.List):
            elts = target.elts
            if isinstance(value, SeqV) and value.items is not None and len(value.items) == len(elts) \
                    and not any(isinstance(e, ast.Starred) for e in elts):
                items = value.items
            elif isinstance(value, SeqV):
                items = [value.element()] * len(elts)
            elif isinstance(value, BatchV):
                items = [value.element(target)] * len(elts)
            elif isinstance(value, TensorV) and value.dev is not None:
                # unbinding a tensor (or a tuple a module returned: each part may be any object)
                items = [replace(value, rank=None, factory=None, min_rank=0, part=value.module_output)] * len(elts)
            elif isinstance(value, ModuleV) and value.layer in ("ModuleList", "Sequential") and value.items is not None:
                items = value.members(len(elts)) or [value.member()] * len(elts)  # `attn, ffn = pair`
            else:
                items = [UNKNOWN] * len(elts)
            nodes = value_node.elts if isinstance(value_node, (ast.Tuple, ast.List)) and len(value_node.elts) == len(elts) else [None] * len(elts)
            # (a name unpacked from a comprehension is one of its elements: `(device,) = {x.device for x in xs}`)
            each = element_node(value_node) if value_node is not None and nodes and nodes[0] is None else None
            for elt, item, item_node in zip(elts, items, nodes):
                if elt.__class__ is ast.Starred:
                    self.bind(elt.value, UNKNOWN, None)
                else:
                    self.bind(elt, item, item_node if item_node is not None or elt.__class__ is not ast.Name else each)
            return
        path = self.path_of(target)
        if target.__class__ is ast.Subscript:
            base = self.eval(target.value)
            index = self.eval(target.slice)
            if base.__class__ is NumpyV:
                self.emit("numpy_store", target, base, index, value, value_node)
            elif isinstance(base, TensorV) and base.batch is None:  # x[mask] = values: PyTorch checks values (index_put_)
                setitem_conflicts(self, target, base, index, value, value_node)
                # An item written into a tensor is copied there: `x[0]` stays on x's device, whatever
                # `value`'s is (in-place writes never move a tensor), so no path remembers `value`.
                self.frame.env.pop(path, None)
                return
        elif target.__class__ is ast.Attribute:
            if self.eval(target.value).__class__ is ProjectModuleV:
                self.write_module_attribute(target, value)
            unplace_parameter_owners(self, target, value, value_node)
        if path is None:
            if isinstance(target, ast.Subscript):
                self.forget_container(target.value, value, target.slice)
                if target.slice.__class__ is ast.Name and isinstance(base, (DictV, SeqV)):
                    self.store_under_name(target, value)
                refills = self.refills
                if refills is not None and id(target) in refills:  # `for k, v in d.items(): d[k] = ...`
                    known = refills[id(target)]
                    refills[id(target)] = value if known is None else known.join(value)
            return
        env = self.frame.env
        keyed = self.frame.keyed
        if keyed is not None:
            if target.__class__ is ast.Name:
                if target.id in keyed:  # another key: the items stored under the old one are not `d[k]` now
                    marker = f"[<{target.id}>]"
                    for k in [k for k in env if k.endswith(marker)]:
                        del env[k]
            elif target.__class__ is ast.Subscript:  # `d["a"] = v` may be the item stored under a name key
                stale = self.path_of(target.value)
                if stale is not None:
                    for k in [k for k in env if k.startswith(stale + "[<")]:
                        del env[k]
        if isinstance(target, ast.Name):
            if value.__class__ is SelfV and value is env.get(path):  # `self = self.to(device)`: the same object
                return
            value = self.name_binding(target.id, value, value_node)
        elif isinstance(target, ast.Attribute):
            if path not in env and path not in self.frame.before:
                prior = self.eval(target)  # what a path not taken still sees
                if prior is UNKNOWN:
                    prior = _not_yet_set(self.frame, target) or prior
                self.frame.before[path] = prior
            self.frame.assigned[path] = self.current_stmt
            moved = path.partition(".")[0] + "." + SELF_MOVED
            if moved in env and (isinstance(value, (ModuleV, PlacedV)) or isinstance(value, TensorV) and value.grad):
                env[moved] = UNKNOWN  # a layer or parameter made after `self.to(device)` is not moved by it
        held = env.get(path)
        if held is not None and held is not value and held.__class__ in (ModuleV, PlacedV):
            unlink_rebound(self, path)  # another module than the optimizers hold (`model = model.cuda()` is the same)
        prefixes = (path + ".", path + "[")
        stale = [k for k in env if path in k and k.startswith(prefixes)] if len(env) < 400 or "." in path else ()
        for key in stale:
            del env[key]
        env[path] = value

    def forget_container(self, node, stored: Value = UNKNOWN, key=None) -> None:
        """`features[i][key] = v`: an item stored under a key the analysis cannot follow changes
        what the container holds (a tensor written in place keeps its device).  Stored straight
        into a list (`cores[d] = v`, one item, not a slice), every item is what it was or `v`."""
        direct = True
        while isinstance(node, ast.Subscript) and self.path_of(node) is None:
            node, direct = node.value, False
        path = self.path_of(node)
        if path is None:
            return
        value = self.eval(node)
        if isinstance(value, TensorV) and value.batch is None or value.__class__ is NumpyV:
            return  # (an array written into stays an array, of its dtype: NumPy converts what is stored)
        env = self.frame.env
        for k in [k for k in env if path in k and k.startswith((path + ".", path + "["))]:
            del env[k]
        if path not in env and self.frame.kind != "module" and value.__class__ is DictV and path not in self.frame.before \
                and path.isidentifier():
            self.frame.before[path] = value  # (a module's dict filled here: a path that does not store still reads it)
        env[path] = _with_item_stored(value, stored) if direct and key.__class__ is not ast.Slice else UNKNOWN

    def store_under_name(self, target: ast.Subscript, value: Value) -> None:
        """`d[k] = v` into a dict or list, `k` a name: `d[k]` reads `v` back until `d` or `k` is bound
        again (the path `d[<k>]`; `forget_container` has dropped what `d` held under other keys)."""
        base = self.path_of(target.value)
        if base is None:
            return
        frame = self.frame
        frame.env[f"{base}[<{target.slice.id}>]"] = value
        if frame.keyed is None:
            frame.keyed = set()
        frame.keyed.add(target.slice.id)

    def name_binding(self, name: str, value: Value, value_node=None) -> Value:
        """Device variables take their name, so fixes can say `device`.  A name
        like `device` bound to an unknown configuration value is the target
        accelerator; bound to some tensor's `.device` it is that tensor's device."""
        if value.__class__ is DeviceV:
            if value.dev.kind == ACCEL_KIND:
                self.targets_accelerator = True
            return replace(value, dev=replace(value.dev, expr=name))
        if (value is UNKNOWN or value is NONE or value is NUMBER or value.__class__ is IntV) and name in self.device_names \
                and not _reads_tensor_device(value_node) and not self.returns_tensor_device(value_node):
            prior = self.frame.env.get(name)
            if (prior is NONE or prior is UNKNOWN) and call_rebinding_own_name(self.current_stmt, name):
                return value  # what a helper makes of a `device=None` it was handed: the default device, not known
            self.targets_accelerator = True
            return DeviceV(Dev(ACCEL_KIND, "target", name, assumed=True))
        return value

    def returns_tensor_device(self, node) -> bool:
        """A call of a project function or method whose every `return` reads a tensor's own device
        (`def device_of(self, x): return x.device`): what it gives is that tensor's device, as the
        same read written in place would be, not a configuration value, even where the analysis
        does not know which tensor it is."""
        if node.__class__ is not ast.Call:
            return False
        func = node.func
        if func.__class__ is ast.Name:
            callee = self.lookup(func.id)
        elif func.__class__ is ast.Attribute and func.value.__class__ is ast.Name:
            found = find_method(self.lookup(func.value.id), func.attr)
            callee = found[0] if found is not None else None
        else:
            return False
        if callee.__class__ is not FuncV:
            return False
        nodes = list(scope_nodes(callee.node))
        returns = [n.value for n in nodes if n.__class__ is ast.Return]
        return bool(returns) and all(_reads_own_device(r) or _bound_to_tensor_device(r, callee.node, nodes) for r in returns)

    # -- truth of conditions -------------------------------------------------
    def assumed_truth(self, test) -> Optional[bool]:
        """The test of an `if`, evaluated once: True where it is taken as true — `torch.cuda.is_available()`
        (and friends), or a name holding what it returned (`CUDA = torch.cuda.is_available()` ... `if CUDA:`)."""
        if test.__class__ is ast.UnaryOp and test.op.__class__ is ast.Not:
            inner = self.assumed_truth(test.operand)
            return None if inner is None else not inner
        if test.__class__ is ast.Call and not test.args and self.qualname(test.func) in api.CUDA_AVAILABILITY:
            return True
        if test.__class__ is ast.BoolOp:
            # `a and b`: false where one operand is, true where all are (operands after the deciding
            # one are not run, as Python does not run them); `or` the other way round
            stop = isinstance(test.op, ast.Or)
            answers = []
            for operand in test.values:
                answer = self.assumed_truth(operand)
                if answer is stop:
                    return stop
                answers.append(answer)
            return None if None in answers else not stop
        known = self.known_answer(test)
        if known is not None:
            return known
        return True if self.eval(test).__class__ is AcceleratorAvailable else None

    def mac_truth(self, test) -> Optional[bool]:
        """What an availability test answers on a machine with MPS and no CUDA (`torch.cuda.is_available()`
        False, `torch.backends.mps.is_available()` True); None for any other test."""
        if test.__class__ is ast.UnaryOp and test.op.__class__ is ast.Not:
            inner = self.mac_truth(test.operand)
            return None if inner is None else not inner
        if test.__class__ is ast.Call and not test.args:
            return api.MAC_ANSWERS.get(self.qualname(test.func))
        if test.__class__ is ast.Name or test.__class__ is ast.Attribute:  # `CUDA = torch.cuda.is_available()`
            value = self.frame_bound(test) if test.__class__ is ast.Attribute else self.eval(test)
            return value.mac if value.__class__ is AcceleratorAvailable else None
        return None

    def known_answer(self, test) -> Optional[bool]:
        """Tests whose answer the values give exactly: `x is None` for a local name that is None on
        every path, `t.is_cuda` / `t.is_cpu` / `t.is_mps` for a tensor whose device type is known,
        `isinstance(v, torch.Tensor / dict)` for a value whose kind is known.  None: not known."""
        if test.__class__ is ast.Compare and self.frame.kind == "module" and is_main_test(test) \
                and self.lookup("__name__") is UNKNOWN:
            # `if __name__ == "__main__":` runs where the file is the program: the file checked, or an
            # importer followed for what it passes (its own program); not a module read for what it defines
            return self.outgoing is not None or not getattr(self, "summary_depth", 0)
        narrowed = none_test(test)
        if narrowed is not None:
            # a local name or parameter, or an attribute path this frame bound itself (`self.device = device`
            # ... `if self.device is not None:`): an attribute or a global bound elsewhere may be set elsewhere
            value = self.frame_bound(test.left)
            if value is None and test.left.__class__ is ast.Attribute:
                value = self.receiver_held(test.left)
            if value is NONE:
                return narrowed[1]
            if isinstance(value, (DeviceV, SeqV, ModuleV)) and value.not_none or value.__class__ is TextV or value.__class__ is IntV:
                return not narrowed[1]  # (made on every path, a string, an int: not None)
            return None
        if test.__class__ is ast.Constant:  # `if True:`, `if 0:`
            return bool(test.value)
        if isinstance(test, (ast.Name, ast.Attribute)):
            # `if model:` / `if not model:`: a model made on every path is true (nn.Module has no
            # __bool__ or __len__; the containers, empty, are false, and a project class may define them)
            value = self.frame_bound(test)
            if value is None and test.__class__ is ast.Attribute:
                value = self.held_flag(test)
            elif value is None and self.frame.kind == "module":
                value = self.module_flag(test)
            if value is None and self.frame.kind != "module":
                value = self.global_flag(test)
            if value.__class__ is FlagV:  # `first = True` ... `if first:`
                return value.truth
            if value.__class__ is IntV and self.exact_int(value):  # `use_gpu = 1` ... `if use_gpu:`
                return value.n != 0
            if value.__class__ is ModuleV and value.not_none and value.cls is None and value.layer is None:
                return True
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _CONSTANT_TESTS):
            answer = self._constant_test(test.left, test.ops[0], test.comparators[0])
            if answer is not None:
                return answer
        if test.__class__ is ast.Attribute and test.attr in _DEVICE_TYPE_TESTS:
            value = self.eval(test.value)
            dev = value.dev if isinstance(value, TensorV) else None
            if dev is not None and dev.kind == SELF_KIND:
                # "the module's device": decided where this call context has the module on an accelerator
                # (on the CPU the test stays open: what the module does once moved is still in question)
                placed = self.frame.self_dev
                dev = placed if placed is not None and placed.kind == ACCEL_KIND else None
            kind = device_type(dev) if dev is not None else None
            return None if kind is None else kind == _DEVICE_TYPE_TESTS[test.attr]
        if test.__class__ is ast.Call and test.func.__class__ is ast.Name and test.func.id == "isinstance" \
                and len(test.args) == 2 and not test.keywords and self.lookup("isinstance") is UNKNOWN:
            return self._isinstance_answer(self.eval(test.args[0]), test.args[1])
        if test.__class__ is ast.Call and len(test.args) == 1 and not test.keywords \
                and test.func.__class__ is ast.Attribute and test.func.attr == "is_tensor" \
                and self.qualname(test.func) == "torch.is_tensor":  # (`isinstance(obj, torch.Tensor)`)
            return self._tensor_answer(self.eval(test.args[0]))
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], _TYPE_TESTS) \
                and isinstance(test.left, ast.Call) and isinstance(test.left.func, ast.Name) and test.left.func.id == "type" \
                and len(test.left.args) == 1 and not test.left.keywords and self.lookup("type") is UNKNOWN:
            # `type(v) is list`: False where v cannot be one at all (a subclass's type is not the class,
            # so only "no" carries over from isinstance)
            if self._isinstance_answer(self.eval(test.left.args[0]), test.comparators[0]) is False:
                return isinstance(test.ops[0], (ast.IsNot, ast.NotEq))
        if test.__class__ is ast.Compare and test.left.__class__ is ast.Subscript or test.__class__ is ast.Call:
            return class_test_answer(self, test)  # `layer.__bases__[0] is T`, `issubclass(layer, T)`
        return None

    def device_narrowing(self, test) -> Optional[tuple]:
        """A test that tells where a device value or a tensor is (`device == "cpu"`, `device.type ==
        "cuda"`, `str(device) == "cpu"`, `device == torch.device("cpu")`, `t.is_cuda`, `t.device.type
        == "cpu"`, negated by `not` / `!=`): (subject node, is it a tensor, what the body learns, what
        the else branch learns), each "cpu" (not on an accelerator), "accel" (on one) or None."""
        found = getattr(test, "_tp_device_test", _UNSET)  # (syntax alone: kept on the node)
        if found is _UNSET:
            found = test._tp_device_test = _device_test(test)
        if found is None:
            return None
        if found is _NAMED_TEST:
            return self._named_device_test(test)
        subject, body, orelse = found[:3]
        if len(found) == 4 and self.qualname(found[3].func) != "torch.device":
            return None
        if subject.__class__ is ast.Attribute and subject.attr == "device" \
                and isinstance(self.eval(subject.value), (TensorV, PlacedV)):
            return subject.value, True, body, orelse
        # (`t.is_cuda`: t is a tensor whatever the analysis knows of it)
        return subject, _negations(test)[0].__class__ is ast.Attribute or isinstance(self.eval(subject), TensorV), body, orelse

    def _named_device_test(self, test) -> Optional[tuple]:
        """`self.device == CPU_DEVICE`, `CPU_DEVICE = torch.device("cpu")`: a name holding the CPU
        (or "cuda") on every path on one side, a device or tensor's `.device` on the other."""
        test, negated = _negations(test)
        negated ^= test.ops[0].__class__ is ast.NotEq
        for subject, other in ((test.left, test.comparators[0]), (test.comparators[0], test.left)):
            known = self.eval(other)
            if known.__class__ is DeviceV and (known.dev.is_cpu or known.dev.kind == ACCEL_KIND and known.dev.label == "cuda"):
                learned = "cpu" if known.dev.is_cpu else "accel"
                found = self.device_narrowing(ast.Compare(subject, [ast.Eq()], [ast.Constant(learned.replace("accel", "cuda"))]))
                if found is None:
                    return None
                return found[:2] + ((found[3], found[2]) if negated else found[2:])
        return None

    def narrow_device(self, narrowing, learned: Optional[str]) -> Optional[dict]:
        """In a branch whose test says where a device (or a tensor) is, what the analysis took for
        an accelerator there is not known to be one ("cpu": the values on that device become
        unknown); a device or tensor it did not know is an accelerator ("accel").  Returns the paths
        changed, {path: (narrowed value, value before or None)}, for `restore_device`."""
        if learned is None:
            return None
        subject, tensor, _, _ = narrowing
        path = self.path_of(subject)
        if path is None:
            return None
        env = self.frame.env
        value = self.eval(subject)
        changed = {}
        if learned == "accel":
            if tensor and value.__class__ is TensorV and value.dev is None:
                narrowed = replace(value, dev=Dev(ACCEL_KIND, "target", path))
            elif not tensor and value is UNKNOWN:
                narrowed = DeviceV(Dev(ACCEL_KIND, "target", path))
            else:
                return None
            changed[path] = (narrowed, env.get(path))
            env[path] = narrowed
            return changed
        dev = value.dev if isinstance(value, (TensorV, DeviceV, PlacedV)) else None
        if dev is None or dev.kind == CPU_KIND:
            return None
        for key, held in list(env.items()):
            narrowed = _off_device(held, dev)
            if narrowed is not None:
                changed[key] = (narrowed, held)
                env[key] = narrowed
        if path not in changed:
            changed[path] = (UNKNOWN, env.get(path))
            env[path] = UNKNOWN
        return changed

    def restore_device(self, changed: dict) -> None:
        """After the branch: a value still as the test narrowed it is the value it was (the test
        changed what was known there, not the value)."""
        env = self.frame.env
        for key, (narrowed, before) in changed.items():
            if env.get(key) is narrowed:
                if before is None:
                    del env[key]
                else:
                    env[key] = before

    def _constant_test(self, left, op, right) -> Optional[bool]:
        """`name == "cuda"`, `name != "cpu"`, `name in ("cuda", "cpu")`: answered where `name` holds
        one string on every path (`known_text`) and the other side is a string literal (or a tuple,
        list or set of them); `ngpu > 0`, `num_gpus == 1`: where it holds one int (`IntV`) and the
        other side is an int literal."""
        if isinstance(op, (ast.In, ast.NotIn)):
            if not isinstance(right, (ast.Tuple, ast.List, ast.Set)) or not right.elts \
                    or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in right.elts):
                return None
            text = self.known_text(left)
            return None if text is None else (text in [e.value for e in right.elts]) == isinstance(op, ast.In)
        if isinstance(left, ast.Constant):
            left, right, op = right, left, _MIRRORED.get(op.__class__, op)
        if not isinstance(right, ast.Constant):
            return None
        if right.value.__class__ is int:  # `num_gpus == 1`, `ngpu > 0`: a name holding one int on every path
            value = self.frame_bound(left)
            if value is None and left.__class__ is ast.Name and self.frame.kind == "module":
                value = self.module_flag(left)
            elif value is None and self.frame.kind != "module":
                value = self.global_flag(left)
            return _INT_TESTS[op.__class__](value.n, right.value) if value.__class__ is IntV and self.exact_int(value) else None
        if not isinstance(right.value, str) or op.__class__ not in (ast.Eq, ast.NotEq):
            return None
        text = self.known_text(left)
        return None if text is None else (text == right.value) == isinstance(op, ast.Eq)

    def exact_int(self, value: IntV) -> bool:
        """May a test read the int a local name holds as exact?  Not in a file where a nested function
        may rebind it (`nonlocal count` ... `count += 1`); module code's names: `module_flag`."""
        text = self.src.text
        return self.frame.kind == "module" or "nonlocal" not in text or _NONLOCAL_STATEMENT.search(text) is None

    def known_text(self, node) -> Optional[str]:
        """The string a local name (or an attribute path this frame bound) holds on every path; also the
        item of a string key in a dict it holds (`params["name"]` of a caller's config literal)."""
        if node.__class__ is ast.Subscript and node.slice.__class__ is ast.Constant and node.slice.value.__class__ is str:
            held = self.frame_bound(node.value) if node.value.__class__ is ast.Name else None
            value = held.get(node.slice.value) if held.__class__ is DictV and held.items is not None \
                and not writes_items(self.frame.func, node.value.id) else None
        else:
            value = self.frame_bound(node)
        return value.text if value.__class__ is DeviceV or value.__class__ is TextV else None

    def frame_bound(self, node) -> Optional[Value]:
        """What a local name, or an attribute path this frame bound itself (`self.device = device`),
        holds here: the values a test may be answered from (None: neither, or module code, whose
        names other code may rebind)."""
        if self.frame.kind == "module":
            return None
        if isinstance(node, ast.Name):
            return self.frame.env.get(node.id)
        if isinstance(node, ast.Attribute):
            path = self.path_of(node)
            if path is not None and path in self.frame.assigned:
                return self.frame.env.get(path)
        return None

    def receiver_held(self, node: ast.Attribute) -> Optional[Value]:
        """`self.<name>` in a method run for a call whose receiver is known: what the instance held
        when the call was made (what its `__init__` left, or the caller or an earlier call bound since:
        a lazy cache still None at a first call, filled for the next).  None: no such call."""
        owner = node.value
        if owner.__class__ is not ast.Name or owner.id != "self" or self.frame.kind != "method":
            return None
        receiver = self.frame.env.get("self")
        if receiver.__class__ is not SelfV or receiver.attrs is None or ("self." + node.attr) in self.frame.env:
            return None
        return attrs_get(receiver.attrs, node.attr)

    def module_flag(self, node: ast.Name) -> Optional[Value]:
        """`use_cuda = True` ... `if use_cuda:` in module code: the flag the name holds on every path
        here.  Between the two only the module's own statements ran, and only a function declaring the
        name `global` can rebind it: none may in this file (another module's `mod.flag = ...` runs only
        after this module's code, which is what imports it)."""
        value = self.frame.env.get(node.id)
        return value if (value.__class__ is FlagV or value.__class__ is IntV) and not declares_global(self.src.text) else None

    def global_flag(self, node) -> Optional[Value]:
        """`GPU = True` (or `= 1`) at module level, then `if GPU:` in a function of the file, or `if
        settings.GPU:` for a project module's flag: decided as module code's test is, where nothing may
        rebind the flag before the function runs (`flag_writes`: a `global` statement, an attribute
        write `mod.GPU = ...` in the checked file, the flag's module or one of its importers)."""
        if self.module_env is not self.own_env or self.home is not None:
            return None  # (another file's function, run for a call: its flags are its module's business)
        if node.__class__ is ast.Name:
            name = node.id
            if name in self.frame.env or binds_locally(self.frame.func, name):
                return None
            value = self.lookup(name)
            home = Path(self.path) if self.path else None
        elif node.__class__ is ast.Attribute and node.value.__class__ is ast.Name and node.value.id not in self.frame.env:
            owner = self.lookup(node.value.id)
            if owner.__class__ is not ProjectModuleV or owner.file is None or self.project is None:
                return None
            name = node.attr
            value = owner.member(self, name, node)
            home = owner.file
        else:
            return None
        if not (value.__class__ is FlagV and not value.held or value.__class__ is IntV and self.exact_int(value)):
            return None
        if self.project is not None and self.recorder is not None:
            self.recorder.uncacheable = True  # (other files' text decided it: not a read the memo can check)
        # (one answer per flag and check: the scans read the flag's module and its importers from disk)
        known = self.__dict__.setdefault("_flags_rebound", {})
        key = (home, name, node.__class__ is ast.Name)
        if key not in known:
            home_text = self.file_src.text if node.__class__ is ast.Name else self.project.read(home)
            known[key] = flag_may_be_rebound(self.project, home, home_text, self.file_src.text, name)
        return None if known[key] else value

    def held_flag(self, node: ast.Attribute) -> Optional[Value]:
        """`self.on_gpu` in a method whose caller bound it before the call (a held flag, `FlagV`)."""
        owner = node.value
        if owner.__class__ is not ast.Name or self.frame.kind == "module":
            return None
        env = self.frame.env
        value = env.get(owner.id + "." + node.attr)
        if value is None:
            receiver = env.get(owner.id)
            if receiver.__class__ is not SelfV:
                return None
            value = attrs_get(receiver.attrs, node.attr)
        return value if value.__class__ is FlagV and value.held else None

    def _isinstance_answer(self, value: Value, kind_node) -> Optional[bool]:
        if value is UNKNOWN:
            return None
        if kind_node.__class__ is ast.Tuple:  # `isinstance(batch, (tuple, list))`: one of them
            answers = [self._isinstance_answer(value, kind) for kind in kind_node.elts]
            return True if True in answers else False if answers and all(a is False for a in answers) else None
        kind = self.qualname(kind_node)
        if kind == "torch.Tensor":
            return self._tensor_answer(value)
        if kind == "numpy.ndarray":  # (a tensor is no ndarray: `lib = np if isinstance(x, np.ndarray) else torch`)
            if isinstance(value, NumpyV):
                return True
            return False if value is NONE or isinstance(value, (Number, TensorV, SeqV, DictV, ModuleV)) else None
        if isinstance(kind_node, ast.Name) and kind_node.id in ("dict", "list", "tuple") \
                and self.lookup(kind_node.id) is UNKNOWN:  # the builtin, not a name rebound here
            if kind_node.id == "dict" and value.__class__ is DictV:
                return True
            if kind_node.id != "dict" and isinstance(value, DictV):
                return False  # (a mapping is no list or tuple)
            return False if value is NONE or isinstance(value, (Number, TensorV, ModuleV, NumpyV)) else None
        return None

    @staticmethod
    def _tensor_answer(value: Value) -> Optional[bool]:
        """Is `value` a tensor (`isinstance(v, torch.Tensor)`, `torch.is_tensor(v)`)?  None: not known."""
        if isinstance(value, TensorV):
            return True
        return False if value is NONE or isinstance(value, (Number, SeqV, DictV, NumpyV, ModuleV)) else None

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
        if node.value is None:
            return NONE
        if node.value.__class__ in (int, float):  # (a bool is no number here; parsing makes no other subclass)
            return NUMBER
        if node.value.__class__ is bool:  # a flag: `build(cuda=True)` decides the callee's `if cuda:`
            return TRUE if node.value else FALSE
        if node.value.__class__ is str:
            if 2 < len(node.value) < 12:
                dev = parse_device_string(node.value, node)
                if dev is not None:
                    return DeviceV(dev, True, node.value)
            if len(node.value) <= _MAX_TEXT:
                return TextV(node.value)
        return UNKNOWN

    def expr_Name(self, node: ast.Name) -> Value:
        value = self.frame.env.get(node.id)  # a local name (most reads): what `lookup` answers first, one call less
        if value is not None and type(value) is not LazyImportV and (self.recorder is None or not self.recorder.scan):
            return value
        return self.lookup(node.id)

    def expr_Attribute(self, node: ast.Attribute) -> Value:
        value = self.bound_path_value(node)
        if value is not None:
            if value.__class__ in _PROVEN and self.path_of(node) not in self.frame.assigned:
                return unproven(value)  # (bound where this frame did not see it: it may be rebound)
            return value
        base = self.eval(node.value)
        attr = node.attr
        if isinstance(base, QualV):
            member = base.member(self, attr, node) if hasattr(base, "member") else None
            return member if member is not None else QualV(f"{base.name}.{attr}")
        if base.__class__ is TensorV:
            if attr == "device":
                if base.dev is None:
                    return UNKNOWN
                text = self.src.segment(node)
                return DeviceV(replace(base.dev, expr=text if base.dev.kind != "cpu" else base.dev.expr), of_tensor=base)
            if attr in ("T", "mT", "H", "data", "real", "imag", "grad"):
                return replace(base, origin=node, factory=None, grad=base.grad and attr != "data")
            if base.module_output and attr not in TENSOR_METADATA:
                return TensorV(base.dev, origin=node, grad=base.grad, module_output=True)  # `out.logits`
            return UNKNOWN
        if base.__class__ is SeqV and base.fields is not None and attr in base.fields:
            return base.items[base.fields.index(attr)]  # `x.max(1).indices`
        if base.__class__ is SelfV:
            value = self_attribute(self, base, attr, node)
            return unproven(value) if value is not UNKNOWN else self.class_member(base, attr, node)
        if base.__class__ is OptimizerV:
            return optimizer_attribute(self, node, base)
        if base.__class__ is ObjectV:
            value = attrs_get(base.attrs, attr)
            if value is not None:
                return unproven(value if value is not NONE else filled_value(self, base.info, attr, value))
            if base.info is not NAMESPACE_INFO:
                return self.class_member(base, attr, node)
            base = UNKNOWN  # an option a namespace does not declare: read as any config object's
        if base.__class__ is ModuleV:
            if attr in ("weight", "bias") or (base.cls is not None and (attr in base.cls.params or attr in base.cls.buffers)):
                return TensorV(base.dev, origin=node, grad=True)
            if base.cls is not None and attr in base.cls.submodules:
                return ModuleV(base.dev, base.cls.submodules[attr], base.placed_at, base.cls.submodule_classes.get(attr))
            held = attrs_get(base.attrs, attr)
            if attr == "device" and base.dev is not None and held is None:
                # (a `self.device = ...` its `__init__` stored is what Python reads: nn.Module has no `device`)
                return DeviceV(replace(base.dev, expr=self.src.segment(node)))
            if isinstance(held, ModuleV):  # a module it holds is its submodule: it moved with it
                return replace(held, dev=base.dev, placed_at=base.placed_at)
            if held is not None:
                return unproven(held)
            return self.class_member(base, attr, node) if base.cls is not None else UNKNOWN
        if base.__class__ is ClassV:
            value = base.info.class_values.get(attr)
            return unproven(default_value(value)) if value is not None else UNKNOWN
        if base.__class__ is PlacedV and attr == "device":
            return DeviceV(replace(base.dev, expr=self.src.segment(node)))
        if attr == "device" and base is UNKNOWN and node.value.__class__ is ast.Attribute \
                and node.value.value.__class__ is ast.Name and self.eval(node.value.value).__class__ is PlacedV:
            # `data.x.device` of an object `.to(dev)` placed (a torch_geometric Data): what it holds moved with it
            return DeviceV(replace(self.eval(node.value.value).dev, expr=self.src.segment(node)))
        if attr in self.device_names and base is UNKNOWN and isinstance(node.value, ast.Name) \
                and (node.value.id in CONFIG_OBJECT_NAMES or (node.value.id == "self" and self.frame.cls is None)):
            self.targets_accelerator = True
            return DeviceV(Dev(ACCEL_KIND, "target", self.src.segment(node), assumed=True))
        return UNKNOWN

    def write_module_attribute(self, target: ast.Attribute, value: Value) -> None:
        """`pkg.name = v` for a project module `pkg` (`flair.device = torch.device("cuda:1")`): the code
        of the other files the program runs afterwards reads `v` there.  Only a statement of the top
        level that runs unconditionally says what; elsewhere (a branch, a function) the value is unknown
        from then on.  The contexts analysed before were for the old value."""
        module = self.eval(target.value)
        top = self.frame.kind == "module" and any(s is self.current_stmt for s in self.tree.body)
        if self.module_writes is None:
            self.module_writes = {}
        self.module_writes[(module.file, target.attr)] = value if top else UNKNOWN
        self.contexts = {}

    def class_member(self, receiver: Value, name: str, node: ast.Attribute) -> Value:
        """`obj.name` that is no attribute value: a property's value, a bound method, a class constant."""
        prop = property_value(self, receiver, name, node, self.path_of(node.value))
        if prop is not None:
            return prop
        found = find_method(receiver, name)
        if found is not None:
            return BoundMethodV(found[0], receiver)
        info = receiver.cls if receiver.__class__ is ModuleV else receiver.info
        value = info.class_values.get(name) if info is not None else None
        if value is None:
            return UNKNOWN
        return static_lambda(info, value) or unproven(default_value(value))

    def expr_Subscript(self, node: ast.Subscript) -> Value:
        value = self.bound_path_value(node)
        if value is None and node.slice.__class__ is ast.Name and self.frame.keyed is not None:
            value = self.item_under_name(node)
        if value is not None:
            return unproven(value)  # (an item of a container some callee may have changed)
        if node.value.__class__ is ast.Attribute and node.value.attr == "__dict__":
            member = module_dict_item(self, node)  # (`vits.__dict__["vit_large"]`: the project module's member)
            if member is not None:
                return member
        base = self.eval(node.value)
        index = self.eval(node.slice)
        if base.__class__ is PlacedV and (node.slice.__class__ in (ast.Tuple, ast.Slice)
                                          or isinstance(index, (TensorV, PlacedV, BatchV))):
            base = base.as_tensor()  # (`x.to(dev)[:, 0]`, `x.to(dev)[mask]`: only a tensor takes these)
        if base.__class__ is TensorV:
            if (index.__class__ is TextV or node.slice.__class__ is ast.Constant and node.slice.value.__class__ is str) \
                    and (base.part or not base.module_output):
                # a tensor takes no string key (`t["preds"]` raises): no tensor, nor a part of a module's
                # output tuple (a dict the forward built); a whole output may be a mapping (`out["logits"]`)
                return UNKNOWN
            if isinstance(index, (PlacedV, BatchV)):
                index = _as_tensor(index, node.slice)
            # CPU indices may index an accelerator tensor; the reverse raises (`x[i]`, and each tensor of `x[:, mask]`)
            if base.dev is not None and base.dev.is_cpu and base.rank != 0:
                indices = [(index, node.slice)]
                if isinstance(index, SeqV) and index.items is not None and isinstance(node.slice, ast.Tuple) \
                        and len(index.items) == len(node.slice.elts):
                    indices = [(i, n) for i, n in zip(index.items, node.slice.elts) if isinstance(i, TensorV)]
                for index_value, index_node in indices:
                    if isinstance(index_value, TensorV) and index_value.dev is not None \
                            and index_value.dev.kind in (ACCEL_KIND, "self") and index_value.rank != 0:
                        # (a 0-dim integer index is read as a number, `.item()`: `cpu[t]` runs, t on any device)
                        # (indices on the module's device: the rule reports it where that device is an accelerator)
                        self.emit("conflict", Conflict(node, "index", base, node.value, index_value, index_node,
                                                       index_value.dev))
                        break
            rank, least = subscript_rank(base, node.slice, index)
            # (a slice of a plain attribute's tensor that is never 0-dim is still what `.to()` left behind:
            # `self.pe[:, :n]`)
            plain = base.plain_attr if base.plain_attr is not None and least >= 1 else None
            return TensorV(base.dev, origin=node, rank=rank, batch=base.batch, grad=base.grad, module_output=base.module_output,
                           min_rank=least, plain_attr=plain)
        if base.__class__ is BatchV:
            return base.element(node)
        if base.__class__ is ModuleV and base.layer in ("ModuleList", "Sequential", "ModuleDict"):
            index = node.slice.value if isinstance(node.slice, ast.Constant) and type(node.slice.value) is int else None
            return base.member(node, index)
        if base.__class__ is SelfV and base.info.container is not None and base.info.find_method("__getitem__") is None:
            # `self[0]` in a subclass of nn.Sequential / ModuleList / ModuleDict: a member (or a slice of
            # them), registered by `super().__init__(...)`: it is where the instance is
            path = self.path_of(node.value)
            members = self.frame.env.get(path + "." + MEMBERS) if path is not None else None
            if members is None:
                members = attrs_get(base.attrs or (), MEMBERS)
            index = node.slice.value if isinstance(node.slice, ast.Constant) and type(node.slice.value) is int else None
            if base.info.changes_members() or index is None or members.__class__ is SeqV and not (
                    members.items and -len(members.items) <= index < len(members.items)):
                members = None  # (members added later, a slice, a key or an index past them: not known)
            return ModuleV(SELF_DEV, True, node, None, items=members, layer=base.info.container).member(node, index)
        if base.__class__ is SeqV:
            if base.items is not None and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
                try:
                    return unproven(base.items[node.slice.value])
                except IndexError:
                    return UNKNOWN
            return base.element() if not isinstance(node.slice, ast.Slice) else base
        if isinstance(base, DictV):
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                return unproven(base.get(node.slice.value))
            if index.__class__ is TextV:  # `batch[self.input_key]`, the key a string held on every path
                return unproven(base.get(index.text))
            return base.elem
        if base.__class__ is DatasetV and base.dev is not None:
            return SeqV(None, TensorV(base.dev, origin=node))
        if isinstance(base, NumpyV):
            return NumpyV(base.dtype)
        return UNKNOWN

    def expr_BinOp(self, node: ast.BinOp) -> Value:
        left = self.eval(node.left)
        right = self.eval(node.right)
        if left.__class__ is DeviceV and type(node.op) is ast.Add and isinstance(node.left, ast.Constant):
            dev = runtime_device(node.left.value, node)  # "cuda:" + args.gpu, as f"cuda:{gpu}"
            return DeviceV(dev) if dev is not None else UNKNOWN
        op = node.op.__class__
        if left.__class__ is SeqV or right.__class__ is SeqV:
            if op is ast.Add:
                joined = concatenated(left, right)  # `losses + [loss]`
            elif op is ast.Mult:  # `[h0] * num_layers`
                joined = repeated(left, right) if left.__class__ is SeqV else repeated(right, left)
            else:
                joined = None
            if joined is not None:
                return joined
        if op is ast.BitOr and isinstance(left, DictV) and isinstance(right, DictV):  # `defaults | overrides`
            return merged_mapping([(None, self.stored_mapping(node.left, left)),
                                   (None, self.stored_mapping(node.right, right))])
        return self.combine(node, [(left, node.left), (right, node.right)])

    def expr_Compare(self, node: ast.Compare) -> Value:
        values = [(self.eval(node.left), node.left)] + [(self.eval(c), c) for c in node.comparators]
        if any(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return UNKNOWN
        result = self.combine(node, values)
        return replace(result, dtype="bool", grad=False) if isinstance(result, TensorV) else result

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Value:
        value = self.eval(node.operand)
        if value.__class__ is TensorV:
            return replace(value, origin=node)
        sign = _NUMBER_SIGNS.get(node.op.__class__)
        if sign is not None and isinstance(value, Number):
            # `-1e4`, `-LARGE_NUMBER`: still a number, so `torch.ones(n) * -LARGE_NUMBER` stays on the
            # factory's device and keeps the factory (TP202 reports it there)
            return IntV(sign(value.n)) if value.__class__ is IntV else NUMBER
        return UNKNOWN

    def expr_BoolOp(self, node: ast.BoolOp) -> Value:
        values = [self.eval(v) for v in node.values]
        if node.op.__class__ is ast.And and any(v.__class__ is AcceleratorAvailable for v in values) \
                and all(v.__class__ is AcceleratorAvailable or self._option_on_by_default(e) for v, e in zip(values, node.values)):
            # `not args.no_cuda and torch.cuda.is_available()`: true wherever an accelerator is, with the
            # command line's defaults (as `torch.cuda.is_available()` alone is taken as true)
            return join_all(v for v in values if v.__class__ is AcceleratorAvailable)
        return join_all(values)

    def _option_on_by_default(self, node) -> bool:
        """`args.cuda` / `not args.no_cuda`: a boolean option of a parsed command line that is true
        when the command line does not give it."""
        negated = node.__class__ is ast.UnaryOp and node.op.__class__ is ast.Not
        if negated:
            node = node.operand
        if node.__class__ is not ast.Attribute:
            return False
        default = flag_default(self.eval(node.value), node.attr)
        return default is not None and default is not negated

    def expr_IfExp(self, node: ast.IfExp) -> Value:
        assumed = self.assumed_truth(node.test)
        if assumed is not None:
            taken = self.eval(node.body if assumed else node.orelse)
            if taken.__class__ is DeviceV and taken.dev.kind == ACCEL_KIND and self.mac_truth(node.test) is (not assumed):
                # `"cuda" if torch.cuda.is_available() else "cpu"`: on a machine with MPS and no CUDA, the other one
                other = self.eval(node.orelse if assumed else node.body)
                kind = mac_kind(other.dev) if other.__class__ is DeviceV else None
                if kind is not None:
                    return replace(taken, dev=replace(taken.dev, mac=kind))
            return taken
        narrowed = none_test(node.test)
        if narrowed is not None and narrowed[0] in self.frame.env:
            # `x if x is None else x.cuda()`: where the test says None, x is None
            name, none_when_true = narrowed
            env, saved = self.frame.env, self.frame.env[name]
            env[name] = NONE
            try:
                in_none = self.eval(node.body if none_when_true else node.orelse)
            finally:
                env[name] = saved
            other = self.eval(node.orelse if none_when_true else node.body)
            body, orelse = (in_none, other) if none_when_true else (other, in_none)
        else:
            body, orelse = self.eval(node.body), self.eval(node.orelse)
        if isinstance(body, DeviceV) and isinstance(orelse, DeviceV):
            target = chosen_target(body.dev, orelse.dev)
            if target is not None:
                # "cuda" if x.is_cuda else "cpu": x's device (an accelerator when x is on one)
                if isinstance(node.test, ast.Attribute) and node.test.attr == "is_cuda" and body.dev.kind == ACCEL_KIND:
                    tested = self.eval(node.test.value)
                    return DeviceV(tested.dev) if isinstance(tested, TensorV) and tested.dev is not None else UNKNOWN
                # "cuda" if use_gpu else "cpu": the program targets the accelerator.
                return DeviceV(target)
        return body.join(orelse)

    def expr_Tuple(self, node) -> Value:
        if any(e.__class__ is ast.Starred for e in node.elts):
            return spread_display(node.elts, [self.eval(e) for e in node.elts])
        return SeqV(tuple([self.eval(e) for e in node.elts]), UNKNOWN, True)

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
        if None in node.keys:  # `{**batch, "labels": y}`: the unpacked mappings' items, then the keys
            return merged_mapping([(None, self.stored_mapping(v_node, v)) if k is None else
                                   (k.value if k.__class__ is ast.Constant else k, v)
                                   for k, v_node, v in zip(node.keys, node.values, values)])
        items = None
        if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            items = tuple((k.value, v) for k, v in zip(node.keys, values))
        if not values:
            return DictV(UNKNOWN, items)
        out = values[0]
        for v in values[1:]:
            out = out.join(v)
        return DictV(out, items)

    def stored_mapping(self, node, value: Value) -> Value:
        """`value` of the expression `node`; a dict named by `node` with the entries stored into it since."""
        if value.__class__ is DictV and value.items is not None and node.__class__ is ast.Name:
            return with_stored_items(self.frame.env, node.id, value)
        return value

    def expr_comprehension(self, node) -> Value:
        if node.__class__ is ast.DictComp:
            rebuilt = self._dict_rebuilt_key_by_key(node)
            if rebuilt is not None:
                return rebuilt
        saved = self.frame.env
        self.frame.env = dict(saved)
        iterables = []
        try:
            for gen in node.generators:
                iterable = self.eval(gen.iter)
                iterables.append(iterable)
                element, _ = iteration_element(protocol_iterable(self, gen.iter, iterable), gen)
                self.bind(gen.target, element, None)
                for cond in gen.ifs:
                    self.eval(cond)
            if isinstance(node, ast.DictComp):
                self.eval(node.key)
                return DictV(self.eval(node.value))
            elt = self.eval(node.elt)
            return SeqV(None, elt, True) if not isinstance(node, ast.SetComp) else UNKNOWN  # (made: not None)
        finally:
            self.frame.env = saved
            if moves_its_items(node):  # `[m.cuda() for m in (enc, dec)]`: what the iterables hold moved
                forget_aliases(saved, [v for it in iterables for v in held_values(it)])

    expr_ListComp = expr_SetComp = expr_GeneratorExp = expr_DictComp = expr_comprehension

    def _dict_rebuilt_key_by_key(self, node: ast.DictComp) -> Optional[DictV]:
        """`{k: v.to(device) if torch.is_tensor(v) else v for k, v in batch.items()}` over a dict whose
        keys are known: the dict of what the value expression gives for each of its items (a tuple of
        tensors kept as it was, the tensors moved), not one value joined over all.  None: not this shape."""
        gen = node.generators[0] if len(node.generators) == 1 else None
        if gen is None or gen.ifs or gen.is_async or gen.target.__class__ is not ast.Tuple \
                or len(gen.target.elts) != 2 or node.key.__class__ is not ast.Name \
                or gen.iter.__class__ is not ast.Call or gen.iter.args or gen.iter.keywords \
                or gen.iter.func.__class__ is not ast.Attribute or gen.iter.func.attr != "items" \
                or gen.iter.func.value.__class__ not in (ast.Name, ast.Attribute):  # (a path: evaluated twice, no effect)
            return None
        key_name, value_name = gen.target.elts
        if key_name.__class__ is not ast.Name or value_name.__class__ is not ast.Name or key_name.id != node.key.id \
                or value_name.id == key_name.id:
            return None
        mapping = self.eval(gen.iter.func.value)
        if mapping.__class__ is not DictV or not mapping.items or len(mapping.items) > _MAX_REBUILT_KEYS:
            return None
        saved = self.frame.env
        items = []
        try:
            for key, held in mapping.items:
                self.frame.env = dict(saved)
                self.frame.env[key_name.id] = TextV(key)
                self.frame.env[value_name.id] = held
                items.append((key, self.eval(node.value)))
        finally:
            self.frame.env = saved
        return DictV(join_all(v for _, v in items), tuple(items))

    def expr_Lambda(self, node: ast.Lambda) -> Value:
        """A function whose body is one `return`; in a function it sees the scope it is made in."""
        fnode = lambda_function(node)
        if self.frame.kind == "module":
            return FuncV(fnode, id(fnode), self.frame.cls)
        return FuncV(fnode, id(fnode), self.frame.cls, self.home, closure=dict(self.frame.env), scope=self.frame.func)

    def expr_NamedExpr(self, node: ast.NamedExpr) -> Value:
        value = self.eval(node.value)
        self.bind(node.target, value, node.value)
        return value

    def expr_Starred(self, node) -> Value:
        return self.eval(node.value)

    def expr_Yield(self, node) -> Value:
        value = self.eval(node.value) if node.value is not None else NONE
        f = self.frame
        f.yields = value if f.yields is None else f.yields.join(value)
        return UNKNOWN

    def expr_YieldFrom(self, node) -> Value:
        inner = self.eval(node.value)
        value = inner.element() if isinstance(inner, SeqV) else UNKNOWN
        f = self.frame
        f.yields = value if f.yields is None else f.yields.join(value)
        return UNKNOWN

    def expr_Await(self, node) -> Value:
        self.eval(node.value)
        return UNKNOWN

    def expr_JoinedStr(self, node: ast.JoinedStr) -> Value:
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                self.eval(v.value)
        dev = runtime_device(node.values[0].value if node.values and isinstance(node.values[0], ast.Constant) else None, node)
        return DeviceV(dev) if dev is not None else UNKNOWN

    # -- where tensors meet --------------------------------------------------
    def combine(self, node, operands: list) -> Value:
        """Arithmetic-like ops: report a device conflict, return the result."""
        tensors = [(v, n) for v, n in operands if v.__class__ in (TensorV, PlacedV, BatchV)]
        if not tensors:
            numpy = [v for v, _ in operands if v.__class__ is NumpyV]
            return NumpyV(numpy[0].dtype) if numpy else UNKNOWN
        tensors = [(_as_tensor(v, n), n) for v, n in tensors]
        raised = next((v for v, _ in tensors if v.__class__ is TensorV and v.raised), None)
        if raised is not None:
            return raised  # (an operand whose op raises: this op is never reached, nor what follows)
        if self.check_operands(node, tensors):
            return RAISED
        result_dev = None
        for v, _ in tensors:
            if v.dev is not None and v.rank != 0 and not v.dev.is_cpu:
                result_dev = v.dev
                break
        else:
            devs = {v.dev for v, _ in tensors if v.rank != 0}
            if not devs:  # all 0-dim: a CPU scalar meets a tensor of any device, the result is on that one
                devs = {v.dev for v, _ in tensors}
                devs = {d for d in devs if d is not None and not d.is_cpu} or devs
            if len(devs) == 1 and len(tensors) == sum(1 for v, _ in operands if not isinstance(v, Number)):  # numbers stay put
                result_dev = devs.pop()
            elif len(devs) == 1 and None not in devs and next(iter(devs)).kind == ACCEL_KIND:
                # an accelerator scalar and unknown operands (`w * loss`): a number, a 0-dim CPU tensor or a
                # tensor there gives a result there; a CPU tensor that is not 0-dim raises (FakeTensorMode)
                result_dev = devs.pop()
            elif len(devs) == 1 and None not in devs and next(iter(devs)).is_cpu and any(floor(v) > 0 for v, _ in tensors):
                # a CPU tensor that is not 0-dim decides: an unknown operand is a number, a CPU tensor (the
                # result is on the CPU) or an accelerator tensor (the op raises: there is no result)
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
        rank, least = (None, 0) if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) \
            else broadcast_rank([v for v, _ in tensors])
        # `self.lim // 2`: still the plain attribute as far as where it lives is concerned
        plain = tensors[0][0].plain_attr if len(tensors) == 1 and all(isinstance(v, Number) for v, _ in operands
                                                                        if v is not tensors[0][0]) else None
        # `scores > 0.1` of a part of an opaque module's output: as unknown a kind as the part
        first = tensors[0][0]
        opaque = first.opaque and first.part and len(tensors) == 1 \
            and all(isinstance(v, Number) for v, _ in operands if v is not first)
        return TensorV(result_dev, origin=node, batch=batch, grad=grad, module_output=out,
                       factory=factory, random=bool(random), rank=rank, min_rank=least, plain_attr=plain,
                       part=opaque, opaque=opaque)

    def check_operands(self, node, operands: list) -> bool:
        """Emit a conflict for the first CPU/accelerator pair; True if one was found."""
        cpu = other = None
        for value, vnode in operands:
            value = _as_tensor(value, vnode) if value.__class__ in (PlacedV, BatchV) else value
            # only a CPU 0-dim tensor is let through (TensorIterator exempts CPU scalars): a 0-dim
            # accelerator tensor still meets a CPU tensor that is not 0-dim
            if not isinstance(value, TensorV) or value.dev is None or (value.rank == 0 and value.dev.is_cpu):
                continue
            if value.dev.is_cpu:
                cpu = cpu or (value, vnode)
            elif other is None or (other[0].dev.kind != ACCEL_KIND and value.dev.kind == ACCEL_KIND):
                other = (value, vnode)
        if cpu is None or other is None:
            placed = self.frame.self_dev
            if cpu is None and other is not None and other[0].dev.kind == ACCEL_KIND and placed is not None \
                    and placed.is_cpu:
                # "The module's device" is the CPU in this call context (an instance never moved, all it
                # holds on the CPU): a tensor there meets an accelerator tensor (`self.conv(x) + mask.cuda()`).
                mine = next(((v, n) for v, n in operands if v.__class__ is TensorV and v.dev is not None
                             and v.dev.kind == SELF_KIND and v.rank != 0), None)
                if mine is not None and self.instance_on_cpu():
                    self.emit("conflict", Conflict(node, "op", replace(mine[0], dev=placed), mine[1], other[0], other[1], other[0].dev))
                    return True
            # Two different explicit accelerators (cuda:0 vs cuda:1) also raise.  "The module's
            # device" is the accelerator this call context put the module on (`model.to("cuda:3")`).
            if placed is not None and placed.kind == ACCEL_KIND:
                operands = [self.placed_operand(v, n) for v, n in operands]
            accels = [(v, n) for v, n in operands if isinstance(v, TensorV) and v.dev is not None and v.dev.kind == ACCEL_KIND]
            for i in range(1, len(accels)):
                a, b = accels[0][0].dev, accels[i][0].dev
                zero = self.current_cuda_is_zero and not self.named_where_current_is_picked(a, b)
                kind = "op" if devices_conflict(a, b, zero) else "op_index" if index_dependent(a, b, zero) \
                    else "op_mac" if mac_conflict(a, b) else None
                if kind is not None:
                    # (cuda:<i>, i chosen at run time, against cuda:0: it raises whenever i is not 0)
                    first, other = accels[0], accels[i]
                    if kind == "op_index" and b.label == RUNTIME or kind == "op_mac" and mac_kind(b) == "mps":
                        first, other = other, first  # (`other` is the one on the run-time index, or on mps on a Mac)
                    self.emit("conflict", Conflict(node, kind, other[0], other[1], first[0], first[1], first[0].dev))
                    # (an index hazard raises only for some indices: where it does not, both are one device
                    # and the result is on it, which later ops meet; a Mac's mps/cpu pair raises there)
                    return kind != "op_index"
            return False
        if other[0].dev.kind == ACCEL_KIND or other[0].dev is SELF_DEV or other[0].dev.kind == "self":
            self.emit("conflict", Conflict(node, "op", cpu[0], cpu[1], other[0], other[1], other[0].dev))
            return other[0].dev.kind == ACCEL_KIND
        return False

    def instance_on_cpu(self) -> bool:
        """Is all that the method's instance holds known to be on the CPU (its submodules, tensors and
        devices as the call's receiver has them, none placed apart, no `_apply`/`to`/`cuda` of its own)?"""
        me = self.frame.env.get("self")
        if me.__class__ is not SelfV or me.attrs is None or me.placed or me.info.overrides_apply:
            return False
        for _, value in me.attrs:
            if value.__class__ in (ModuleV, TensorV, PlacedV, DeviceV, BatchV):
                if value.dev is None or not value.dev.is_cpu:
                    return False
            elif value.__class__ in (SeqV, DictV, ObjectV):
                return False  # what a container or an object holds may be anywhere
        return True

    def named_where_current_is_picked(self, *devs: Dev) -> bool:
        """Was one of these devices named in another file's code that picks the current CUDA device
        (`torch.cuda.set_device`)?  Then "cuda" there is not known to be cuda:0."""
        for dev in devs:
            home = home_elsewhere(self, dev.at) if dev.at is not None else None
            if home is not None and picks_current_device(home.src.text):
                return True
        return False

    def placed_operand(self, value: Value, node) -> tuple:
        """(value, node), a tensor on "the module's device" placed where this call context has the
        module (`frame.self_dev`, a known accelerator: the context's inputs and the module's own tensors)."""
        if value.__class__ is TensorV and value.dev is not None and value.dev.kind == SELF_KIND:
            return replace(value, dev=self.frame.self_dev), node
        return value, node

    # -- calls -----------------------------------------------------------------
    def expr_Call(self, node: ast.Call) -> Value:
        recv = self.eval(node.func.value) if node.func.__class__ is ast.Attribute else None
        return self.eval_call(node, recv_value=recv)

    def eval_call(self, node: ast.Call, recv_value: Optional[Value] = None) -> Value:
        return dispatch_call(self, node, recv_value)

    def eval_args(self, node: ast.Call) -> tuple[list, dict]:
        """The values of a call's arguments: positional, and keyword (`**x` as `"**<n>"`, or its
        keys when they are known)."""
        args = [self.passed_value(a, self.eval(a)) for a in node.args]
        kwargs = {}
        for k in node.keywords:
            value = self.passed_value(k.value, self.eval(k.value))
            if k.arg is None and isinstance(value, DictV) and value.items is not None:
                kwargs.update((key, v) for key, v in value.items if key not in kwargs)  # `**{"a": 1}`: known keys
            else:
                kwargs[k.arg if k.arg is not None else f"**{len(kwargs)}"] = value
        return args, kwargs


    def passed_value(self, node, value: Value) -> Value:
        """An argument as the callee will see it: an object with what this code bound to its
        attributes, a dict with the entries this code stored in it (`d["k"] = v`)."""
        if value.__class__ is ObjectV:
            return self.with_bound_attributes(node, value)
        return self.stored_mapping(node, value)

    def with_bound_attributes(self, node, value: ObjectV) -> ObjectV:
        """An object passed on as the callee will see it: what this code bound to its attributes
        (`agent.Q.to(device)` keeps the moved module at the path `agent.Q`) is what it holds."""
        if not isinstance(node, ast.Name):
            return value
        prefix = node.id + "."
        start = len(prefix)
        bound = {key[start:]: v for key, v in self.frame.env.items()
                 if prefix in key and key.startswith(prefix) and key[start:].isidentifier()}
        if not bound:
            return value
        attrs = dict(value.attrs)
        attrs.update(bound)
        return replace(value, attrs=tuple(attrs.items()))


def _reads_tensor_device(node) -> bool:
    """`x.device`, `a.device if c else b.device`, `x.get_device()`, `"cuda" if x.is_cuda else "cpu"`: a tensor's own device."""
    if node is None:
        return False
    return any(isinstance(n, ast.Attribute) and n.attr in ("device", "get_device", "is_cuda") and not (
        isinstance(n.value, ast.Name) and n.value.id in CONFIG_OBJECT_NAMES) for n in ast.walk(node))


def _reads_own_device(node) -> bool:
    """`x.device`, `x[0].device`, `x.get_device()`: an expression that reads some object's `.device`
    (not `torch.device(...)`, which makes one, nor a configuration object's `args.device`)."""
    return node is not None and any(
        n.__class__ is ast.Attribute and n.attr in ("device", "get_device")
        and not (n.value.__class__ is ast.Name and (n.value.id in CONFIG_OBJECT_NAMES or n.value.id == "torch"))
        for n in ast.walk(node))


def _bound_to_tensor_device(node, func, nodes: list) -> bool:
    """A local name (not a parameter) that every binding among `nodes` (a function's own) binds to a
    read of a tensor's device: `if c: d = x[0].device` / `else: d = x.device` ... `return d`."""
    if node.__class__ is not ast.Name or node.id in {a.arg for a in ast.walk(func.args) if a.__class__ is ast.arg}:
        return False
    name = node.id
    values = [n.value for n in nodes if n.__class__ is ast.Assign and len(n.targets) == 1
              and n.targets[0].__class__ is ast.Name and n.targets[0].id == name]
    stores = [n for n in nodes if n.__class__ is ast.Name and n.id == name and n.ctx.__class__ is not ast.Load]
    other = any(n.__class__ in (ast.Global, ast.Nonlocal) and name in n.names
                or n.__class__ is ast.ExceptHandler and n.name == name
                or n.__class__ is ast.alias and (n.asname or n.name) == name for n in nodes)
    return bool(values) and len(stores) == len(values) and not other and all(_reads_own_device(v) for v in values)


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


# The result of an op that raises (two devices proven apart): no device, and an op that takes it
# reports nothing (`(x - mean.cuda()) / std.cuda()` raises at `-`; `/` and a module given the result
# would otherwise be judged on `std`'s device alone).
RAISED = TensorV(None, raised=True)
_DEVICE_TYPE_TESTS = {"is_cuda": "cuda", "is_cpu": "cpu", "is_mps": "mps", "is_xpu": "xpu", "is_meta": "meta"}


def device_type(dev: Dev) -> Optional[str]:
    """"cpu", "cuda", "mps", ... where the device's type is known."""
    if dev.is_cpu:
        return "cpu"
    if dev.kind != ACCEL_KIND:
        return None
    if dev.label == RUNTIME:
        return "cuda"  # (an index chosen at run time: a CUDA device, see devices.runtime_device)
    kind = dev.label.split(":")[0]
    return kind if kind in ("cuda", "mps", "xpu", "meta") else None


_TYPE_TESTS = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)
_CONSTANT_TESTS = (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_INT_TESTS = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
              ast.GtE: operator.ge}
_MIRRORED = {ast.Lt: ast.Gt(), ast.LtE: ast.GtE(), ast.Gt: ast.Lt(), ast.GtE: ast.LtE()}  # `0 < n` is `n > 0`
_MAX_TEXT = 40  # a longer string constant (a message, a docstring) is never a mode or a device name: unknown


_DEVICE_LITERALS = {"cpu": "cpu", "cuda": "accel"}
_PATH_NODES = (ast.Name, ast.Attribute)
_NAMED_TEST = ("named",)


_MAX_REBUILT_KEYS = 16  # (a dict rebuilt item by item: more items are joined, as before)
_UNSET = object()  # not yet kept on the node (`path_of`, `device_narrowing`)


def _device_test(test) -> Optional[tuple]:
    """The syntax of a device test (`device_narrowing`): (the device or tensor node, what the body
    learns, what the else branch learns), or None.  `device == "cpu"` is true only for the string
    (a torch.device never equals a str), and `device == "cuda"` is false for "cuda:1": their false
    sides say nothing."""
    test, negated = _negations(test)
    if test.__class__ is ast.Attribute:  # (`device_narrowing` takes the subject for a tensor)
        if test.attr == "is_cuda":
            answer = (test.value, "accel", "cpu")
        elif test.attr == "is_cpu":
            answer = (test.value, "cpu", None)
        else:
            return None
    elif test.__class__ is ast.Compare and len(test.ops) == 1 and test.ops[0].__class__ in (ast.Eq, ast.NotEq):
        left, right = test.left, test.comparators[0]
        if left.__class__ is ast.Constant or left.__class__ is ast.Call and right.__class__ is not ast.Constant:
            left, right = right, left
        torch_device = right.__class__ is ast.Call and right.func.__class__ is ast.Attribute \
            and right.func.attr == "device" and len(right.args) == 1 and not right.keywords
        literal = right.args[0] if torch_device else right
        if literal.__class__ is not ast.Constant or literal.value not in _DEVICE_LITERALS:
            # `device == CPU_DEVICE`: answered where the analysis knows a side (`_named_device_test`)
            return _NAMED_TEST if left.__class__ in _PATH_NODES and right.__class__ in _PATH_NODES else None
        learned = _DEVICE_LITERALS[literal.value]
        if left.__class__ is ast.Attribute and left.attr == "type" and not torch_device:
            # `device.type == "cpu"`: exact either way ("not cuda" is not on a CUDA device)
            answer = (left.value, learned, None if learned == "cpu" else "cpu")
        elif left.__class__ is ast.Call and left.func.__class__ is ast.Name and left.func.id == "str" \
                and len(left.args) == 1 and not torch_device:
            answer = (left.args[0], learned, None)
        elif isinstance(left, (ast.Name, ast.Attribute)):
            answer = (left, learned, None)
        else:
            return None
        if torch_device:
            answer = (answer[0], answer[1], answer[2], right)
        if test.ops[0].__class__ is ast.NotEq:
            negated = not negated
    else:
        return None
    if negated:
        answer = (answer[0], answer[2], answer[1]) + answer[3:]
    return answer


def _negations(test) -> tuple:
    """(`test` without its leading `not`s, whether an odd number of them negate it)."""
    negated = False
    while test.__class__ is ast.UnaryOp and test.op.__class__ is ast.Not:
        test, negated = test.operand, not negated
    return test, negated


def _off_device(value: Value, dev: Dev) -> Optional[Value]:
    """`value` where `dev` is not known to be an accelerator: what lives there becomes unknown
    (None: nothing of it lives there)."""
    cls = value.__class__
    if cls is TensorV or cls is ModuleV:
        if value.dev is not None and value.dev.kind == dev.kind and value.dev.label == dev.label:
            return replace(value, dev=None)
    elif cls is DeviceV or cls is PlacedV:
        if value.dev.kind == dev.kind and value.dev.label == dev.label:
            return UNKNOWN
    elif cls is SeqV and value.items is not None:
        items = [_off_device(item, dev) for item in value.items]
        if any(item is not None for item in items):
            return replace(value, items=tuple(item if item is not None else old for item, old in zip(items, value.items)))
    return None


_NONLOCAL_STATEMENT = re.compile(r"^[ \t]*(?:[^#\n]*;[ \t]*)?nonlocal[ \t]", re.M)


def none_test(test) -> Optional[tuple]:
    """`name is None` -> (name, True); `name is not None` -> (name, False); anything else None.  `name ==
    None` / `name != None` too: None equals only None, and the strings, ints and `torch.device`s the
    answers read are unequal to it."""
    if test.__class__ is ast.Compare and len(test.ops) == 1 and test.ops[0].__class__ in _NONE_TESTS \
            and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None:
        left = test.left
        return (left.id if isinstance(left, ast.Name) else None, test.ops[0].__class__ in (ast.Is, ast.Eq))
    return None


_NONE_TESTS = (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)


def _with_item_stored(container: Value, stored: Value) -> Value:
    """A list after `lst[i] = stored` at an index not known: each item is what it was or `stored`
    (known items one by one keep their order).  A dict after `d[k] = stored`: still a dict, its keys
    no longer known, each value what one was or `stored`.  A sequence stored into a list may fill a
    slice (`lst[s] = [...]`): not known."""
    if isinstance(container, DictV):
        values = container.elem if container.items is None else join_all(v for _, v in container.items)
        return replace(container, elem=values.join(stored) if container.items or container.items is None else stored,
                       items=None)
    if container.__class__ is not SeqV or stored is UNKNOWN or stored.__class__ is SeqV:
        return UNKNOWN
    if container.items is None:
        elem = container.element().join(stored)
        return UNKNOWN if elem is UNKNOWN else SeqV(None, elem, container.not_none)
    items = tuple(item.join(stored) for item in container.items)
    return UNKNOWN if any(item is UNKNOWN for item in items) else SeqV(items, UNKNOWN, container.not_none)
