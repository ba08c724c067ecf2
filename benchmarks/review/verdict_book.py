"""Hand-written review verdicts, kept apart from the generated findings and merged back into them.

A review writes one row per judged finding into a verdicts CSV (`verdict` is `true` or
`false`, `reason` says which PyTorch or code fact decides it).  Every run of a review
script regenerates its findings table and looks each finding up here by its key, so a
re-run after an engine change keeps the review already done and leaves only findings
the engine did not report before open.  Used by the wheel review and the repository review.
"""
from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

VERDICTS = ("true", "false")


def message_digest(message: str) -> str:
    """Short stable digest of a finding's message (part of a key: a reworded finding is a new one)."""
    return hashlib.sha1(message.encode("utf-8")).hexdigest()[:10]


@dataclass
class VerdictBook:
    """Verdicts of one review, keyed by `key_fields` of a finding row (all compared as text)."""

    path: Path
    key_fields: tuple[str, ...]
    entries: dict[tuple, dict] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, key_fields: tuple[str, ...]) -> "VerdictBook":
        book = cls(path, key_fields)
        if path.exists():
            with path.open(newline="", encoding="utf-8") as fh:
                for row in csv.DictReader(fh):
                    if row["verdict"] not in VERDICTS:
                        raise ValueError(f"{path}: verdict must be true or false, not {row['verdict']!r}: {row}")
                    book.entries[book.key(row)] = row
        return book

    def key(self, row: dict) -> tuple:
        return tuple(str(row[f]) for f in self.key_fields)

    def lookup(self, row: dict) -> dict | None:
        return self.entries.get(self.key(row))

    def unmatched(self, rows: list[dict]) -> list[dict]:
        """Verdicts whose finding is no longer reported (the engine stopped reporting it or reworded it)."""
        reported = {self.key(r) for r in rows}
        return [v for k, v in self.entries.items() if k not in reported]


def write_table(path: Path, fields: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fields, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)


def read_table(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))
