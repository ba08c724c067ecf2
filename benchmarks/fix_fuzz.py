#!/usr/bin/env python3
"""Generated sources through the engine and its fixes, many of them (issue 15, item 1; long mode).

`tests/engine/test_line_separators.py` runs a bounded number of these on every test
run: programs with fixable findings of several rules, odd line separators (the ones
`str.splitlines` breaks at but Python and LSP do not) in comments, strings and form
feeds, mixed `\\n`/`\\r\\n`/`\\r` breaks.  Here each generated program is also cut at
a random point (most cuts do not parse), every source is checked and fixed, and
problems are counted instead of raised:

    python benchmarks/fix_fuzz.py --fuzz [--sources 10000] [--seed 0]

Printed: sources, how many parsed, findings, fixes applied, exceptions, fixed texts
whose junk moved or changed (a fix that edited outside its span), and time per source.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engine"))

from test_line_separators import ODD, PROGRAM, build, fixed, strip_junk  # noqa: E402

from torchplace_rules import Config, check_source  # noqa: E402


def random_plan(rng: random.Random) -> list:
    def junk():
        return None if rng.random() < 0.5 else "".join(rng.choice(ODD + ["a", "é", " ", "ж"])
                                                       for _ in range(rng.randint(1, 6)))
    return [(rng.choice(["\n", "\r\n", "\r"]), junk(), junk(), rng.random() < 0.3) for _ in PROGRAM]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", action="store_true", help="run the long mode (required: this takes minutes)")
    parser.add_argument("--sources", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not args.fuzz:
        parser.error("pass --fuzz to run it")
    rng = random.Random(args.seed)
    config = Config()
    totals = {"sources": 0, "parsed": 0, "findings": 0, "fixed_sources": 0, "exceptions": 0, "spans_broken": 0}
    start = time.perf_counter()
    for n in range(args.sources):
        plan = random_plan(rng)
        clean, junky = build(plan, False), build(plan, True)
        if n % 2:  # half of them cut short: a truncated statement, most often a syntax error
            junky = junky[: rng.randint(0, len(junky))]
        totals["sources"] += 1
        try:
            findings = check_source(junky, "t.py", config)
            totals["findings"] += len(findings)
            totals["parsed"] += not any(f.code == "TP001" for f in findings)
            got = fixed(junky)
            totals["fixed_sources"] += got != junky
            if n % 2 == 0 and (strip_junk(got) != fixed(clean) or got.count("<J>") != junky.count("<J>")):
                totals["spans_broken"] += 1
                print(f"source {n}: a fix edited outside its span", file=sys.stderr)
        except Exception:  # counted, with the first lines of the trace, so one run shows them all
            totals["exceptions"] += 1
            print(f"source {n}: {traceback.format_exc(limit=3)}", file=sys.stderr)
    elapsed = time.perf_counter() - start
    for key, value in totals.items():
        print(f"{key:>14}: {value}")
    print(f"{'ms per source':>14}: {1000 * elapsed / max(1, totals['sources']):.1f}")
    return 1 if totals["exceptions"] or totals["spans_broken"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
