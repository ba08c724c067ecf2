"""Pinned pure-Python wheels of big PyTorch projects, fetched and unpacked under /tmp.

Used by the precision review (wheel_findings.py) and by benchmarks/engine_speed.py,
so both look at exactly the same files.  Versions are pinned so that review
verdicts keyed by path and line stay valid across runs.
"""
from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

WHEELS = {"transformers": "5.23.0", "diffusers": "0.42.1", "timm": "1.0.31"}
DOWNLOAD_DIR = Path("/tmp/tp-wheels")
UNPACK_DIR = Path("/tmp/tp-wheels-src")


def wheel_label(name: str) -> str:
    return f"{name}-{WHEELS[name]}"


def unpacked(name: str) -> Path:
    """Folder holding the unpacked wheel `name` (downloading it with pip if needed)."""
    version = WHEELS[name]
    target = UNPACK_DIR / wheel_label(name)
    if (target / ".complete").exists():
        return target
    DOWNLOAD_DIR.mkdir(parents=True, exist_ok=True)
    found = sorted(DOWNLOAD_DIR.glob(f"{name}-{version}-*.whl"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q",
                        f"{name}=={version}", "-d", str(DOWNLOAD_DIR)], check=True)
        found = sorted(DOWNLOAD_DIR.glob(f"{name}-{version}-*.whl"))
    target.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(found[0]) as zf:
        zf.extractall(target)
    (target / ".complete").write_text("")
    return target


def python_files(name: str) -> list[Path]:
    """The wheel's package sources (not its .dist-info), sorted for stable runs."""
    root = unpacked(name)
    return sorted(p for p in (root / name).rglob("*.py"))
