"""Where a `torch.load` runs and what the project's own checkpoints hold, beyond the checked file.

A helper that loads a checkpoint (`def _load(path): return torch.load(path)`) often sits in a file
that picks no device; the program that calls it does (`device = "cuda" if ... else "cpu"`, a
`--device` option).  `run_by_device_choosing_importer` finds such a program among the files that
import the checked file: it calls the function that loads (or a function of the checked file that
calls it), has a CPU path, puts something on an accelerator, and writes no checkpoint itself (a
file the same run wrote is loaded where it was written).  A program that names no accelerator
itself may leave the choice to a function of another project module it imports by name and calls
(SegmenTron's `default_setup(args)` sets `args.device` to "cuda" or "cpu"): that function then
has to make the whole choice (an accelerator and a CPU path) and write no checkpoint.

`project_saves_cpu_state` answers "does the project write its checkpoints from the CPU?": a
function of the project that calls `torch.save` and moves tensors to the CPU (`param.cpu()`,
`.to("cpu")`, BasicSR's `save_network`).  An entry read from a loaded checkpoint
(`torch.load(p)["params"]`) may be such a file's; without a link between that writer and this
reader, nothing is reported for it.

Both read other files' syntax only when a candidate load is about to be reported, once per file
and project (kept on the `ProjectIndex`).
"""
from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Optional

from .checkpoints import _called_name, is_writer_call
from .cpu_checkpoints import is_torch_save
from .device_choice import commits_to_accelerator, has_cpu_path, hides_every_accelerator
from .file_facts import file_fact, parsed
from .scopes import mentions_accelerator, own_nodes, parent_map

MAX_IMPORTERS = 4
MAX_IMPORTED = 8
MAX_FOLDER_FILES = 40  # the files of a scripts folder read for a device
MAX_PROJECT_FILES = 4000
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", "site-packages", ".venv", "venv", ".tox", "build", "dist"}
_NOT_WRITERS = ("load", "read", "restore", "resume", "from_")


def run_by_device_choosing_importer(ev, ctx, load: ast.Call) -> bool:
    """Does a file importing the checked one run this load (call its function) in a program that
    chooses its device at run time, with a CPU path, and writes no checkpoint of its own?"""
    project = getattr(ev, "project", None)
    if project is None or not ev.path:
        return False
    func = ctx.enclosing_function(load)
    if func is None:
        return False
    names = _entry_names(ctx, func)
    for importer in project.importers.importers_of(Path(ev.path))[:MAX_IMPORTERS]:
        facts = _importer_facts(project, importer)
        if facts is not None and facts[1] and facts[0] & names:
            return True
    return False


def importers_hide_every_accelerator(ev) -> bool:
    """Does every project file that imports the checked one hide every GPU too (`hides_every_accelerator`)?
    Then the checked program's classes run on no GPU in any program of the project.  Without a project
    (one file checked) the file is the program; more importers than are read count as a "no"."""
    trees = importer_trees(ev)
    return trees is not None and all(tree is not None and hides_every_accelerator(tree) for tree in trees)


def importer_trees(ev) -> Optional[list]:
    """The parsed project files that import the checked one (None in the list: unreadable); [] without
    a project (one file checked: it is the program); None when there are more than are read (or the
    checked file's real path cannot be told)."""
    project = getattr(ev, "project", None)
    if project is None or not ev.path:
        return []
    try:
        importers = project.importers.importers_of(project.real_file(ev.path))  # (the table keys real paths)
    except (OSError, ValueError, RuntimeError):
        return None
    if len(importers) > MAX_IMPORTERS:
        return None
    return [_parsed(project, path) for path in importers]


def scripts_folder_names_no_accelerator(ev) -> bool:
    """Is the checked module one of a folder of scripts (no `__init__.py`: no package, nothing outside
    imports it by a package path) that the folder's programs import, and do none of the folder's files
    nor the files importing it name an accelerator or a device?  Then nothing of the project puts its
    classes on a GPU (DGL's CPU-only `examples/pytorch/dgmg`: `main.py` builds the model and trains it
    where it is made)."""
    project = getattr(ev, "project", None)
    if project is None or not ev.path:
        return False
    try:
        own = project.real_file(ev.path)
    except (OSError, ValueError):
        return False
    folder = own.parent
    if (folder / "__init__.py").exists():
        return False
    importers = project.importers.importers_of(own)
    if not importers or len(importers) > MAX_IMPORTERS:
        return False
    try:
        siblings = sorted(p for p in folder.iterdir() if p.suffix == ".py" and p != own)
    except OSError:
        return False
    if len(siblings) > MAX_FOLDER_FILES:
        return False
    return not any(file_fact(project, path, names_accelerator) for path in dict.fromkeys([*importers, *siblings]))


