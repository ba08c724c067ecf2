"""Which machines a program runs on, as its own code decides: only on an accelerator (an
unconditional `.cuda()`, `device = "cuda"`, no CPU fallback anywhere), or with a CPU path
(`"cuda" if torch.cuda.is_available() else "cpu"`, a `--cpu`/`--device` option, a `device`
chosen by the caller).  And whether a test reads that choice (`if use_cuda:`), so that what it
guards is a deliberate device decision, not a hard-coded one.
"""
from __future__ import annotations

import ast

from .. import torch_semantics as semantics
from ..flow.devices import ACCEL_TYPES
from .cuda_only import moves_to_fixed_cuda, unconditional_calls
from .scopes import ancestors, is_main_guard, mentions_accelerator

_CHOICE_WORDS = ("cuda", "gpu", "cpu", "device", "accel")
_MULTI_GPU_CALLS = {"device_count"}  # `device_count() > 1` picks a strategy, not a CPU fallback
_RUNTIME_CHOICE_CALLS = {"is_available", "current_accelerator"}


def device_word(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _CHOICE_WORDS)


def is_device_guard(test: ast.AST) -> bool:
    """Does this condition read the device choice (`use_cuda`, `args.cuda`, `not args.no_cuda`,
    `torch.cuda.is_available()`, `device.type == "cuda"`, `x.is_cuda`)?"""
    for node in ast.walk(test):
        if isinstance(node, ast.Name) and device_word(node.id):
            return True
        if isinstance(node, ast.Attribute) and (device_word(node.attr) or node.attr in _RUNTIME_CHOICE_CALLS):
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _device_string(node.value):
            return True
    return False


def under_device_guard(parents: dict, node: ast.AST) -> bool:
    """Is `node` on one side of an `if`/conditional expression whose test reads the device choice?"""
    child = node
    for parent in ancestors(parents, node):
        if isinstance(parent, (ast.If, ast.IfExp, ast.While)) and child is not parent.test and is_device_guard(parent.test):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        child = parent
    return False


def runs_only_with_accelerator(parents: dict, node: ast.AST) -> bool:
    """Is `node` in the branch taken only when an accelerator is there (`if torch.cuda.is_available():`,
    `if args.cuda:`, `if device.type == "cuda":`), or in the `else` of its negation (`if not
    torch.cuda.is_available(): ... else: <node>`)?  Other tests that negate or name the CPU are not read."""
    child = node
    for parent in ancestors(parents, node):
        if isinstance(parent, (ast.If, ast.IfExp)) and _in_body(parent, child) and _asserts_accelerator(parent.test):
            return True
        if isinstance(parent, (ast.If, ast.IfExp)) and _in_orelse(parent, child) and parent.test.__class__ is ast.UnaryOp \
                and parent.test.op.__class__ is ast.Not and _asserts_accelerator(parent.test.operand):
            return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return False
        child = parent
    return False


def after_an_unconditional_cuda_call(parents: dict, node: ast.AST, scope=None) -> bool:
    """Does a `.cuda()` run before `node` on every path to it within its function (a simple statement
    earlier in a block that holds `node`, `model = Net(...).cuda()`)?  `.cuda()` raises on a machine without
    a CUDA GPU ("Torch not compiled with CUDA enabled" / "Found no NVIDIA driver"), so `node` never runs there.
    So does `.to(d)` with `d` a fixed CUDA device (`cuda_only.moves_to_fixed_cuda`; `scope`: the function's
    `Scope`, for names bound to one)."""
    child = node
    for parent in ancestors(parents, node):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and child in block:
                for stmt in block[:block.index(child)]:
                    if isinstance(stmt, (ast.Assign, ast.Expr, ast.AnnAssign, ast.AugAssign)) \
                            and (_calls_cuda(stmt) or moves_to_fixed_cuda(stmt, scope)):
                        return True
        if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ExceptHandler)):
            return False
        child = parent
    return False


