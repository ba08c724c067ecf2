"""Time `apply_fixes` on a file with N fixable findings (default 10,000; target < 2 s).

Prints the size, the findings, the check time (not part of the target) and the
time of one `apply_fixes` call, which sorts the fixes once, applies them in one
pass and parses the result once.  Usage: python benchmarks/apply_fixes.py [N]
"""
from __future__ import annotations

import sys
import time

from torchplace_rules import check_source
from torchplace_rules.fixes import apply_fixes


def program(n: int) -> str:
    lines = ["import torch", "device = torch.device('cuda')"]
    for i in range(n):
        lines += [f"x{i} = torch.zeros(3)", f"x{i}.to(device)"]
    return "\n".join(lines) + "\n"


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    text = program(n)
    start = time.perf_counter()
    findings = check_source(text, "many_fixes.py")
    checked = time.perf_counter() - start
    fixable = sum(f.fix is not None and f.fix.is_safe for f in findings)
    start = time.perf_counter()
    new_text, applied = apply_fixes(text, findings)
    took = time.perf_counter() - start
    print(f"{len(text.splitlines()):,} lines, {len(findings):,} findings ({fixable:,} with a safe fix); check {checked:.2f} s")
    print(f"apply_fixes: {applied:,} fixes applied in {took:.3f} s (target < 2 s for 10,000)")


if __name__ == "__main__":
    main()
