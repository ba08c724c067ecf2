"""Analysis off the event loop, one job per unit at a time, newest text wins.

Checks run in a thread pool (the event loop keeps answering while a big file is
checked, and a slow document occupies one worker, not the server).  Results are
cached per unit and reused while the text and config are unchanged, so push,
pull, code actions and hover share one run.  A request that is cancelled while
waiting leaves the run going (its result is cached); a run for text that has
since changed is never returned.
"""
from __future__ import annotations

import asyncio
import logging
import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from torchplace_rules import Config, EngineError, Finding, Span
from torchplace_rules.analysis_memo import AnalysisMemo
from torchplace_rules.fixes import parses

from .analysis_units import CellPart, Unit, build_unit, cell_program, unit_is_open
from .rule_isolation import check_with_isolation

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)
SYNTAX_CODE = "TP001"
MAX_MEMOS = 8  # documents kept ready for incremental re-analysis
BURST_GAP_S = 0.015  # changes closer together than this come from a program or key repeat, not from typing
SETTLE_S = 0.05  # during such a burst, the check waits until the changes have paused this long
SLOW_ANALYSIS_S = 0.5  # re-checks slower than this are logged at Info (the first check of each unit always is)


@dataclass(frozen=True, eq=False)
class PlacedEdit:
    part: CellPart
    span: Span  # in the part's own coordinates
    new_text: str


@dataclass(eq=False)
class PlacedFinding:
    """A finding in the coordinates of the document (or cell) it is shown in."""

    finding: Finding
    part: CellPart
    span: Span
    related: list[tuple[CellPart, Span, str]]
    edits: Optional[list[PlacedEdit]]  # the fix's edits; None when there is no fix

    @property
    def key(self) -> str:
        """Stable name of this finding, carried in Diagnostic.data and code-action data."""
        s = self.span
        return f"{self.finding.code}:{s.start_line}:{s.start_col}:{s.end_line}:{s.end_col}"


@dataclass(eq=False)
class Analysis:
    unit: Unit
    config: Optional[Config]  # None: checking is off for this unit (disabled or excluded)
    findings: list[Finding]  # program coordinates
    cell_findings: dict[str, list[Finding]]  # cells checked on their own (they do not parse)
    crashes: list[EngineError] = field(default_factory=list)
    by_uri: dict[str, list[PlacedFinding]] = field(default_factory=dict)
    deps: dict = field(default_factory=dict)  # other files it read (path -> fingerprint), see cross_file
    seconds: float = 0.0  # how long the check took (for the log)
    broken_uris: frozenset = frozenset()  # parts whose text does not parse (see shown_findings)

    def __post_init__(self) -> None:
        self.by_uri = _place(self.unit, self.findings, self.cell_findings)

    def matches(self, unit: Unit, config: Optional[Config]) -> bool:
        return self.config == config and self.unit.same_content(unit)

    def rebased(self, unit: Unit) -> "Analysis":
        """The same results for a newer snapshot with identical content (new versions)."""
        if all(a.version == b.version and a.uri == b.uri for a, b in zip(self.unit.parts, unit.parts)):
            return self
        return Analysis(unit, self.config, self.findings, self.cell_findings, self.crashes, deps=self.deps,
                        seconds=self.seconds, broken_uris=self.broken_uris)

    def placed(self, uri: str) -> list[PlacedFinding]:
        found = self.by_uri.get(uri)
        if found is None:
            part = self.unit.part_for_uri(uri)  # tolerate another %-escaping of the same URI
            found = self.by_uri.get(part.uri, []) if part is not None else []
        return found