def names_accelerator(text: Optional[str]) -> bool:
    """Does a file's text name an accelerator or a device (`mentions_accelerator`), or is it unreadable
    or not Python?  Asked of a file once per version (`file_fact`)."""
    tree = parsed(text)
    return tree is None or mentions_accelerator(tree)


def _entry_names(ctx, func) -> set:
    """The function's name and the names of the checked file's functions that call it."""
    names = {func.name}
    for node in ast.walk(ctx.tree):
        if isinstance(node, ast.Call) and _called_name(node.func) == func.name:
            caller = ctx.enclosing_function(node)
            if caller is not None and caller is not func:
                names.add(caller.name)
    return names


def _importer_facts(project, path: Path) -> Optional[tuple]:
    """(names it calls, chooses its device with a CPU path and writes no checkpoint), kept per file."""
    cache = project.__dict__.setdefault("_load_caller_facts", {})
    key = (path, project.fingerprint(path))
    if key in cache:
        return cache[key]
    facts = None
    tree = _parsed(project, path)
    if tree is not None:
        calls = _calls(tree)
        names = {_called_name(c.func) for c in calls} - {None}
        chooses = False
        if not _writes(calls):
            chooses = _chooses(tree)
            if not chooses and not commits_to_accelerator(tree):
                # the choice may be made by a helper of the project the program calls
                # (`default_setup(args)` setting `args.device` to "cuda" or "cpu"): the helper
                # itself puts work on an accelerator and has a CPU path, and writes no checkpoint
                helpers = _called_helpers(project, path, tree, names)
                chooses = any(_chooses(h) for h in helpers) and not any(_writes(_calls(h)) for h in helpers)
        facts = (names, chooses)
    cache[key] = facts
    return facts


def _parsed(project, path: Path) -> Optional[ast.Module]:
    """The tree of a project file (None: unreadable or not Python).  Not kept: what is kept is the
    facts read from it (`_importer_facts`), whole trees of every importer would stay in memory."""
    return parsed(project.read(path))


def _calls(node: ast.AST) -> list:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call)]


def _chooses(node: ast.AST) -> bool:
    return commits_to_accelerator(node) and has_cpu_path(node, parent_map(node))


def _writes(calls: list) -> bool:
    return any(is_writer_call(c) and not (_called_name(c.func) or "").lower().startswith(_NOT_WRITERS) for c in calls)


def _called_helpers(project, path: Path, tree: ast.Module, called: set) -> list:
    """The top-level functions of other project modules that the program imports by name
    (`from pkg.setup import default_setup`) and calls."""
    helpers = []
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        wanted = {alias.name for alias in node.names if (alias.asname or alias.name) in called}
        if not wanted:
            continue
        source = project.resolve(path, node.module, node.level)
        if source is None or source == path:
            continue
        module = _parsed(project, source)
        if module is not None:
            helpers += [f for f in module.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and f.name in wanted]
    return helpers


def imported_project_modules(ev, wanted: frozenset = frozenset()) -> list:
    """The trees of the project modules the checked file imports names from (`from utils import
    EarlyStopping`, at its top level), at most MAX_IMPORTED; read only when a load is about to be reported.
    Those that give a `wanted` name (called before a load: `Trainer(...)`) come first, so that the cap
    drops others, and a package's `__init__` is followed to the module it takes the name from."""
    project = getattr(ev, "project", None)
    if project is None or not ev.path:
        return []
    path = Path(ev.path)
    imports = [n for n in ev.tree.body if isinstance(n, ast.ImportFrom) and n.module]
    imports.sort(key=lambda n: not any((a.asname or a.name) in wanted for a in n.names))
    trees = []
    for node in imports:
        source = project.resolve(path, node.module, node.level)
        if source is not None and source != path:
            tree = _parsed(project, source)
            if tree is not None:
                trees.append(tree)
                trees += _reexporting(project, source, tree, {a.name for a in node.names})
                if len(trees) >= MAX_IMPORTED:
                    break
    return trees[:MAX_IMPORTED]


