"""`torchplace check` over many files: worker processes, results in input order.

Each worker keeps one `ProjectIndex` (module summaries are computed once per
worker and reused for every file it checks).  Workers are replaced after
`TASKS_PER_WORKER` files so that a 10,000-file project runs in bounded memory,
and the summary cache is bounded too.  Output order never depends on timing:
results come back in the order the files were listed.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator, Optional

from .config import Config
from .engine import check_source
from .files import read_source

TASKS_PER_WORKER = 2000  # files a worker checks before it is replaced
SUMMARIES_PER_WORKER = 300

_index = None  # the worker's ProjectIndex (None: cross-file resolution is off)


def new_index(cross_file: bool, static: bool = True):
    """A worker's index; `static`: no file changes during the run (not so with --fix)."""
    if not cross_file:
        return None
    from .project_index import ProjectIndex

    return ProjectIndex(max_summaries=SUMMARIES_PER_WORKER, static=static)


def tune_gc() -> None:
    """Collect cyclic garbage less often.  A checking process holds large long-lived trees (the
    module summaries) and allocates a great many short-lived values; with CPython's default
    thresholds it re-scans those trees in a full collection every few files, which cost about
    20% of a cross-file run over the transformers package.  Values are freed by reference
    counting either way; only cycles wait longer."""
    import gc

    gc.set_threshold(50_000, 20, 20)


def _init_worker(cross_file: bool) -> None:
    global _index
    tune_gc()
    _index = new_index(cross_file)


def check_one(item: tuple[str, Config], project=None) -> tuple[str, Optional[str], Optional[str], list, list]:
    """(shown path, text or None, read error, findings, engine errors) of one file."""
    shown, config = item
    text, error = read_source(Path(shown))
    if text is None:
        return shown, None, error, [], []
    errors: list = []
    findings = check_source(text, shown, config, errors, project=project if project is not None else _index)
    return shown, text, None, findings, errors


def check_files(items: Iterable[tuple[str, Config]], jobs: Optional[int], cross_file: bool) -> Iterator[tuple]:
    """Results of `check_one` for each (path, config), in order."""
    items = list(items)
    jobs = jobs or os.cpu_count() or 1
    jobs = max(1, min(jobs, len(items)))
    if jobs == 1:
        tune_gc()
        index = new_index(cross_file)
        for item in items:
            yield check_one(item, index)
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    chunk = max(1, min(16, len(items) // (jobs * 8) or 1))
    with context.Pool(jobs, initializer=_init_worker, initargs=(cross_file,), maxtasksperchild=max(1, TASKS_PER_WORKER // chunk)) as pool:
        yield from pool.imap(check_one, items, chunksize=chunk)