def before_an_unconditional_cuda_call(parents: dict, node: ast.AST, scope=None) -> bool:
    """Is `node` followed, in its block, by a statement with an unconditional `.cuda()` that nothing in
    between can skip (no `return`/`raise`/`break`/`continue`/`yield`, no `exit()`)?  The block then cannot
    finish without a CUDA GPU whatever `node` does (YOLOX's `load_state_dict(torch.load(f))` then
    `torch.ones(...).cuda()`), so `map_location` would save nothing there.  A `try` body (a handler may
    catch one failure and not the other) and a loop body (an exit earlier in the body may leave it after
    `node` ran) are not climbed out of; the `.cuda()` must be in the same function.  `.to(d)` with `d` a fixed
    CUDA device counts as `.cuda()` (`scope` as for `after_an_unconditional_cuda_call`)."""
    child = node
    for parent in ancestors(parents, node):
        if isinstance(parent, _NOT_CLIMBED):
            return False
        block = next((b for b in (getattr(parent, f, None) for f in ("body", "orelse", "finalbody"))
                      if isinstance(b, list) and child in b), None)
        if block is not None:
            for stmt in block[block.index(child) + 1:]:
                if isinstance(stmt, (ast.Assign, ast.Expr, ast.AnnAssign, ast.AugAssign)) \
                        and (_calls_cuda(stmt) or moves_to_fixed_cuda(stmt, scope)) and not _may_leave(stmt):
                    return True
                if _may_leave(stmt):
                    return False
        child = parent
    return False


_NOT_CLIMBED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ExceptHandler, ast.Try, getattr(ast, "TryStar", ast.Try),
                ast.For, ast.AsyncFor, ast.While)
_EXIT_CALLS = {"exit", "quit", "_exit", "abort"}


