#!/usr/bin/env python3
"""What asking jedi from a subprocess costs (issue 15, item 9).

The server resolves third-party base classes (`class Model(PreTrainedModel)`)
with jedi.  In-process (`InterpreterEnvironment`) jedi imports any compiled
module it meets inside the server; the server now uses a subprocess
environment of its own interpreter instead.  This prints the first and the
next check of a file whose classes derive from three installed packages'
classes, in each environment, as the median of N fresh processes.

    python benchmarks/jedi_environment.py [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile

PROBE = r'''
import sys, time
from torchplace_rules import check_source
from torchplace_rules.project_index import ProjectIndex
TEXT = """import torch
from jupyter_client import KernelManager
from pygls.lsp.server import LanguageServer
from lsprotocol.types import Position
device = torch.device("cuda")
class A(KernelManager):
    pass
class B(LanguageServer):
    pass
class C(Position):
    pass
a = A().to(device)
"""
root = sys.argv[2]
idx = ProjectIndex(root=root, environment=sys.executable if sys.argv[1] == "subprocess" else None)
t = time.perf_counter(); check_source(TEXT, root + "/t.py", project=idx); first = time.perf_counter() - t
t = time.perf_counter(); check_source(TEXT + "\n", root + "/t.py", project=idx); warm = time.perf_counter() - t
print(first, warm)
'''


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        open(f"{root}/pyproject.toml", "w").close()
        for env in ("interpreter", "subprocess"):
            firsts, warms = [], []
            for _ in range(args.runs):
                out = subprocess.run([sys.executable, "-c", PROBE, env, root], capture_output=True, text=True, check=True)
                first, warm = map(float, out.stdout.split())
                firsts.append(first)
                warms.append(warm)
            print(f"jedi {env:11}: first check {statistics.median(firsts) * 1000:6.0f} ms, "
                  f"next check {statistics.median(warms) * 1000:4.0f} ms (median of {args.runs} processes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
