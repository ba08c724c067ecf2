"""What a call runs before it returns: the function it calls, and the function that
`torch.multiprocessing.spawn(fn, args, nprocs)` (or `start_processes`) runs in every worker process.
With `join=True` (the default) those return only when every worker has finished, so a file a worker
saves exists when the next statement runs, on the same machine (`mp.spawn(train, ...)` then
`test(args)`, which loads what `train` saved)."""
from __future__ import annotations

import ast
from typing import Optional

_SPAWNERS = {"spawn", "start_processes"}
_MODULE = "torch.multiprocessing"


def spawner_names(tree: ast.Module) -> tuple[set, set]:
    """The names under which this file imported `torch.multiprocessing` (`import torch.multiprocessing as
    mp`, `from torch import multiprocessing`) and its spawners (`from torch.multiprocessing import spawn`)."""
    modules, functions = set(), set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == _MODULE and a.asname:
                    modules.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            for a in node.names:
                if node.module == "torch" and a.name == "multiprocessing":
                    modules.add(a.asname or a.name)
                elif node.module == _MODULE and a.name in _SPAWNERS:
                    functions.add(a.asname or a.name)
    return modules, functions


def spawned_function(call: ast.Call, names: tuple[set, set]) -> Optional[str]:
    """The name of the function a joined `torch.multiprocessing.spawn(fn, ...)` call runs, else None."""
    modules, functions = names
    func = call.func
    if isinstance(func, ast.Name):
        is_spawn = func.id in functions
    elif isinstance(func, ast.Attribute) and func.attr in _SPAWNERS:
        is_spawn = (isinstance(func.value, ast.Name) and func.value.id in modules) or ast.unparse(func.value) == _MODULE
    else:
        is_spawn = False
    if not is_spawn or not call.args or not isinstance(call.args[0], ast.Name):
        return None
    join = call.args[3] if len(call.args) > 3 else next((k.value for k in call.keywords if k.arg == "join"), None)
    if join is not None and not (isinstance(join, ast.Constant) and join.value is True):
        return None
    return call.args[0].id