def _may_leave(stmt: ast.AST) -> bool:
    """Can `stmt` leave its block before the next statement (a jump, a raise, a yield, `sys.exit()`)?"""
    for node in ast.walk(stmt):
        if isinstance(node, (ast.Return, ast.Raise, ast.Break, ast.Continue, ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(node, ast.Call) and _called_name(node.func) in _EXIT_CALLS:
            return True
    return False


def _calls_cuda(stmt: ast.AST) -> bool:
    """A `.cuda(...)` call that runs whenever `stmt` does (not under a conditional expression, a short-circuit
    or a lambda), of something that may hold tensors: `Module.cuda()` of a module without parameters or
    buffers (`nn.CrossEntropyLoss().cuda()`, `criterion.cuda(args.gpu)`) moves nothing and runs on a CPU-only
    build too."""
    return any(call.func.__class__ is ast.Attribute and call.func.attr == "cuda" and not _maybe_stateless(call.func.value)
               for call in unconditional_calls(stmt))


def _maybe_stateless(receiver: ast.AST) -> bool:
    """A module that may hold no tensors, so that its `.cuda()` moves nothing and runs without a GPU: a
    torch.nn class built without the arguments that give it parameters or buffers (`nn.CrossEntropyLoss()`,
    not `nn.CrossEntropyLoss(weight=w)`), by the module model generated from torch.  What a name holds
    (`criterion.cuda()`) is not known here: it is taken as a module that holds tensors."""
    if receiver.__class__ is not ast.Call:
        return False
    func = receiver.func
    name = func.attr if func.__class__ is ast.Attribute else func.id if func.__class__ is ast.Name else None
    found = semantics.lookup_module_class("torch.nn." + name) if name else None
    if found is None:
        return False
    given = {k.arg: True for k in receiver.keywords if k.arg is not None}
    return found.holds_state(given, tuple(True for _ in receiver.args)) is not True


_WRAPPERS = frozenset({"DataParallel", "DistributedDataParallel"})  # the modules that give `.module`


def needs_a_guarded_wrapper(parents: dict, bindings: dict, node: ast.AST) -> bool:
    """Is `node` an argument of `model.module.<method>(...)` where `model` gets `.module` only from a
    `DataParallel(...)` / `DistributedDataParallel(...)` wrap in a branch taken only with an accelerator
    (`if args.cuda:`)?  Without one, `model.module` raises before the argument is evaluated.
    `bindings`: the scope's name -> [(line, value)]."""
    call = parents.get(id(node))
    if call.__class__ is not ast.Call or node not in call.args or call.func.__class__ is not ast.Attribute:
        return False
    receiver = call.func.value
    if receiver.__class__ is not ast.Attribute or receiver.attr != "module" or receiver.value.__class__ is not ast.Name:
        return False
    wraps = [value for _, value in bindings.get(receiver.value.id, ())
             if value.__class__ is ast.Call and _called_name(value.func) in _WRAPPERS]
    return bool(wraps) and all(runs_only_with_accelerator(parents, value) for value in wraps)


def _in_body(branch, child) -> bool:
    return child is branch.body or (isinstance(branch.body, list) and any(s is child for s in branch.body))


def _in_orelse(branch, child) -> bool:
    return child is branch.orelse or (isinstance(branch.orelse, list) and any(s is child for s in branch.orelse))


def _asserts_accelerator(test: ast.AST) -> bool:
    if not is_device_guard(test) or any(isinstance(n, (ast.Not, ast.BoolOp)) for n in ast.walk(test)):
        return False
    text = ast.unparse(test).lower()
    return not any(word in text for word in ("cpu", "no_", "no-", "not", "!=", "none"))


def has_cpu_path(tree: ast.Module, parents: dict) -> bool:
    """Can this program run on a machine without an accelerator, by its own choice?

    Some evidence only says that a device is chosen, not that the CPU is one of the choices: a
    test of a GPU index or count (`if args.gpu is not None:`, `args.gpu != 0`: which GPU), a
    parameter holding a device, a GPU index or count (`def train(model, device)`,
    `ngpus_per_node`).  It counts only where the program does not put work on an accelerator
    whatever is chosen: an unguarded `.cuda(...)` or `device = "cuda"` outside any device test."""
    weak = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _called_name(node.func)
            if name in _RUNTIME_CHOICE_CALLS and not _only_reported(parents, node):
                return True
            if name == "add_argument" and _device_option(node):
                return True
        elif isinstance(node, (ast.If, ast.IfExp, ast.While)):
            if _reads_choice(node.test) and not _constant_flag(tree, node.test):
                if not _tests_gpu_index(node.test):
                    return True
                weak = True
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value.split(":")[0].strip().lower() == "cpu" and not _moves_to_host(parents, node) \
                    and not _compared_with_fixed_accelerator(tree, parents, node):
                return True
        elif isinstance(node, ast.Attribute) and node.attr == "device" and isinstance(node.ctx, ast.Load) \
                and not _called(parents, node):
            return True  # device-agnostic code: it follows the data (or a config) wherever it is
            # (`torch.device("cuda:0")` makes a device: what it names decides, as any constant)
        elif isinstance(node, ast.arg) and device_word(node.arg) and node.arg not in ("gpu", "gpus", "gpu_id", "gpu_ids"):
            if not _holds_device_or_index(node.arg):
                return True  # the caller chooses: a flag (`use_cuda`, `cpu`)
            weak = True  # the caller passes a device, which may be the CPU
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and "device" in t.id.lower() for t in node.targets):
            if not _names_accelerator(node.value) and not _gpu_indices(node.value):
                return True  # chosen by code we do not read (`device = get_device()`)
    return weak and not _commits_unconditionally(tree, parents)


def _constant_flag(tree: ast.AST, test: ast.AST) -> bool:
    """`if use_gpu:` (or `not use_gpu`) where the file binds `use_gpu` only to `True`/`False` literals
    (`use_gpu = True`), never as a parameter, loop target or import: a fixed setting, no choice made
    at run time."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if not isinstance(test, ast.Name):
        return False
    name, literal_targets, bound = test.id, set(), False
    for node in ast.walk(tree):  # (breadth first: an assignment comes before its target)
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Constant) \
                and type(node.value.value) is bool:
            literal_targets.add(id(node.targets[0]))
            bound = bound or isinstance(node.targets[0], ast.Name) and node.targets[0].id == name
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load) \
                and id(node) not in literal_targets \
                or isinstance(node, ast.arg) and node.arg == name \
                or isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names \
                or isinstance(node, ast.alias) and (node.asname or node.name) == name:
            return False
    return bound


_REPORT_METHODS = {"debug", "info", "warning", "warn", "error", "critical", "log"}  # logging.Logger's


def _only_reported(parents: dict, node: ast.AST) -> bool:
    """Is the value of `node` only shown (`print('CUDA available:', torch.cuda.is_available())`, a
    logger call, a format or f-string inside one), or only a DataLoader's `pin_memory=` (page-locked
    host memory for faster copies, wherever the program computes)?  Either chooses no device: the
    program may still commit to CUDA everywhere else."""
    holder = parents.get(id(node))
    if isinstance(holder, ast.keyword) and holder.arg == "pin_memory":
        return True
    for parent in ancestors(parents, node):
        if isinstance(parent, ast.Call):
            name = _called_name(parent.func)
            if name == "print" and isinstance(parent.func, ast.Name) \
                    or name in _REPORT_METHODS and isinstance(parent.func, ast.Attribute):
                return isinstance(parents.get(id(parent)), ast.Expr)
            if name != "format" or not isinstance(parent.func, ast.Attribute):
                return False
        elif not isinstance(parent, (ast.JoinedStr, ast.FormattedValue, ast.keyword, ast.Tuple, ast.BinOp)):
            return False
    return False


def _called(parents: dict, node: ast.AST) -> bool:
    parent = parents.get(id(node))
    return parent.__class__ is ast.Call and parent.func is node


def _gpu_indices(value: ast.AST) -> bool:
    """`[0]`, `(0, 1)`: a literal list of GPU indices (`device_ids = [0]` for `DataParallel`), no
    choice made by code the analysis does not read."""
    return isinstance(value, (ast.List, ast.Tuple)) and bool(value.elts) and all(
        isinstance(e, ast.Constant) and type(e.value) is int and e.value >= 0 for e in value.elts)


def _compared_with_fixed_accelerator(tree: ast.AST, parents: dict, node: ast.Constant) -> bool:
    """`device == "cpu"` (or `!=`) where `device` is a name the code binds only to accelerator
    literals (`device = "cuda:0"`, the CPU line commented out): the comparison is constant, no CPU
    choice.  Any other binding of the name in the tree (a parameter, a loop target, an import, an
    assignment of something else) keeps it a choice."""
    compare = parents.get(id(node))
    if not (isinstance(compare, ast.Compare) and len(compare.ops) == 1
            and isinstance(compare.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot))):
        return False
    other = compare.left if compare.comparators[0] is node else compare.comparators[0]
    if not isinstance(other, ast.Name):
        return False
    return _bound_only_to_accelerators(tree, other.id)


def _bound_only_to_accelerators(tree: ast.AST, name: str) -> bool:
    """Is every binding of `name` in the tree `name = <accelerator literal>` (and is there one)?"""
    assigned = stored = 0
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in n.targets):
            if len(n.targets) != 1 or not _names_accelerator(n.value):
                return False
            assigned += 1
        elif isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load):
            stored += 1  # also a loop or `with` target, `+=`, `del`
        elif isinstance(n, ast.arg) and n.arg == name:
            return False
        elif isinstance(n, ast.alias) and (n.asname or n.name).split(".")[0] == name:
            return False
        elif isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return False
    return assigned > 0 and stored == assigned


def _tests_gpu_index(test: ast.AST) -> bool:
    """`args.gpu is not None`, `args.gpu != 0`, `ngpus > 1`: a comparison of GPU-only words (no
    cuda/cpu/device/accelerator word, no availability call) with None or a number; in `and`/`or`/`not`,
    every part that reads the choice is one."""
    if isinstance(test, ast.BoolOp):
        return all(_tests_gpu_index(v) for v in test.values if is_device_guard(v))
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _tests_gpu_index(test.operand)
    if not isinstance(test, ast.Compare):
        return False
    if not all(isinstance(c, ast.Constant) and (c.value is None or type(c.value) is int) for c in test.comparators):
        return False
    words = [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(test.left)
             if isinstance(n, (ast.Name, ast.Attribute))]
    chosen = [w for w in words if device_word(w)]
    return bool(chosen) and all(_gpu_only(w) for w in chosen) and not any(w in _RUNTIME_CHOICE_CALLS for w in words)


def _gpu_only(word: str) -> bool:
    lowered = word.lower()
    return "gpu" in lowered and not any(w in lowered for w in ("cuda", "cpu", "device", "accel"))


def _holds_device_or_index(name: str) -> bool:
    """A parameter that holds a device (`device`, `dev_device`) or a GPU index or count
    (`ngpus_per_node`), not a flag that says whether to use one (`use_gpu`, `cuda`, `no_cuda`)."""
    lowered = name.lower()
    if any(w in lowered for w in ("cuda", "cpu", "accel")) or lowered.startswith(("use", "no_", "with", "enable", "disable")):
        return False
    return "device" in lowered or "gpu" in lowered


def _commits_unconditionally(tree: ast.AST, parents: dict) -> bool:
    """Does the program put work on an accelerator on every choice: `x.cuda(...)` or
    `device = "cuda"` that no device test guards?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda" \
                and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "torch"):
            if not under_device_guard(parents, node):
                return True
        elif isinstance(node, ast.Assign) and _names_accelerator(node.value) \
                and any(isinstance(t, ast.Name) and device_word(t.id) for t in node.targets):
            if not under_device_guard(parents, node):
                return True
    return False