def run_analysis(unit: Unit, config: Optional[Config], project=None, memo: Optional[AnalysisMemo] = None) -> Analysis:
    """The worker-thread body: never raises.  `memo` carries what the last run of this
    unit can lend the next (only the functions and classes an edit touched run again)."""
    if config is None:
        return Analysis(unit, None, [], {})
    started = time.perf_counter()
    label = unit.path or unit.key
    crashes: list[EngineError] = []
    findings, found = check_with_isolation(unit.text, unit.path, config, label, project, memo)
    crashes.extend(found)
    cell_findings: dict[str, list[Finding]] = {}
    for part in unit.parts:
        if part.broken:
            masked = cell_program(part.text)[0]
            own, found = check_with_isolation(masked, unit.path, config, f"{label} ({part.uri})")
            cell_findings[part.uri] = own
            crashes.extend(found)
    deps = project.dependencies_of(unit.path) if project is not None else {}
    return Analysis(unit, config, findings, cell_findings, crashes, deps=deps, seconds=time.perf_counter() - started,
                    broken_uris=_broken_parts(unit, config, findings))


def _broken_parts(unit: Unit, config: Config, findings: list[Finding]) -> frozenset:
    """The parts whose text does not parse: a cell left out of its notebook's program, or a
    document with a syntax finding (or, when the config hides those, that does not parse)."""
    if unit.is_notebook:
        return frozenset(p.uri for p in unit.parts if p.broken)
    if any(f.code == SYNTAX_CODE for f in findings):
        return frozenset({unit.parts[0].uri})
    if not config.is_enabled(SYNTAX_CODE, unit.path) and not parses(unit.text):
        return frozenset({unit.parts[0].uri})
    return frozenset()


def _place(unit: Unit, findings: list[Finding], cell_findings: dict[str, list[Finding]]) -> dict[str, list[PlacedFinding]]:
    out: dict[str, list[PlacedFinding]] = {p.uri: [] for p in unit.parts}
    single = unit.parts[0] if len(unit.parts) == 1 and unit.parts[0].first_line == 0 else None
    for f in findings:
        part = single or unit.part_for_line(f.span.start_line)
        if part is None:
            continue
        related = []
        for rel in f.related:
            rpart = single or unit.part_for_line(rel.span.start_line)
            if rpart is not None:
                related.append((rpart, _local(rpart, rel.span), rel.message))
        edits: Optional[list[PlacedEdit]] = None
        if f.fix is not None:
            edits = []
            for e in f.fix.edits:
                epart = single or unit.part_for_line(e.span.start_line)
                if epart is None or epart.blanked:
                    edits = None
                    break
                edits.append(PlacedEdit(epart, _local(epart, e.span), e.new_text))
        out[part.uri].append(PlacedFinding(f, part, _local(part, f.span), related, edits))
    for uri, own in cell_findings.items():
        part = unit.part_for_uri(uri)
        for f in own:
            out[uri].append(PlacedFinding(f, part, f.span, [], None))
    return out


def _local(part: CellPart, span: Span) -> Span:
    if part.first_line == 0:
        return span
    last = part.line_count - 1
    start = span.start_line - part.first_line
    end = span.end_line - part.first_line
    end_col = span.end_col
    if end > last:  # never reach into the separator line
        end, end_col = last, len(part.table.line(last))
    return Span(start, span.start_col, end, end_col)


def gap_before(now: float, last: float, answered: Optional[float]) -> float:
    """The gap before a change at `now`, as the burst rule reads it: the time since the change before
    it (at `last`), unless a check that started at or after `last` has already finished (`answered`
    is its start): then that change was answered, no backlog is building up, and however soon this
    one follows (a fast typist, a fast check) it is no burst — 1 s stands for "a pause"."""
    if answered is not None and answered >= last:
        return 1.0
    return now - last

