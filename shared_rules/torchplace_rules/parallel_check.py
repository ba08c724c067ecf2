"""`torchplace check` over many files: worker processes, results in input order.

Each worker keeps one `ProjectIndex` (module summaries are computed once per
worker and reused for every file it checks).  Workers are replaced after
`TASKS_PER_WORKER` files so that a 10,000-file project runs in bounded memory,
and the summary cache is bounded too.  Output order never depends on timing:
results come back in the order the files were listed.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Optional

from .config import Config
from .engine import check_source
from .model import Finding, Span
from .notebook_files import NotebookError, NotebookFile, notebook_language_ok, read_notebook
from .notebook_program import NotebookProgram, cell_program, join_cells
from .rules import SYNTAX_ERROR
from .source_files import SourceFile, UnreadableFile, read_bytes, read_source

NOTEBOOK_SIZE_FACTOR = 20  # a notebook's JSON may be this many times max-file-size (outputs, images)

TASKS_PER_WORKER = 2000  # files a worker checks before it is replaced
BATCH_FILES = 200  # files of one folder a worker checks in one go (fewer when there are few files)
SUMMARIES_PER_WORKER = 300

_index = None  # the worker's ProjectIndex (None: cross-file resolution is off)


def new_index(cross_file: bool, static: bool = True, named_roots: tuple = ()):
    """A worker's index; `static`: no file changes during the run (not so with --fix);
    `named_roots`: the folders named on the command line (`ProjectIndex.project_root`)."""
    if not cross_file:
        return None
    from .project_index import ProjectIndex

    return ProjectIndex(max_summaries=SUMMARIES_PER_WORKER, static=static, named_roots=named_roots)


def tune_gc() -> None:
    """A checking process does without automatic cyclic collection.  It holds large long-lived
    trees (the module summaries: 300,000 objects after 20 transformers files) and allocates a
    great many short-lived values that reference counting frees; a collection re-scans the
    long-lived trees (0.35 s for 500,000 objects) and finds almost nothing (1,405 objects in
    cycles after 120 transformers files): automatic collections took 7 % of that cross-file run
    (0.38 s of 5.4, timed with `gc.callbacks`).
    `collect_when_grown`, called between files, bounds what cycles could hold."""
    import gc

    global _gc_limit
    gc.disable()
    _gc_limit = GC_FIRST_LIMIT


GC_FIRST_LIMIT = 1_000_000  # tracked objects allocated (net) since the last collection
_gc_limit = GC_FIRST_LIMIT


_restore_gc = True  # False once `ends_with_check` says the process exits when its run is over


def ends_with_check() -> None:
    """Called by the `torchplace check` program (`cli.run`), which exits as soon as its report is
    out: `batch_gc` leaves the collector off at the end of the run.  Switched back on, its first
    collection would scan every object the run made since `tune_gc` (0.8 % of the instructions
    of a 30-file `check -j 1`) just before the process ends."""
    global _restore_gc
    _restore_gc = False


@contextmanager
def batch_gc():
    """`tune_gc` for one run in a process that is not the checker's alone (`check --jobs 1` called
    from a program or a test): automatic collection is back as it was when the run ends."""
    import gc

    was = gc.isenabled()
    tune_gc()
    try:
        yield
    finally:
        if was and _restore_gc:
            gc.enable()


def collect_when_grown() -> None:
    """Between two files of a process set up by `tune_gc`: collect once the objects allocated since
    the last collection pass the limit; when that frees little (the growth was live data, such as
    summaries), the limit doubles, so collections stay rare while garbage in cycles stays within
    the live data's size.  Nothing to do where collection is automatic."""
    import gc

    global _gc_limit
    if gc.isenabled() or gc.get_count()[0] < _gc_limit:
        return
    if gc.collect() < _gc_limit // 10:
        _gc_limit *= 2


def _init_worker(cross_file: bool, named_roots: tuple) -> None:
    global _index
    tune_gc()
    _index = new_index(cross_file, named_roots=named_roots)


@dataclass
class CheckedFile:
    """One file's result.  `text` is what was checked: the file's text, or for a notebook
    the program of its code cells (`program` maps its lines to cells)."""

    path: str
    text: Optional[str] = None
    error: Optional[str] = None  # why it was not checked
    findings: list[Finding] = field(default_factory=list)
    engine_errors: list = field(default_factory=list)
    source: Optional[SourceFile] = None  # a Python file's encoding, for writing fixes back
    notebook: Optional[NotebookFile] = None
    program: Optional[NotebookProgram] = None