def _reexporting(project, source: Path, tree: ast.Module, names: set) -> list:
    """The modules a package's `__init__` (or any module) takes the imported names from:
    `from .trainer import Trainer` in `trainer/__init__.py`, one step."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and names & {a.asname or a.name for a in node.names}:
            origin = project.resolve(source, node.module, node.level)
            if origin is not None and origin != source:
                other = _parsed(project, origin)
                if other is not None:
                    found.append(other)
    return found


def project_saves_cpu_state(ev) -> bool:
    """Does a function of the project (the checked file's, without a project) call `torch.save` and
    move tensors to the CPU?"""
    return _project_has(ev, "_saves_cpu_state", "cpu", _saves_cpu_state)


def project_saves_from_chosen_gpu(ev) -> bool:
    """Does a file of the project (the checked file, without a project) call `torch.save` and put
    things on a GPU whose index the run picks (`.cuda(args.gpu)`, `torch.device("cuda", rank)`)?  Its
    checkpoints then hold tensors of that GPU, which a machine with fewer GPUs cannot restore as saved."""
    return _project_has(ev, "_saves_from_chosen_gpu", "cuda", _saves_from_chosen_gpu)


def _project_has(ev, key: str, needle: str, test) -> bool:
    """`test(tree)` for some file of the project that calls `torch.save` and mentions `needle` (the
    answer kept on the ProjectIndex per root), or for the checked file."""
    project = getattr(ev, "project", None)
    if project is None:
        return test(ev.tree)
    cache = project.__dict__.setdefault(key, {})
    root = project.root
    if root is None and ev.path:  # (the CLI's index serves every project it meets)
        root = project.project_root(Path(ev.path)) or Path(ev.path).parent
    if root is None:
        return test(ev.tree)
    if root not in cache:
        cache[root] = _scan(project, Path(root), needle, test)
    return cache[root] or test(ev.tree)


def _scan(project, root: Path, needle: str, test) -> bool:
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            seen += 1
            if seen > MAX_PROJECT_FILES:
                return False
            text = project.read(Path(folder) / name)
            if text is None or "torch.save(" not in text or needle not in text:
                continue
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError):
                continue
            if test(tree):
                return True
    return False


def _saves_from_chosen_gpu(tree: ast.AST) -> bool:
    """One body (a function's, or the module's own statements) calls `torch.save` and picks the GPU, and
    not every save of it runs only in the process whose picked index is 0 (`if args.gpu == 0:` where the
    body only ever picks `args.gpu`): those save `cuda:0` tensors, which any machine with a GPU restores."""
    scopes = [tree] + [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        calls = [n for n in own_nodes(scope) if isinstance(n, ast.Call)]
        saves = [c for c in calls if is_torch_save(c)]
        picked = {ast.unparse(i) for i in (_chosen_gpu(c) for c in calls) if i is not None}
        if saves and picked:
            only = next(iter(picked)) if len(picked) == 1 else None
            parents = parent_map(scope) if only is not None else {}
            if only is None or not all(_only_at_index_zero(parents, save, only) for save in saves):
                return True
    return False


def _only_at_index_zero(parents: dict, node: ast.AST, index: str) -> bool:
    """Is `node` in the body of an `if <index> == 0:` (or `0 == <index>`)?"""
    child, parent = node, parents.get(id(node))
    while parent is not None:
        if isinstance(parent, ast.If) and any(s is child for s in parent.body):
            test = parent.test
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                sides = [test.left, test.comparators[0]]
                if any(isinstance(x, ast.Constant) and x.value == 0 and not isinstance(x.value, bool) for x in sides) \
                        and index in {ast.unparse(x) for x in sides}:
                    return True
        child, parent = parent, parents.get(id(parent))
    return False


def _chosen_gpu(call: ast.Call) -> Optional[ast.AST]:
    """The index of `m.cuda(args.gpu)` (an index that is no literal), `torch.device("cuda", rank)`; else None."""
    args = call.args
    if isinstance(call.func, ast.Attribute) and call.func.attr == "cuda" and len(args) == 1:
        return None if isinstance(args[0], ast.Constant) else args[0]
    if _called_name(call.func) == "device" and len(args) == 2 and isinstance(args[0], ast.Constant) \
            and args[0].value == "cuda" and not isinstance(args[1], ast.Constant):
        return args[1]
    return None


def _saves_cpu_state(tree: ast.AST) -> bool:
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = [n for n in ast.walk(func) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
        if any(is_torch_save(c) for c in calls) and any(_to_cpu(c) for c in calls):
            return True
    return False


def _to_cpu(call: ast.Call) -> bool:
    """`t.cpu()`, `t.to("cpu")`, `t.to(torch.device("cpu"))`."""
    if call.func.attr == "cpu" and not call.args:
        return True
    if call.func.attr == "to" and call.args:
        arg = call.args[0]
        if isinstance(arg, ast.Call) and _called_name(arg.func) == "device" and arg.args:
            arg = arg.args[0]
        return isinstance(arg, ast.Constant) and arg.value == "cpu"
    return False
