"""A library module's loader that only CUDA-only programs call.

A helper module (no script, no test) that loads a checkpoint may look device-agnostic on its own: it
reads `w.device` in some other function, takes a `device` parameter.  Whether a machine without a GPU
ever runs its load is decided by the programs that call it.  When every project file that imports the
module and calls the loading function (or a function of the module that calls it) puts work on an
accelerator with no CPU path of its own (`device = "cuda"`, an unconditional `.cuda()`), the load runs
only where a GPU is, and `map_location` saves nothing (BigGAN's `utils.load_weights`, called by
`train.py` and `sample.py`, both CUDA-only).

Read only for a load about to be reported, once per importer (the facts are kept on the ProjectIndex).
"""
from __future__ import annotations

import ast
from pathlib import Path

from .checkpoints import _called_name
from .device_choice import accelerator_made_default, commits_to_accelerator, has_cpu_path
from .file_facts import file_fact, parsed
from .load_callers import _entry_names
from .scopes import parent_map

MAX_CALLER_FILES = 12  # importers read; a module imported by more is left to its own evidence


def run_only_by_cuda_only_programs(ev, ctx, load: ast.Call) -> bool:
    """Is the library file's load (in a function) run only by importers that call it and are CUDA-only?"""
    project = getattr(ev, "project", None)
    if project is None or not ev.path or ctx.is_program:
        return False
    func = ctx.enclosing_function(load)
    if func is None:
        return False
    try:
        importers = project.importers.importers_of(project.real_file(ev.path))
    except (OSError, ValueError, RuntimeError):
        return False
    if not importers or len(importers) > MAX_CALLER_FILES:
        return False
    names = _entry_names(ctx, func)
    callers = 0
    for importer in importers:
        facts = _caller_facts(project, importer)
        if facts is None:
            return False  # (unreadable: it may call the load from a program with a CPU path)
        called, cuda_only = facts
        if called & names:
            if not cuda_only:
                return False
            callers += 1
    return callers > 0


def _caller_facts(project, path: Path):
    """(names the file calls, it is CUDA-only), asked once per version of the file (`file_fact`);
    None when unreadable."""
    return file_fact(project, path, _calls_and_cuda_only)


def _calls_and_cuda_only(text):
    tree = parsed(text)
    if tree is None:
        return None
    return ({_called_name(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)} - {None},
            accelerator_made_default(tree) or commits_to_accelerator(tree) and not has_cpu_path(tree, parent_map(tree)))
