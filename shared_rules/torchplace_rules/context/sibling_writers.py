"""A checkpoint that only CPU-only programs of the loader's own folder write.

DGL's `dimenet/main.py` loads `f"{torch_path}/{target}.pt"`; the only program of the project that
writes that file is its sibling `convert_tf_ckpt_to_pytorch.py`, which fills a model it never moves
from TensorFlow arrays (`torch.from_numpy`) and saves `model.state_dict()` to the same template.  A
program (not a library module, whose writer saves what callers hand it) that names no accelerator or
device, loads no torch file and imports no project module that names one has only CPU tensors to save,
so the file holds CPU tensors, which load on any machine.  One writer of that path in the folder that
names a device, loads a torch file (whose storages it would save back where they were), or saves
from the checked file without moving to the CPU, keeps the finding; so does a path no sibling writes.
"""
from __future__ import annotations

import ast
from typing import Optional

from .checkpoints import Provenance, load_path, path_keys
from .cpu_checkpoints import is_torch_save
from .file_facts import file_fact, parsed
from .load_callers import MAX_FOLDER_FILES, names_accelerator
from .scopes import FUNCTIONS, enclosing, is_script, mentions_accelerator, parent_map


def written_by_cpu_siblings(ev, ctx, load: ast.Call) -> bool:
    """Do programs of the checked file's folder write the loaded path (its exact text or format
    template), every one of them naming no accelerator and loading no torch file, and does the checked
    file itself not write it?"""
    project = getattr(ev, "project", None)
    path = load_path(load)
    if project is None or not ev.path or path is None:
        return False
    keys = path_keys(path, ctx.provenance.scope(ctx.enclosing_function(load)), load.lineno)
    if _saved_keys(ctx.tree, ctx.provenance) & keys:
        return False  # (what the checked program saves there is its own: the file rules judge it)
    try:
        own = project.real_file(ev.path)
        siblings = sorted(p for p in own.parent.iterdir() if p.suffix == ".py" and p != own)
    except (OSError, ValueError):
        return False
    if len(siblings) > MAX_FOLDER_FILES:
        return False
    writers = 0
    for sibling in siblings:
        facts = file_fact(project, sibling, _saving_program)
        if facts is None or not facts[0] & keys:
            continue
        if not facts[1] or _imports_device_code(project, sibling, facts[2]):
            return False  # (a library's writer saves what its callers hand it, from wherever they put it)
        writers += 1
    return writers > 0


def _saving_program(text) -> Optional[tuple]:
    """What a sibling that calls `torch.save` tells (None: it calls none, or is unreadable): (the keys of
    the paths its saves write, is it a program that names no accelerator and loads no torch file, the
    (module, level) of each of its imports), kept per version of the file (`file_fact`)."""
    if text is None or "torch.save(" not in text:
        return None
    tree = parsed(text)
    if tree is None:
        return None
    parents = parent_map(tree)
    provenance = Provenance(tree, lambda node: enclosing(parents, node, FUNCTIONS))
    keys = _saved_keys(tree, provenance)
    cpu_program = is_script(tree) and not mentions_accelerator(tree) and not _loads_torch_files(tree)
    imports = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imports.append((node.module, node.level))
        elif isinstance(node, ast.Import):
            imports += [(alias.name, 0) for alias in node.names]
    return keys, cpu_program, tuple(imports)


def _saved_keys(tree: ast.Module, provenance: Provenance) -> frozenset:
    """The keys of the paths the `torch.save` calls of `tree` write."""
    keys = set()
    for node in ast.walk(tree):
        if node.__class__ is ast.Call and is_torch_save(node) and len(node.args) >= 2:
            keys |= path_keys(node.args[1], provenance.scope(provenance.enclosing_function(node)), node.lineno)
    return frozenset(keys)


def _imports_device_code(project, path, imports: tuple) -> bool:
    """Does a project module the program imports (one step) name an accelerator or a device (a helper
    that may hand it a moved model), or is one unreadable?"""
    for module, level in imports:
        source = project.resolve(path, module, level)
        if source is not None and file_fact(project, source, names_accelerator):
            return True  # (None: not the project's, a library)
    return False


def _loads_torch_files(tree: ast.Module) -> bool:
    return any(node.__class__ is ast.Call and node.func.__class__ is ast.Attribute and node.func.attr == "load"
               and node.func.value.__class__ is ast.Name and node.func.value.id == "torch" for node in ast.walk(tree))
