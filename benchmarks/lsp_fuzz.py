#!/usr/bin/env python3
"""Random LSP edit sequences against the real server, many of them (issue 15, items 1 and 4).

The same generator and checks as `tests/server/test_lsp_fuzz.py` (which runs a
bounded number on every test run): documents with `\\n`, `\\r\\n`, `\\r`, non-ASCII
text and the characters `str.splitlines` breaks at but LSP does not; edits with
out-of-range positions; requests in the middle of bursts.  Every sequence is run
to its end (problems are counted, not raised) and the figures printed:

    python benchmarks/lsp_fuzz.py --fuzz [--sequences 1000]

sequences, changes, requests and answers, problems (text differing from the
client's, unanswered requests, diagnostics outside the document, fixes that edit
more than their span), errors the server logged, and the time per sequence.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from lsp_fuzz import FuzzSession, documents, edits  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fuzz", action="store_true", help="run the long mode (required: this takes minutes)")
    parser.add_argument("--sequences", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not args.fuzz:
        parser.error("pass --fuzz to run it")
    totals = {"sequences": 0, "changes": 0, "requests": 0, "answered": 0, "fixes_checked": 0,
              "with_problems": 0, "server_errors": 0}
    times: list[float] = []
    shown: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        session = FuzzSession(folder)

        @settings(max_examples=args.sequences, deadline=None, database=None, derandomize=args.seed == 0,
                  phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(initial=documents(), drawn=edits())
        def one(initial, drawn):
            start = time.perf_counter()
            outcome = session.run(initial, drawn)
            times.append(time.perf_counter() - start)
            totals["sequences"] += 1
            totals["changes"] += outcome.changes
            totals["requests"] += outcome.requests
            totals["answered"] += outcome.answered
            totals["fixes_checked"] += outcome.fixes_checked
            totals["server_errors"] += len(outcome.server_errors)
            if outcome.problems:
                totals["with_problems"] += 1
                if len(shown) < 5:
                    shown.append(f"{outcome.problems[0][:400]}\n  document: {initial!r}\n  edits: {drawn!r}")

        started = time.perf_counter()
        try:
            one()
        finally:
            session.close()
    ordered = sorted(times)
    print(f"{totals['sequences']} sequences, {totals['changes']} changes, {totals['requests']} requests, "
          f"{totals['answered']} answered ({totals['requests'] - totals['answered']} unanswered), "
          f"{totals['fixes_checked']} fixes and ignore edits checked")
    print(f"sequences with a problem: {totals['with_problems']}; errors logged by the server: {totals['server_errors']}")
    if ordered:
        print(f"per sequence: median {statistics.median(ordered) * 1000:.0f} ms, "
              f"p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1000:.0f} ms; total {time.perf_counter() - started:.0f} s")
    for text in shown:
        print("---\n" + text)
    return 1 if totals["with_problems"] or totals["server_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