class AnalysisService:
    """Owns the worker threads and the per-unit result cache."""

    def __init__(self, server: "TorchplaceServer", workers: Optional[int] = None) -> None:
        self.server = server
        workers = workers or max(2, min(4, (os.cpu_count() or 2)))
        self.executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="torchplace-analysis")
        self._latest: dict[str, Analysis] = {}
        self._running: dict[str, asyncio.Future] = {}
        self._reported: set[tuple] = set()
        self._memos: dict[str, AnalysisMemo] = {}  # per unit; only its own (serialised) runs touch it
        self._changes: dict[str, tuple[float, float]] = {}  # unit -> (time of its last change, gap before it)
        self._answered: dict[str, float] = {}  # unit -> start time of its latest finished analysis

    async def current(self, key: str) -> Optional[Analysis]:
        """The analysis of unit `key` exactly as it is now, or None once it is closed."""
        loop = asyncio.get_running_loop()
        self.server.cross_file.flush()  # other documents' unsaved text, for cross-file results
        while True:
            settle = self._settle_s(key, loop.time())
            if settle > 0:  # changes are pouring in: check the text they end with, not each one
                await asyncio.sleep(settle)
                continue
            unit = build_unit(self.server.workspace, key)
            if unit is None:
                return None
            config = self.server.settings.config_for(unit) if unit.checkable else None
            latest = self._latest.get(key)
            if latest is not None and latest.matches(unit, config) and self.server.cross_file.deps_current(latest.deps):
                return latest.rebased(unit)
            running = self._running.get(key)
            if running is not None:
                # Wait for it (without cancelling it if we are cancelled), then re-check:
                # either it was for this text, or the next run starts on a free worker.
                await asyncio.wait([running])
                continue
            memo = self._memo_for(key)
            started = loop.time()
            future = loop.run_in_executor(self.executor, run_analysis, unit, config, self.server.cross_file.index, memo)
            self._running[key] = future
            future.add_done_callback(lambda fut, key=key, started=started: self._finished(key, fut, started))
            await asyncio.wait([future])
            if future.cancelled() or future.exception() is not None:
                return None  # only at shutdown, or a server bug (already logged)

    def note_change(self, key: str) -> None:
        """A change to unit `key` arrived (a keystroke, or one of a burst)."""
        now = asyncio.get_running_loop().time()
        last, _gap = self._changes.get(key, (now - 1.0, 1.0))
        self._changes[key] = (now, gap_before(now, last, self._answered.get(key)))

    def _settle_s(self, key: str, now: float) -> float:
        """How long to wait before checking `key`: during a burst (changes closer together than
        BURST_GAP_S, each arriving before the one before it was checked) until it has paused for
        SETTLE_S; never while someone types at human speed."""
        last, gap = self._changes.get(key, (0.0, 1.0))
        if gap >= BURST_GAP_S:
            return 0.0
        return max(0.0, last + SETTLE_S - now)

    def _memo_for(self, key: str) -> Optional[AnalysisMemo]:
        """The unit's memo, for units being edited (a second run), the most recent few only:
        a memo holds the document's syntax tree (about 1.6 kB a line)."""
        memo = self._memos.pop(key, None)
        if memo is None:
            if key not in self._latest:
                return None  # just opened: nothing to reuse yet, and most open files are only read
            memo = AnalysisMemo()
        self._memos[key] = memo
        while len(self._memos) > MAX_MEMOS:
            self._memos.pop(next(iter(self._memos)))
        return memo

    def forget(self, key: str) -> None:
        self._latest.pop(key, None)
        self._memos.pop(key, None)
        self._changes.pop(key, None)
        self._answered.pop(key, None)

    def forget_all(self) -> None:
        self._latest.clear()
        self._memos.clear()

    def _finished(self, key: str, future: asyncio.Future, started: float) -> None:
        if self._running.get(key) is future:
            del self._running[key]
        if future.cancelled():
            return
        exc = future.exception()
        if exc is not None:  # run_analysis never raises; belt and braces
            log.error("analysis of %s failed: %r", key, exc, exc_info=exc)
            return
        self._answered[key] = max(started, self._answered.get(key, started))
        analysis: Analysis = future.result()
        first = key not in self._latest
        if unit_is_open(self.server.workspace, key):  # not closed meanwhile
            self._latest[key] = analysis
        if analysis.config is not None:
            level = logging.INFO if first or analysis.seconds >= SLOW_ANALYSIS_S else logging.DEBUG
            log.log(level, "torchplace: checked %s (%d lines) in %.0f ms: %d findings", key,
                    sum(p.line_count for p in analysis.unit.parts), analysis.seconds * 1000, len(analysis.findings))
        for crash in analysis.crashes:
            marker = (crash.rule, crash.path, crash.error)
            if marker in self._reported:
                continue
            self._reported.add(marker)
            log.error("torchplace: %s\n%s", crash.describe(), crash.traceback)

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