def check_one(item: tuple[str, Config], project=None) -> CheckedFile:
    """Read and check one file (Python source or notebook)."""
    shown, config = item
    project = project if project is not None else _index
    if shown.endswith(".ipynb"):
        return _check_notebook(shown, config, project)
    try:
        source = read_source(shown, config.max_file_size)
    except UnreadableFile as exc:
        return CheckedFile(shown, error=_with_hint(str(exc)))
    errors: list = []
    findings = check_source(source.text, shown, config, errors, project=project)
    return CheckedFile(shown, source.text, None, findings, errors, source=source)


def _check_notebook(shown: str, config: Config, project) -> CheckedFile:
    try:
        raw = read_bytes(shown, config.max_file_size * NOTEBOOK_SIZE_FACTOR).decode("utf-8-sig")
        notebook = read_notebook(raw)
    except UnreadableFile as exc:
        return CheckedFile(shown, error=_with_hint(str(exc)))
    except UnicodeDecodeError as exc:
        return CheckedFile(shown, error=f"not a notebook: not UTF-8 ({exc.reason})")
    except NotebookError as exc:
        return CheckedFile(shown, error=f"not a notebook: {exc}")
    skipped = notebook_language_ok(notebook)
    if skipped:
        return CheckedFile(shown, error=skipped)
    program = join_cells(notebook.cells)
    errors: list = []
    findings = check_notebook_program(program, lambda text: check_source(text, shown, config, errors, project=project))
    return CheckedFile(shown, program.text, None, findings, errors, notebook=notebook, program=program)


def _with_hint(reason: str) -> str:
    if "size limit" in reason:
        return reason + " (raise it with `max-file-size` in [tool.torchplace] or --max-file-size)"
    return reason


def check_notebook_program(program: NotebookProgram, check) -> list[Finding]:
    """Findings of the program, plus each broken cell's own syntax finding (moved to its lines)."""
    findings = list(check(program.text))
    for cell in program.cells:
        if not cell.broken:
            continue
        for f in check(cell_program(cell.text)[0]):
            if f.code == SYNTAX_ERROR.code:
                s = f.span
                findings.append(replace(f, span=Span(s.start_line + cell.first_line, s.start_col,
                                                     s.end_line + cell.first_line, s.end_col)))
    findings.sort(key=lambda f: f.sort_key)
    return findings


def check_files(items: Iterable[tuple[str, Config]], jobs: Optional[int], cross_file: bool,
                named_roots: tuple = ()) -> Iterator[tuple]:
    """Results of `check_one` for each (path, config), in order."""
    items = list(items)
    jobs = jobs or os.cpu_count() or 1
    jobs = max(1, min(jobs, len(items)))
    if jobs == 1:
        with batch_gc():
            index = new_index(cross_file, named_roots=named_roots)
            for item in items:
                yield check_one(item, index)
                collect_when_grown()
        return
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    size = max(1, min(BATCH_FILES, -(-len(items) // (jobs * 4))))
    batches = folder_batches(items, size)
    # (a batch ends with its folder, often before `size` files: a worker is replaced after the
    # batches that make TASKS_PER_WORKER files on average, not after TASKS_PER_WORKER // size)
    per_worker = max(1, TASKS_PER_WORKER * len(batches) // len(items))
    with context.Pool(jobs, initializer=_init_worker, initargs=(cross_file, named_roots), maxtasksperchild=per_worker) as pool:
        for results in pool.imap(check_batch, batches):
            yield from results


def folder_batches(items: list, size: int) -> list[list]:
    """`items` in order, cut into runs of at most `size` files of one folder: a worker checks a
    folder's files together, so what it derives from the folder (the summaries of its modules,
    who imports whom) is derived once, not once per worker."""
    batches: list[list] = []
    folder = None
    for item in items:
        here = os.path.dirname(item[0])
        if not batches or here != folder or len(batches[-1]) >= size:
            batches.append([])
            folder = here
        batches[-1].append(item)
    return batches


def check_batch(items: list) -> list[CheckedFile]:
    checked = []
    for item in items:
        checked.append(check_one(item))
        collect_when_grown()
    return checked