def accelerator_made_default(tree: ast.Module) -> bool:
    """Does the program's entry make an accelerator the default for every tensor it creates, before
    it does anything else it could do without one: `torch.set_default_tensor_type("torch.cuda.FloatTensor")`
    (or `torch.cuda.FloatTensor`), `torch.set_default_device("cuda")`, as a statement of the module body
    or of its `if __name__ == "__main__":` block (not under any test)?  Without an accelerator that call
    or the first tensor after it raises (torch 2.13's CPU build: `TypeError: type torch.cuda.FloatTensor
    not available`, `AssertionError: Torch not compiled with CUDA enabled`): the program runs on none."""
    body = list(tree.body)
    for stmt in tree.body:
        if is_main_guard(stmt):
            body += stmt.body
    for stmt in body:
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and stmt.value.args):
            continue
        name, first = _called_name(stmt.value.func), stmt.value.args[0]
        if name == "set_default_tensor_type":
            text = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else ast.unparse(first)
            if text.startswith("torch.cuda."):
                return True
        elif name == "set_default_device" and _names_accelerator(first):
            return True
    return False


def hides_every_accelerator(tree: ast.Module) -> bool:
    """Does the program hide every GPU before it touches one: `os.environ["CUDA_VISIBLE_DEVICES"] = "-1"`
    (or `""`) as a statement of the module body or of its `if __name__ == "__main__":` block, with nothing
    the program ran before it (definitions and imports aside) naming an accelerator?  CUDA then lists no device (an
    invalid index hides itself and every later one; PyTorch reads the variable when it first initialises
    CUDA, which it does lazily), so `.cuda()` raises and no module of the program is ever on a GPU."""
    ran = []  # what the program ran before, in order: the module body, then a `__main__` block in it
    for stmt in tree.body:
        for inner in stmt.body if is_main_guard(stmt) else [stmt]:
            if _hides_gpus(inner):
                return not mentions_accelerator([s for s in ran if not isinstance(s, _DEFINITIONS)])
            ran.append(inner)
    return False


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def _hides_gpus(stmt: ast.AST) -> bool:
    """`os.environ["CUDA_VISIBLE_DEVICES"] = "-1"` or `= ""`: no index CUDA accepts comes first."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)):
        return False
    target = stmt.targets[0]
    if not (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) and target.value.attr == "environ"
            and isinstance(target.slice, ast.Constant) and target.slice.value == "CUDA_VISIBLE_DEVICES"):
        return False
    first = stmt.value.value.split(",")[0].strip()
    return first == "" or first.startswith("-")


def commits_to_accelerator(tree: ast.Module) -> bool:
    """Does the program put anything on an accelerator (`.cuda()`, `"cuda"`, `torch.device("cuda")`)?"""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "cuda" \
                and not (isinstance(node.value, ast.Name) and node.value.id == "torch"):  # `x.cuda()`, not `torch.cuda.*`
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _device_string(node.value):
            return True
    return False


def _device_string(text: str) -> bool:
    return text.split(":")[0].strip().lower() in ACCEL_TYPES


def _names_accelerator(value: ast.AST) -> bool:
    """`"cuda"`, `"cuda:0"`, `torch.device("cuda")`, `torch.device("cuda", 0)`, and a CUDA device whose
    index is filled in at run time: `f"cuda:{args.local_rank}"`, `"cuda:" + str(i)`, `"cuda:%d" % i`."""
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str) and _device_string(value.value)
    head = value.values[0] if isinstance(value, ast.JoinedStr) and value.values else \
        value.left if isinstance(value, ast.BinOp) and isinstance(value.op, (ast.Add, ast.Mod)) else None
    if isinstance(head, ast.Constant) and isinstance(head.value, str) and ":" in head.value:
        return _device_string(head.value)
    if isinstance(value, ast.Call) and _called_name(value.func) == "device" and value.args:
        return _names_accelerator(value.args[0])
    return False


def _reads_choice(test: ast.AST) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(n, ast.Call) and _called_name(n.func) in _MULTI_GPU_CALLS
                                                 for n in [node.left, *node.comparators]):
            return False
        if isinstance(node, ast.Attribute) and node.attr == "is_cuda":
            return False  # a property of one tensor, not the program's choice
    return is_device_guard(test)


def _device_option(call: ast.Call) -> bool:
    """`parser.add_argument("--no-cuda", ...)`, `"--device"`, `"--use_cpu"`, a `--gpu` flag."""
    options = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    action = next((k.value.value for k in call.keywords if k.arg == "action" and isinstance(k.value, ast.Constant)), None)
    for option in options:
        lowered = option.lower()
        if any(word in lowered for word in ("cpu", "cuda", "device", "accel")):
            return True
        if "gpu" in lowered and action in ("store_true", "store_false"):
            return True
    return False


def _moves_to_host(parents: dict, node: ast.AST) -> bool:
    """`x.to("cpu")`, `map_location="cpu"`, `torch.device("cpu")` inside those: a copy to the host,
    not a choice of where the program runs."""
    child = node
    for parent in ancestors(parents, node):
        if isinstance(parent, ast.Call) and _called_name(parent.func) == "device":
            child = parent
            continue
        if isinstance(parent, ast.keyword):
            return parent.arg == "map_location"
        if isinstance(parent, ast.Call):
            name = _called_name(parent.func)
            return name in ("to", "load") and any(a is child for a in parent.args)
        return False
    return False


def _called_name(func: ast.AST):
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None
