"""Does a method argument ever meet the module's weights, or is it only read on the host?

`net(image, boxes)` with `boxes` on the CPU raises only if `forward` lets `boxes` reach an op
together with the module's tensors.  Boxes turned into Python numbers (`int(v) for v in boxes`),
used as slice bounds (`feat[:, :, y0:y1]`), sizes (`len(boxes)`, `boxes.shape`), truth tests or
moved first (`boxes.to(x.device)`) never do.  This follows the argument through `forward` (and
the methods of the same class it is passed to, two calls deep) by reading the syntax tree: a
value derived from it by indexing, conversions (`.int()`, `.long()`) or arithmetic with plain
numbers is followed too; any other use counts as meeting the weights.
"""
from __future__ import annotations

import ast
from typing import Optional

from .called_functions import CalledFunctions
from .scopes import ancestors, enclosing, enclosing_statement, own_nodes, parent_map

_HOST_CALLS = {"len", "int", "float", "bool", "str", "repr", "isinstance", "print", "range", "round", "tuple", "list"}
_HOST_ATTRS = {"shape", "size", "dim", "ndim", "dtype", "device", "tolist", "item", "numpy", "numel", "is_cuda",
               "to", "cuda", "cpu", "type_as", "__len__"}
_KEEP_ATTRS = {"int", "long", "float", "double", "half", "bool", "round", "floor", "ceil", "clone", "detach",
               "contiguous", "squeeze", "unsqueeze", "flatten", "view", "reshape", "t", "T", "max", "min", "sum",
               "mean", "prod", "argmax", "argmin", "abs", "cumsum", "repeat", "expand", "permute", "transpose",
               "repeat_interleave", "narrow", "flip", "roll", "multinomial", "type"}
_MAX_DEPTH = 2
#: factories that read only the shape, dtype and device of their first argument
_METADATA_FACTORIES = frozenset({"empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like",
                                 "randint_like"})
#: `torch.distributed` collectives: their tensors are sent or received, never combined with a module's weights
#: (not `gather`/`scatter`/`reduce`, which are also tensor ops: `torch.gather(x, 1, idx)`)
_COLLECTIVES = frozenset({"all_gather", "all_gather_into_tensor", "all_reduce", "broadcast", "reduce_scatter",
                          "reduce_scatter_tensor", "send", "recv", "isend", "irecv"})


def argument_parameter(method: ast.FunctionDef, position: Optional[int], keyword: Optional[str],
                       static: bool = False) -> Optional[str]:
    """The parameter of `method` (a method: `self` first, unless `static`) that the call's argument
    binds, or None when it goes to `*args`/`**kwargs` or is unknown."""
    a = method.args
    positional = [p.arg for p in a.posonlyargs + a.args][0 if static else 1:]
    if keyword is not None:
        return keyword if keyword in positional or keyword in {p.arg for p in a.kwonlyargs} else None
    if position is not None and position < len(positional):
        return positional[position]
    return None


def host_only(method: ast.FunctionDef, param: str, methods: dict, depth: int = 0, functions: Optional[CalledFunctions] = None) -> bool:
    """Is every use of `param` in `method` a host use (or a move), never an operand of a tensor op?"""
    return first_device_use(method, methods, name=param, depth=depth, functions=functions) is None


