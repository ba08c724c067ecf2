"""The batch checker's collector policy (`parallel_check.tune_gc` / `collect_when_grown`): no
automatic collection, garbage in cycles still freed between files once enough was allocated.
Run in a fresh interpreter: the policy is process-wide."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import gc, json, weakref
from torchplace_rules import parallel_check as pc

class Node:
    pass

def cycles(n):
    """n pairs of objects that refer to each other, unreachable; a weak reference to the last."""
    for _ in range(n):
        a, b = Node(), Node()
        a.other, b.other = b, a
    return weakref.ref(a)

out = {}
pc.tune_gc()
out["automatic_after_tune"] = gc.isenabled()
pc._gc_limit = 5_000

small = cycles(10)
pc.collect_when_grown()
out["kept_under_limit"] = small() is not None

big = cycles(5_000)
pc.collect_when_grown()
out["freed_over_limit"] = small() is None and big() is None
out["limit_after_garbage"] = pc._gc_limit

live = [[] for _ in range(20_000)]  # growth that is live data, not garbage
pc.collect_when_grown()
out["limit_after_live_growth"] = pc._gc_limit
print(json.dumps(out))
'''


def test_batch_process_collects_cycles_between_files_and_backs_off_on_live_growth():
    path = os.pathsep.join(p for p in (str(ROOT / "shared_rules"), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["automatic_after_tune"] is False
    assert out["kept_under_limit"] is True  # under the limit nothing is scanned
    assert out["freed_over_limit"] is True  # past it, the cycles are gone
    assert out["limit_after_garbage"] == 5_000  # a collection that freed much keeps the limit
    assert out["limit_after_live_growth"] == 10_000  # one that freed little doubles it


def test_a_run_in_a_program_leaves_its_collector_as_it_was(tmp_path):
    import gc

    from torchplace_rules import Config
    from torchplace_rules.parallel_check import check_files

    (tmp_path / "m.py").write_text("import torch\nx = torch.zeros(2)\nx.to('cuda')\n")
    assert gc.isenabled()
    checked = list(check_files([(str(tmp_path / "m.py"), Config())], jobs=1, cross_file=True))
    assert [f.code for f in checked[0].findings] == ["TP201"]
    assert gc.isenabled()  # the caller's automatic collection is back


PROGRAM = r'''
import gc, sys
from torchplace_rules import cli, parallel_check as pc
real_exit = cli.exit_now
cli.exit_now = lambda code: (sys.stderr.write(f"collector {gc.isenabled()} code {code}\n"), real_exit(code))
sys.argv = ["torchplace", "check", "-j", "1", sys.argv[1]]
cli.run()
'''


def test_the_check_program_leaves_the_collector_off_when_it_exits(tmp_path):
    """`torchplace check` exits once its report is out (`cli.run`): switching the collector back on
    would only make it scan everything the run made, just before the process ends."""
    (tmp_path / "m.py").write_text("import torch\nx = torch.zeros(2)\nx.to('cuda')\n")
    path = os.pathsep.join(p for p in (str(ROOT / "shared_rules"), os.environ.get("PYTHONPATH")) if p)
    done = subprocess.run([sys.executable, "-c", PROGRAM, str(tmp_path / "m.py")], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": path})
    assert "TP201" in done.stdout and done.returncode == 1
    assert "collector False code 1" in done.stderr
