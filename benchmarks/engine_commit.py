"""Which engine a benchmark measured: the last commit of `shared_rules`, flagged when the
working tree differs from it (so a printed figure is never credited to the wrong commit)."""
from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def engine_commit() -> str:
    import torchplace_rules

    where = Path(torchplace_rules.__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%h %cI", "--", "shared_rules"],
                                capture_output=True, text=True, check=True).stdout.strip() or "unknown"
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "shared_rules"],
                               capture_output=True, text=True).stdout.strip()
    except (subprocess.CalledProcessError, OSError):
        commit, dirty = "unknown", ""
    inside = str(where).startswith(str(REPO))
    stamp = where.parent.parent / "COMMIT"  # written by whoever exported a clean engine copy
    if not inside and stamp.exists():
        commit = stamp.read_text().strip()
    note = "" if inside else f" (engine imported from {where})"
    return f"{commit}{' + uncommitted changes' if dirty and inside else ''}{note}"