def first_device_use(method: ast.FunctionDef, methods: dict, name: Optional[str] = None, attr: Optional[str] = None,
                     depth: int = 0, functions: Optional[CalledFunctions] = None) -> Optional[ast.AST]:
    """The first use in `method` of the parameter `name` (or of `self.<attr>`, as long as the method
    has not re-bound it) that may meet other tensors; None when every use is on the host or a move.
    `functions`: the functions a call by name reaches (`called_functions.CalledFunctions`: the file's own
    and those it imports; an argument passed to one is followed)."""
    parents = parent_map(method)
    nodes = sorted(own_nodes(method.body), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    starts = []
    if attr is not None:
        rebound = min((n.lineno for n in nodes if _is_self_attr(n, attr) and isinstance(n.ctx, ast.Store)
                       or _calls_a_method_that_binds(n, methods, attr)), default=None)
        starts = [n for n in nodes if _is_self_attr(n, attr) and isinstance(n.ctx, ast.Load)
                  and (rebound is None or n.lineno <= rebound)]
    tainted = {name} if name is not None else set()
    pending = list(tainted)
    uses = list(starts)
    since = {}  # a local name -> the line where a value derived from the argument was bound to it
    while uses or pending:
        if not uses:
            current = pending.pop()
            uses = [n for n in nodes if isinstance(n, ast.Name) and n.id == current and isinstance(n.ctx, ast.Load)]
            if current == name:  # the parameter itself: up to where the method re-binds it (`x = x.to(dev)`)
                rebound = min((n.lineno for n in nodes if isinstance(n, ast.Name) and n.id == name
                               and isinstance(n.ctx, ast.Store)), default=None)
                uses = [n for n in uses if rebound is None or n.lineno <= rebound]
            elif current in since and not _in_loop(parents, since[current][1]):
                # a local name bound once from it, outside loops: its uses up to where it is bound again
                # (`idx = idx.view(-1).to(device)`), the loads of that line included
                line = since[current][0]
                rebound = min((n.lineno for n in nodes if isinstance(n, ast.Name) and n.id == current
                               and not isinstance(n.ctx, ast.Load) and n.lineno > line
                               and _same_block(parents, since[current][1], n)), default=None)
                uses = [n for n in uses if n.lineno >= line and (rebound is None or n.lineno <= rebound)]
            continue
        node = uses.pop(0)
        verdict = _use(node, parents, methods, depth, functions)
        if verdict is False:
            return node
        for new in verdict if isinstance(verdict, set) else ():
            if new not in tainted:
                tainted.add(new)
                pending.append(new)
                since[new] = (node.lineno, node)
            else:
                since.pop(new, None)  # (bound from it at two places: every use is followed)
    return None


def _same_block(parents: dict, a: ast.AST, b: ast.AST) -> bool:
    """Are the statements holding `a` and `b` in one statement list (one after the other on every path),
    not in two branches of an `if` (`t = x[i]` ... `else: t = y`: a use after the `if` may read either)?"""
    first, second = enclosing_statement(parents, a), enclosing_statement(parents, b)
    owner = parents.get(id(first)) if first is not None else None
    if owner is None or owner is not parents.get(id(second)):
        return False
    return any(isinstance(block, list) and first in block and second in block
               for block in (getattr(owner, f, None) for f in ("body", "orelse", "finalbody")))


_LOOPS = (ast.For, ast.AsyncFor, ast.While, ast.comprehension)


def _in_loop(parents: dict, node: ast.AST) -> bool:
    return isinstance(node, _LOOPS) or enclosing(parents, node, _LOOPS) is not None


def _calls_a_method_that_binds(node: ast.AST, methods: dict, attr: str) -> bool:
    """`self.extend_pe(x)` where that method of the class may re-bind `self.<attr>` (`self.pe =
    self.pe.to(x.device)`): after the call the attribute is not known to be what `__init__` made."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"):
        return False
    method = methods.get(node.func.attr)
    return method is not None and any(_is_self_attr(n, attr) and isinstance(n.ctx, ast.Store) for n in own_nodes(method.body))


def _is_torch_multinomial(func: ast.AST) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "multinomial" and isinstance(func.value, ast.Name) \
        and func.value.id == "torch"


def _is_self_attr(node: ast.AST, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name) \
        and node.value.id == "self"


def _use(node: ast.AST, parents: dict, methods: dict, depth: int, functions: Optional[CalledFunctions] = None):
    """True: a host use; a set: names that now hold a value derived from it; False: may meet weights."""
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.Subscript) and parent.value is child:
            child, parent = parent, parents.get(id(parent))  # `p[i]`: still the argument's data
            continue
        if isinstance(parent, ast.Attribute) and parent.attr in _KEEP_ATTRS:
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent:
                child, parent = call, parents.get(id(call))
                continue
        if isinstance(parent, ast.Call) and parent.args and parent.args[0] is child and _is_torch_multinomial(parent.func):
            child, parent = parent, parents.get(id(parent))  # `torch.multinomial(w, n)`: indices sampled where `w` is
            continue
        if isinstance(parent, ast.BinOp) and (_number_operand(parent.right if parent.left is child else parent.left, methods)
                                              or _cpu_vector(parent.right if parent.left is child else parent.left,
                                                             parents, 0, ())):
            child, parent = parent, parents.get(id(parent))
            continue
        if isinstance(parent, ast.UnaryOp) and not isinstance(parent.op, ast.Not) or parent.__class__ is ast.Call \
                and parent.func.__class__ is ast.Name and parent.func.id == "abs" and len(parent.args) == 1:
            child, parent = parent, parents.get(id(parent))  # (`abs(t)` is `t.abs()`: where `t` is)
            continue
        break
    if parent is None:
        return False
    if parent.__class__ is ast.Tuple:  # `x[:, idx]`: an index among others (CPU indices may index any device)
        outer = parents.get(id(parent))
        if outer.__class__ is ast.Subscript and outer.slice is parent:
            return True
    if isinstance(parent, ast.Attribute) and parent.attr in _HOST_ATTRS:
        return True
    if parent.__class__ is ast.Return or (parent.__class__ is ast.Tuple and parents.get(id(parent)).__class__ is ast.Return):
        return True  # handed back to the caller (`return x, bank`): it meets nothing in this call
    if parent.__class__ is ast.Call and parent.func.__class__ is ast.Attribute and child is not parent.func:
        attr = parent.func.attr
        if attr in _METADATA_FACTORIES and parent.args and parent.args[0] is child:
            return True  # `torch.empty_like(x)`: reads only its shape, dtype and device
        if attr in _COLLECTIVES and parent.func.value.__class__ is ast.Name and parent.func.value.id not in ("self", "torch") \
                and child in parent.args:
            return True  # `dist.all_gather(out, x)`: sent to the other processes, not combined with weights
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in _HOST_CALLS \
            and child is not parent.func:
        return True
    if isinstance(parent, ast.Slice) or (isinstance(parent, ast.Subscript) and parent.slice is child):
        return True  # slice bounds are read on the host; CPU indices may index a tensor on any device
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)) and getattr(parent, "test", None) is child:
        return True
    if isinstance(parent, (ast.BoolOp, ast.UnaryOp)):
        return True
    if isinstance(parent, ast.Compare) and all(_plain_number(n) or (isinstance(n, ast.Constant) and n.value is None)
                                               for n in [parent.left, *parent.comparators] if n is not child):
        return True
    if isinstance(parent, ast.comprehension) and parent.iter is child:
        return _names(parent.target)
    if isinstance(parent, (ast.For, ast.AsyncFor)) and parent.iter is child:
        return _names(parent.target)
    if isinstance(parent, ast.Assign) and parent.value is child:
        if any(isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self" for t in parent.targets):
            return set()  # kept on the module (`self.k = self.k.unsqueeze(1)`): judged where that is used
        if all(_basic_index_store(t, parents) for t in parent.targets):
            return True  # `batch[i] = self.grid`: `copy_` into the item, from any device
        names = set()
        for target in parent.targets:
            if not isinstance(target, (ast.Name, ast.Tuple, ast.List)):
                return False
            names |= _names(target)
        return names
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in ("enumerate", "reversed") \
            and parent.args and parent.args[0] is child:
        loop = parents.get(id(parent))  # `for i, v in enumerate(arg)`: what v does
        if isinstance(loop, (ast.For, ast.AsyncFor, ast.comprehension)) and loop.iter is parent:
            target = loop.target
            if parent.func.id == "enumerate" and isinstance(target, ast.Tuple) and len(target.elts) == 2:
                target = target.elts[1]
            return _names(target)
    if isinstance(parent, ast.keyword):  # `f(..., name=arg)`: an argument of the call above
        parent = parents.get(id(parent))
    if isinstance(parent, ast.Call) and child is not parent.func:
        return _passed_to_method(parent, child, methods, depth, functions)
    return False


def _passed_to_method(call: ast.Call, arg: ast.AST, methods: dict, depth: int, functions: Optional[CalledFunctions] = None) -> bool:
    """`self.helper(..., arg, ...)` (or `Owner.helper(...)` of a staticmethod of the class, or
    `helper(...)`, a function of the file): follow the argument into the helper."""
    func = call.func
    if depth >= _MAX_DEPTH:
        return False
    inner = functions
    if func.__class__ is ast.Name and functions and func.id in functions:
        callee, static = functions[func.id], True
        inner = functions.inside(func.id)
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.attr in methods:
        callee = methods[func.attr]
        static = _is_static(callee)
        if func.value.id != "self" and not static:
            return False
    elif func.__class__ is ast.Attribute and func.value.__class__ is ast.Name and functions \
            and functions.in_module(func.value.id, func.attr) is not None:
        callee, static = functions.in_module(func.value.id, func.attr), True  # `utils.gather(x)`
        inner = functions.inside_module(func.value.id, func.attr)
    else:
        return False
    position = next((i for i, a in enumerate(call.args) if a is arg), None)
    keyword = next((k.arg for k in call.keywords if k.value is arg), None)
    if position is None and keyword is None:
        return False
    param = argument_parameter(callee, position, keyword, static)
    return param is not None and host_only(callee, param, methods, depth + 1, inner)


def _basic_index_store(target: ast.AST, parents: dict) -> bool:
    """`out[i] = v`, `out[:, 0] = v`, `out[2, ...] = v`, `out[p:p + n] = v`: an item or a slice written with
    numbers (constants, a loop's `range`/`enumerate` counter) or slices (whatever their bounds: a slice is
    never an advanced index, its bounds are read as integers), which `Tensor.__setitem__` copies into with `copy_`, from
    a tensor on any device.  (A tensor index, `out[mask] = v`, goes through `index_put_`, which does not.)"""
    if target.__class__ is not ast.Subscript:
        return False
    index = target.slice
    parts = index.elts if index.__class__ is ast.Tuple else [index]
    return all(part.__class__ is ast.Slice or _number_index(part, target, parents) for part in parts)


def _number_index(part: ast.AST, target: ast.AST, parents: dict) -> bool:
    if part.__class__ is ast.Slice:
        return all(b is None or _number_index(b, target, parents) for b in (part.lower, part.upper, part.step))
    if part.__class__ is ast.Constant:
        return part.value is Ellipsis or type(part.value) is int
    if part.__class__ is ast.UnaryOp and part.operand.__class__ is ast.Constant:
        return type(part.operand.value) is int
    if part.__class__ is ast.BinOp and part.op.__class__ in _INDEX_ARITHMETIC:  # `j + 1`
        return _number_index(part.left, target, parents) and _number_index(part.right, target, parents)
    if part.__class__ is ast.Name:
        for node in ancestors(parents, target):  # a number an enclosing loop gives
            if node.__class__ in (ast.For, ast.AsyncFor) and _loop_number(node, part.id, parents):
                return True
    return False


_INDEX_ARITHMETIC = frozenset({ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod})


def _loop_number(loop: ast.For, name: str, parents: dict) -> bool:
    """Is `name` a number each round of `loop` binds: the counter of `range(...)` or `enumerate(...)`,
    or an item of host numbers (`xs.tolist()`, a NumPy array `t.cpu().numpy()`, directly or through a
    name the enclosing function binds once), which indexing reads as integers (`__index__`).  (The rows
    of a 2-D one would be lists, advanced indices, which the text cannot tell: taken as numbers, a rule
    only stays quiet.)"""
    target, iterable = loop.target, loop.iter
    if iterable.__class__ is ast.Call and iterable.func.__class__ is ast.Name and iterable.args:
        if iterable.func.id == "range":
            return target.__class__ is ast.Name and target.id == name
        if iterable.func.id == "enumerate" and target.__class__ is ast.Tuple and len(target.elts) == 2:
            counter, item = target.elts
            if counter.__class__ is ast.Name and counter.id == name:
                return True
            target, iterable = item, iterable.args[0]
    if target.__class__ is not ast.Name or target.id != name:
        return False
    if iterable.__class__ is ast.Name:
        scope = next((n for n in ancestors(parents, loop) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
        stores = [n for n in own_nodes(scope.body) if n.__class__ is ast.Name and n.id == iterable.id
                  and n.ctx.__class__ is ast.Store] if scope is not None else []
        binding = parents.get(id(stores[0])) if len(stores) == 1 else None
        iterable = binding.value if binding.__class__ is ast.Assign and binding.targets == [stores[0]] else None
    return iterable.__class__ is ast.Call and iterable.func.__class__ is ast.Attribute \
        and iterable.func.attr in ("tolist", "numpy") and not iterable.args


# Methods that keep a tensor where it is and never make a 1-D or larger tensor 0-dim.
_SHAPE_KEEPING = frozenset({"unsqueeze", "view", "reshape", "long", "int", "float", "double", "repeat", "expand",
                            "flatten", "clone", "detach", "contiguous", "t", "permute", "transpose", "repeat_interleave",
                            "flip", "roll", "cumsum"})


def _cpu_vector(node: ast.AST, parents: dict, depth: int, seen: tuple) -> bool:
    """A tensor of one dimension or more on the CPU, wherever the code runs: `torch.arange(n)` or
    `torch.randperm(n)` with no device, reshaped (`.unsqueeze(1)`), in arithmetic with anything (a tensor
    elsewhere makes the op raise: checked on the fake GPU, `torch.arange(4) * cuda_0_dim` too), or a
    local name the method binds only to such (`off = off.unsqueeze(1)` re-binds it to one).  Arithmetic
    with it keeps an attribute's data on the CPU."""
    if depth > 2 * _MAX_DEPTH:
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        func = node.func
        if func.attr in ("arange", "randperm") and isinstance(func.value, ast.Name) and func.value.id == "torch":
            return not any(k.arg in ("device", None, "out") for k in node.keywords)
        return func.attr in _SHAPE_KEEPING and _cpu_vector(func.value, parents, depth + 1, seen)
    if isinstance(node, ast.BinOp):
        return _cpu_vector(node.left, parents, depth + 1, seen) or _cpu_vector(node.right, parents, depth + 1, seen)
    if isinstance(node, ast.Name):
        if node.id in seen:
            return True  # (re-bound from itself: what its other bindings are)
        method = node
        while parents.get(id(method)) is not None:
            method = parents[id(method)]
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.id in {
                a.arg for a in method.args.posonlyargs + method.args.args + method.args.kwonlyargs}:
            return False
        values = []
        for n in ast.walk(method):
            if isinstance(n, ast.Name) and n.id == node.id and not isinstance(n.ctx, ast.Load):
                bound = parents.get(id(n))
                if not (isinstance(bound, ast.Assign) and len(bound.targets) == 1 and bound.targets[0] is n):
                    return False  # (bound by a loop, a tuple, a `with`, deleted: not followed)
                values.append(bound.value)
        return bool(values) and all(_cpu_vector(v, parents, depth + 1, seen + (node.id,)) for v in values)
    return False


def _is_static(method: ast.AST) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in getattr(method, "decorator_list", ()))


