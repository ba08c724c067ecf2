"""The public repositories of the precision review, archived at their pinned commits under /tmp.

`repos.toml` names each repository and the commit its verdicts were written for.  The code
comes from the session's `fetch` snapshots (`/work/.mirror/<owner>+<name>/repo`, a git
directory); the pinned commit's Python files are written into `/tmp/tp-review/<owner>+<name>`
so that the checker walks a plain folder, as a user's `torchplace check` would.  Nothing is
ever written into this project's tree.
"""
from __future__ import annotations

import shutil
import subprocess
import tomllib
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPOS_TOML = HERE / "repos.toml"
MIRROR_DIR = Path("/work/.mirror")
ARCHIVE_DIR = Path("/tmp/tp-review")
KEPT_NAMES = {".gitignore", "pyproject.toml", "setup.cfg"}


class SourceMissing(RuntimeError):
    """A repository's snapshot (or its pinned commit) is not on this machine."""


@dataclass(frozen=True)
class Repo:
    name: str  # owner/name as GitHub spells it
    commit: str
    why: str
    python_lines: int  # as recorded in repos.toml

    @property
    def slug(self) -> str:
        return self.name.replace("/", "+")


def load_repos(path: Path = REPOS_TOML) -> list[Repo]:
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    return [Repo(r["name"], r["commit"], r.get("why", ""), int(r.get("python_lines", 0))) for r in data["repo"]]


def mirror(repo: Repo) -> Path:
    """The snapshot's git directory (fetched bare as `repo`, or with a work tree as `repo/.git`)."""
    base = MIRROR_DIR / repo.slug / "repo"
    for candidate in (base / ".git", base):
        if (candidate / "HEAD").exists():
            return candidate
    raise SourceMissing(f"{repo.name}: no snapshot under {base}; bring it with the search tool's "
                        f"`fetch github:{repo.name}`")


def _wanted(path: str) -> bool:
    """Files the check reads: Python sources, and what decides which of them are walked or how."""
    name = path.rsplit("/", 1)[-1]
    return name.endswith((".py", ".pyi")) or name in KEPT_NAMES


def checkout(repo: Repo) -> Path:
    """Folder holding the repository's Python files (and ignore/config files) at its pinned commit.

    Written blob by blob from the snapshot rather than with `git archive`: a snapshot may lack
    its largest blobs (data files), which would make an archive of the whole tree fail."""
    target = ARCHIVE_DIR / repo.slug
    stamp = target / ".tp-review-commit"
    if stamp.exists() and stamp.read_text().strip() == repo.commit:
        return target
    git = ["git", "--git-dir", str(mirror(repo))]
    listing = subprocess.run([*git, "ls-tree", "-r", "-z", repo.commit], capture_output=True)
    if listing.returncode != 0:
        raise SourceMissing(f"{repo.name}: commit {repo.commit} not in the snapshot: "
                            f"{listing.stderr.decode(errors='replace').strip()}")
    blobs = []  # (object id, path) of regular files we want
    for entry in listing.stdout.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.decode("utf-8", "surrogateescape").split("\t", 1)
        mode, kind, oid = meta.split()
        if kind == "blob" and mode in ("100644", "100755") and _wanted(path):
            blobs.append((oid, path))
    batch = subprocess.run([*git, "cat-file", "--batch"], input="".join(f"{oid}\n" for oid, _ in blobs).encode(),
                           capture_output=True, check=True).stdout
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    pos, absent = 0, []
    for oid, path in blobs:
        end = batch.index(b"\n", pos)
        header = batch[pos:end].split()
        pos = end + 1
        if header[-1] == b"missing":
            absent.append(path)
            continue
        size = int(header[2])
        dest = target / path
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(batch[pos:pos + size])
        pos += size + 1
    if absent:
        print(f"  {repo.name}: {len(absent)} wanted files absent from the snapshot: {absent[:5]}")
    stamp.write_text(repo.commit + "\n")
    return target


def checked_files(root: Path) -> list[Path]:
    """The files `torchplace check <root>` walks (its own .gitignore-aware walker)."""
    from torchplace_rules.files import iter_python_files

    return list(iter_python_files([str(root)]))


def count_lines(root: Path) -> tuple[int, int]:
    """(files, lines) of what the checker walks under `root`."""
    from torchplace_rules.files import read_source
    from torchplace_rules.text_lines import split_lines

    files = checked_files(root)
    lines = 0
    for path in files:
        text, _ = read_source(path)
        lines += len(split_lines(text)) if text else 0
    return len(files), lines
