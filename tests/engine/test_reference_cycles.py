"""Checking a file must leave (almost) no garbage in reference cycles.  The batch checker runs with
automatic collection off (`parallel_check.tune_gc`) and collects between files only once much was
allocated, because reference counting frees nearly everything: a cycle made per call that holds a
file's trees or environments keeps all of it until such a collection, which then scans the whole
heap.  A recursive closure did that once (`converts_accel` holding `ev`: 390 objects per generated
file, 777,597 on 2,000, 5.9 % of `check`'s instructions in `gc_collect_main`).

Two checks: the engine's sources define no nested function that calls itself and no class inside a
function (each is a cycle per call), and checking real corpus files leaves few objects in cycles."""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import torchplace_rules

ROOT = Path(__file__).resolve().parents[2]
ENGINE = Path(torchplace_rules.__file__).parent


def _cycles_per_call(tree: ast.AST):
    """(line, what) for each nested function that names itself, and each class defined in a function."""
    for outer in ast.walk(tree):
        if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(outer):
            if inner is outer:
                continue
            if isinstance(inner, ast.ClassDef):
                yield inner.lineno, f"class {inner.name} defined in {outer.name}()"
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                    isinstance(n, ast.Name) and n.id == inner.name and isinstance(n.ctx, ast.Load)
                    for n in ast.walk(inner)):
                yield inner.lineno, f"{outer.name}.<locals>.{inner.name} calls itself"


def test_the_finder_sees_both_shapes():
    tree = ast.parse("def f(ev):\n    def walk(v):\n        return walk(v) if v else ev\n    return walk(1)\n"
                     "def g():\n    class Local:\n        pass\n    return Local()\n"
                     "def quiet(ev):\n    def leaf(v):\n        return ev\n    return leaf(1)\n")
    assert [what for _, what in _cycles_per_call(tree)] == ["f.<locals>.walk calls itself",
                                                            "class Local defined in g()"]


def test_engine_defines_no_cycle_per_call():
    found = [f"{path.relative_to(ENGINE)}:{line}: {what}"
             for path in sorted(ENGINE.rglob("*.py"))
             for line, what in _cycles_per_call(ast.parse(path.read_text(encoding="utf-8")))]
    assert found == [], "use a module function (with the closure's variables as parameters) or a module class"


SCRIPT = r'''
import gc, json, sys
from pathlib import Path
from torchplace_rules.engine import check_source

files = sorted(Path(sys.argv[1]).glob("*/*.py"))[:150]
texts = [(f.read_text(encoding="utf-8"), str(f)) for f in files]
for text, path in texts:  # caches, interned strings and imports settle first
    check_source(text, path)
gc.collect()
gc.disable()
for text, path in texts:
    check_source(text, path)
print(json.dumps({"files": len(texts), "in_cycles": gc.collect()}))
'''


def test_checking_files_leaves_little_in_cycles():
    path = os.pathsep.join(p for p in (str(ROOT / "shared_rules"), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "tests" / "corpus" / "cases")],
                          capture_output=True, text=True, timeout=600, env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["files"] == 150
    # 3,162 objects on these 150 files when this was written (ast's literal_eval closures, a few trees);
    # the recursive closure left 1,100 per file.
    assert out["in_cycles"] < 50 * out["files"], out
