"""A `ProjectIndex` that counts the reads of each file (by name): the checks that look at other files of
the project must read each of them once per version, not on every check (the server checks on each
keystroke)."""
from __future__ import annotations

from pathlib import Path

from torchplace_rules.project_index import ProjectIndex


class CountingIndex(ProjectIndex):
    def __init__(self, root):
        super().__init__(root)
        self.reads: dict = {}

    def read(self, path):
        name = Path(path).name
        self.reads[name] = self.reads.get(name, 0) + 1
        return super().read(path)


def assert_read_once_per_version(project: CountingIndex, check, expected: list, changed: Path, text: str,
                                 expected_after: list) -> None:
    """`check()` gives `expected` twice, the second time reading no file again; once `changed` holds
    `text` (another version) it is read again, and `check()` gives `expected_after`."""
    assert check() == expected
    first = dict(project.reads)
    assert first.get(changed.name)
    assert check() == expected
    assert project.reads == first  # nothing read again
    changed.write_text(text)
    assert check() == expected_after
    assert project.reads[changed.name] == first[changed.name] + 1
