#!/usr/bin/env python3
"""Precision and recall of the engine on the real-bug corpus, split by single-/cross-file.

    python benchmarks/corpus_precision.py            # table
    python benchmarks/corpus_precision.py -v         # plus every miss and false alarm
    python benchmarks/corpus_precision.py --no-cross-file   # each file on its own (imports unknown)
    python benchmarks/corpus_precision.py --batch b1 # only the cases added in batch b1 (fresh recall)
    python benchmarks/corpus_precision.py --wheels   # findings on transformers/diffusers/timm
                                                     # -> benchmarks/review/findings.csv

Cases are checked with cross-file resolution (the case folder is the project
root: imports between its files get their real classes, helpers and devices)
unless `--no-cross-file` is given.  A finding counts as a true positive when file, 1-based line and code match an
`expected` entry of the case (or one of its `also` codes); a finding that
matches neither `expected` nor `acceptable` is a false positive.  Hints are
left out.  See tests/corpus/README.md.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "corpus"))
import corpus_scoring  # noqa: E402
from engine_commit import engine_commit  # noqa: E402


def _ratio(num: int, den: int) -> str:
    return f"{num / den:6.1%}" if den else "   n/a"


def _row(label: str, scores) -> str:
    tp = sum(len(s.true_positives) for s in scores)
    fn = sum(len(s.false_negatives) for s in scores)
    fp = sum(len(s.false_positives) for s in scores)
    return (f"{label:<14}{len(scores):>6}{tp + fn:>10}{tp:>6}{fn:>6}{fp:>6}"
            f"  {_ratio(tp, tp + fp)}  {_ratio(tp, tp + fn)}")


def table(scores) -> str:
    lines = [f"{'cases':<14}{'n':>6}{'expected':>10}{'TP':>6}{'FN':>6}{'FP':>6}  precision  recall"]
    for kind in ("single-file", "cross-file"):
        lines.append(_row(kind, [s for s in scores if s.case.kind == kind]))
    lines.append(_row("negatives", [s for s in scores if s.case.is_negative]))
    lines.append(_row("all", scores))
    batches = sorted({s.case.batch for s in scores})
    if len(batches) > 1:
        for batch in batches:
            lines.append(_row(f"batch {batch}", [s for s in scores if s.case.batch == batch]))
    return "\n".join(lines)


def by_code(scores) -> str:
    tp, fn, fp = Counter(), Counter(), Counter()
    for s in scores:
        tp.update(e.code for e in s.true_positives)
        fn.update(e.code for e in s.false_negatives)
        fp.update(r.code for r in s.false_positives)
    lines = [f"{'code':<8}{'expected':>10}{'TP':>6}{'FN':>6}{'FP':>6}  recall"]
    for code in sorted(set(tp) | set(fn) | set(fp)):
        lines.append(f"{code:<8}{tp[code] + fn[code]:>10}{tp[code]:>6}{fn[code]:>6}{fp[code]:>6}"
                     f"  {_ratio(tp[code], tp[code] + fn[code])}")
    return "\n".join(lines)


FRESH_WINDOW = 30  # issue 10: fresh recall on the last 30 cases added


def fresh(scores) -> str:
    """Fresh recall on the last cases added (recorded when each batch came, before the engine saw it),
    next to what the engine finds of them now."""
    cases = [s.case for s in scores]
    taken = corpus_scoring.latest_batches(cases, corpus_scoring.fresh_records(), FRESH_WINDOW)
    names = {r.batch for r in taken}
    window = [s for s in scores if s.case.batch in names]
    found, expected = sum(r.found for r in taken), sum(r.expected for r in taken)
    now = sum(len(s.true_positives) for s in window)
    return (f"fresh recall, last {len(window)} cases added (at least {FRESH_WINDOW}, in whole batches: {', '.join(r.batch for r in taken)}; "
            f"recorded in tests/corpus/fresh_recall.toml before any engine change for them): "
            f"{found} of {expected} expected findings ({_ratio(found, expected).strip()}); "
            f"the engine now finds {now} of them")


def details(scores) -> str:
    lines = []
    for s in scores:
        for e in s.false_negatives:
            lines.append(f"MISS  {s.case.name}/{e.file}:{e.line} {e.code}")
        known = set(map(id, s.false_positives)) - set(map(id, s.unknown_false_positives))
        for r in s.false_positives:
            tag = "FALSE (known)" if id(r) in known else "FALSE"
            lines.append(f"{tag} {s.case.name}/{r.file}:{r.line} {r.code} {r.message}")
    return "\n".join(lines) or "(no misses, no false alarms)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every miss and false alarm")
    parser.add_argument("--wheels", action="store_true",
                        help="instead: check transformers/diffusers/timm wheels and write benchmarks/review/findings.csv")
    parser.add_argument("--jobs", type=int, default=0, help="processes for --wheels (default: CPU count)")
    parser.add_argument("--no-cross-file", dest="cross_file", action="store_false",
                        help="check each file on its own, without resolving imports between the case's files")
    parser.add_argument("--batch", action="append",
                        help="only cases of this batch (case.toml `batch`, b0 for the first cases); repeatable")
    args = parser.parse_args(argv)
    if args.wheels:
        sys.path.insert(0, str(ROOT / "benchmarks" / "review"))
        import wheel_findings
        return wheel_findings.main(jobs=args.jobs or None)
    cases = corpus_scoring.load_cases()
    if args.batch:
        cases = [c for c in cases if c.batch in args.batch]
    scores, crashes = corpus_scoring.score_all(cases, cross_file=args.cross_file)
    print(f"engine: last shared_rules commit {engine_commit()}; "
          f"cross-file resolution {'on' if args.cross_file else 'off'}")
    for name, error in crashes.items():
        print(f"ENGINE CRASH on {name}: {error} (case left out of the table)")
    print(table(scores))
    print()
    print(by_code(scores))
    if not args.batch:
        print()
        print(fresh(scores))
    if args.verbose:
        print()
        print(details(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())
