"""Real PyTorch files for the benchmark: modeling files from the transformers wheel."""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import zipfile
from pathlib import Path

CACHE = Path(os.environ.get("TORCHPLACE_BENCH_CACHE", "/tmp/torchplace-bench"))


def modeling_files() -> list[Path]:
    """All `transformers/models/*/modeling_*.py`, downloading the wheel once (no deps)."""
    root = CACHE / "transformers"
    files = sorted(root.glob("transformers/models/*/modeling_*.py"))
    if files:
        return files
    wheel_dir = CACHE / "wheel"
    wheel_dir.mkdir(parents=True, exist_ok=True)
    wheels = glob.glob(str(wheel_dir / "transformers-*.whl"))
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "transformers", "-d", str(wheel_dir)], check=True)
        wheels = glob.glob(str(wheel_dir / "transformers-*.whl"))
    with zipfile.ZipFile(wheels[0]) as wheel:
        for name in wheel.namelist():
            if name.startswith("transformers/models/") and os.path.basename(name).startswith("modeling_") and name.endswith(".py"):
                wheel.extract(name, root)
    return sorted(root.glob("transformers/models/*/modeling_*.py"))


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def pick_by_size(files: list[Path], target: int) -> tuple[str, str]:
    """(label, text): the real file closest to `target` lines; when the largest file is
    too small, the largest plus the real file that brings it closest to `target`."""
    sized = [(line_count(p), p) for p in files]
    best = min(sized, key=lambda s: abs(s[0] - target))
    if abs(best[0] - target) <= target * 0.1:
        return f"{best[1].parent.name}/{best[1].name} ({best[0]} lines)", best[1].read_text()
    largest = max(sized)
    rest = target - largest[0]
    extra = min((s for s in sized if s[1] != largest[1]), key=lambda s: abs(s[0] - rest))
    text = largest[1].read_text().rstrip("\n") + "\n\n" + extra[1].read_text()
    label = f"{largest[1].name} + {extra[1].name} ({len(text.splitlines())} lines, two real files concatenated)"
    return label, text