def _plain_number(node: ast.AST) -> bool:
    """A Python number: a numeric constant, or arithmetic of constants and names with at least one
    numeric constant (`512 / f_size`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp):
        leaves = [n for n in ast.walk(node) if not isinstance(n, (ast.BinOp, ast.operator, ast.expr_context))]
        return all(isinstance(n, (ast.Constant, ast.Name)) for n in leaves) and any(
            isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) for n in leaves)
    return False


def _number_operand(node: ast.AST, methods: dict) -> bool:
    """A plain number, or `self.<name>` that `__init__` binds only to a parameter annotated `int`/`float`
    (`def __init__(self, lmax: int): self.lmax = lmax`) or to a numeric constant."""
    if _plain_number(node):
        return True
    if not (node.__class__ is ast.Attribute and node.value.__class__ is ast.Name and node.value.id == "self"):
        return False
    init = methods.get("__init__")
    if init is None:
        return False
    a = init.args
    numbers = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs
               if p.annotation.__class__ is ast.Name and p.annotation.id in ("int", "float")}
    bound = False
    for stmt in own_nodes(init.body):
        if stmt.__class__ in (ast.Assign, ast.AnnAssign, ast.AugAssign):
            targets = stmt.targets if stmt.__class__ is ast.Assign else [stmt.target]
            if any(_is_self_attr(t, node.attr) for t in targets):
                value = stmt.value
                if not (value.__class__ is ast.Name and value.id in numbers or _plain_number(value)):
                    return False
                bound = True
    return bound


def _names(target: ast.AST) -> set:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def argument_meets_weights(call: ast.Call, arg: ast.AST, module, ev=None) -> bool:
    """Can the argument `arg` of the module call `call` meet the module's tensors?  Followed into
    the `forward` of a project class (and, with the analysis `ev`, into the functions of its file
    and their imports that `forward` hands it to); a `torch.nn` layer's inputs all do; of a class we
    cannot read, only the first input (positional, else keyword) is taken to (a second one may be
    lengths, boxes, a mask...)."""
    if any(k.arg is None and k.value is arg for k in call.keywords) or any(
            isinstance(a, ast.Starred) and a.value is arg for a in call.args):
        return True  # `model(**batch)`: the main input is in there
    position = next((i for i, a in enumerate(call.args) if a is arg), None)
    keyword = next((k.arg for k in call.keywords if k.value is arg), None)
    cls = getattr(module, "cls", None)
    methods = getattr(cls, "methods", None) or {}
    forward = methods.get("forward")
    if forward is not None:
        param = argument_parameter(forward, position, keyword)
        if param is None:
            return False
        functions = CalledFunctions.of_file(ev, getattr(cls, "home", None)) if ev is not None else None
        return not host_only(forward, param, methods, functions=functions)
    if getattr(module, "torch_layer", False):
        return True
    first_keyword = call.keywords[0].arg if call.keywords and not call.args else None
    return position == 0 or (keyword is not None and keyword == first_keyword)
