"""Is a class from an installed package an `nn.Module`?  Asked of jedi, cached.

`class Model(PreTrainedModel)` (transformers) or `class Net(pl.LightningModule)`
under an alias the engine does not know: the plain import table cannot tell, so
jedi finds the class in the user's environment and we follow its bases (by
reading the class statement and asking jedi where each base name leads) until
`torch.nn.Module` or a dead end.  Every failure (no jedi, no environment, a
class it cannot find) answers False: unknown, never a finding.
"""
from __future__ import annotations

import ast
import sys
import threading
from pathlib import Path
from typing import Optional

TORCH_MODULE_NAMES = {"torch.nn.modules.module.Module", "torch.nn.Module"}
MAX_BASE_DEPTH = 12
SKIPPED_TOPS = {"torch", "numpy", "builtins", "typing", "collections", "abc", "enum", "dataclasses", "os", "sys"}


class ThirdPartyClasses:
    def __init__(self, root: Optional[Path], environment: Optional[str], enabled: bool = True,
                 extra_paths: tuple = ()) -> None:
        self.root = root
        self.extra_paths = tuple(str(p) for p in extra_paths)
        self.environment_path = environment
        self.enabled = enabled
        self.cache: dict[str, bool] = {}
        self.lock = threading.Lock()
        self._project = None
        self._environment = None
        self._broken = False

    def is_module_class(self, qualname: str) -> bool:
        """True only when jedi shows `qualname` derives from torch.nn.Module."""
        if not self.enabled or self._broken or "." not in qualname:
            return False
        top = qualname.split(".")[0]
        if top in SKIPPED_TOPS or top in sys.stdlib_module_names:  # the standard library has no nn.Module
            return False
        with self.lock:
            if qualname in self.cache:
                return self.cache[qualname]
            try:
                answer = self._lookup(qualname)
            except Exception:  # jedi failed: unknown
                answer = False
            self.cache[qualname] = answer
            return answer

    # -- jedi --------------------------------------------------------------------
    def _jedi(self):
        import jedi

        if self._project is None:
            if self.environment_path:
                self._environment = jedi.create_environment(self.environment_path, safe=False)
            else:
                self._environment = jedi.InterpreterEnvironment()
            self._project = jedi.Project(str(self.root or Path.cwd()), added_sys_path=self.extra_paths)
        return jedi

    def _lookup(self, qualname: str) -> bool:
        try:
            jedi = self._jedi()
        except Exception:
            self._broken = True
            return False
        module, _, name = qualname.rpartition(".")
        code = f"from {module} import {name}\n{name}"
        script = jedi.Script(code, project=self._project, environment=self._environment)
        defs = script.infer(2, 0)
        return any(self._derives(d, 0, set()) for d in defs if d.type == "class")

    def _derives(self, definition, depth: int, seen: set) -> bool:
        full = definition.full_name or ""
        if full in TORCH_MODULE_NAMES:
            return True
        if depth >= MAX_BASE_DEPTH or full in seen or definition.module_path is None or definition.line is None:
            return False
        seen.add(full)
        if full in self.cache:
            return self.cache[full]
        path = Path(definition.module_path)
        if path.suffix not in (".py", ".pyi"):
            return False
        text = path.read_text(encoding="utf-8", errors="replace")
        node = _class_at(ast.parse(text), definition.line, definition.name)
        if node is None:
            return False
        jedi = self._jedi()
        script = jedi.Script(text, path=str(path), project=self._project, environment=self._environment)
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in ("object", "Generic", "ABC"):
                continue
            if not isinstance(base, (ast.Name, ast.Attribute)):
                continue
            for target in script.infer(base.end_lineno, base.end_col_offset - 1):
                if target.type == "class" and self._derives(target, depth + 1, seen):
                    self.cache[full] = True
                    return True
        return False


def _class_at(tree: ast.Module, line: int, name: str) -> Optional[ast.ClassDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name and (node.lineno == line or
                                                                        any(d.lineno == line for d in node.decorator_list)):
            return node
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    return None
