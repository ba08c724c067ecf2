"""The figures of a reviewed findings table: counts, precision per rule, false findings per 100k lines.

Rows are dicts with `code`, `severity` and `verdict` (`true`, `false` or empty while open).
A finding is counted as false or true only once it has a verdict; open findings are
listed apart and make every figure provisional.
"""
from __future__ import annotations

from collections import Counter

SEVERITIES = ("error", "warning")


def _pct(num: int, den: int) -> str:
    return f"{num / den:.1%}" if den else "n/a"


def per_rule_table(rows: list[dict]) -> str:
    """Findings per rule and severity, with reviewed true/false counts and precision."""
    keys = sorted({(r["code"], r["severity"]) for r in rows}, key=lambda k: (k[0], SEVERITIES.index(k[1])
                                                                           if k[1] in SEVERITIES else 9))
    count = Counter((r["code"], r["severity"]) for r in rows)
    true = Counter((r["code"], r["severity"]) for r in rows if r["verdict"] == "true")
    false = Counter((r["code"], r["severity"]) for r in rows if r["verdict"] == "false")
    lines = [f"{'rule':<7}{'severity':<9}{'findings':>9}{'true':>6}{'false':>6}{'open':>6}  precision"]
    for key in keys:
        t, f = true[key], false[key]
        lines.append(f"{key[0]:<7}{key[1]:<9}{count[key]:>9}{t:>6}{f:>6}{count[key] - t - f:>6}  {_pct(t, t + f)}")
    t, f = sum(true.values()), sum(false.values())
    lines.append(f"{'all':<16}{len(rows):>9}{t:>6}{f:>6}{len(rows) - t - f:>6}  {_pct(t, t + f)}")
    return "\n".join(lines)


def false_rate(rows: list[dict], lines_checked: int) -> str:
    """False findings per 100k lines, errors and warnings apart (the issue's goal: 0 and <= 1)."""
    parts = []
    for severity in SEVERITIES:
        n = sum(1 for r in rows if r["severity"] == severity and r["verdict"] == "false")
        parts.append(f"false {severity}s {n} ({n * 100_000 / lines_checked:.2f} per 100k lines)")
    n = sum(1 for r in rows if r["verdict"] == "false")
    parts.append(f"all false {n} ({n * 100_000 / lines_checked:.2f} per 100k lines)")
    return "; ".join(parts)


def per_repo_table(rows: list[dict], lines_by_repo: dict[str, int]) -> str:
    """Lines, findings and false findings of each repository (empty ones included)."""
    count = Counter(r["repo"] for r in rows)
    false = Counter(r["repo"] for r in rows if r["verdict"] == "false")
    open_ = Counter(r["repo"] for r in rows if not r["verdict"])
    width = max(len(name) for name in lines_by_repo)
    out = [f"{'repository':<{width}}{'lines':>9}{'findings':>9}{'false':>6}{'open':>6}"]
    for name, n in lines_by_repo.items():
        out.append(f"{name:<{width}}{n:>9,}{count[name]:>9}{false[name]:>6}{open_[name]:>6}")
    return "\n".join(out)
