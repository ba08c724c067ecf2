"""Random LSP edit sequences against the real server, checked against a reference client.

Shared by `test_lsp_fuzz.py` (bounded, every CI run) and `benchmarks/lsp_fuzz.py
--fuzz` (1,000 sequences).  The documents mix `\\n`, `\\r\\n` and `\\r` line
breaks, non-ASCII text (two-unit UTF-16 characters included) and the characters
`str.splitlines` breaks at but LSP does not (form feed, `\\x0b`, `\\x1c`-`\\x1e`,
`\\x85`, `\\u2028`, `\\u2029`); edits include out-of-range positions.  After each
sequence: the server's text equals the client's, every request was answered, no
diagnostic lies outside the document, and each quick fix changes exactly what the
engine's fix changes (each `Ignore` edit only the finding's own line).

`ReferenceDocument` is written from the specification, independently of the
server's document model.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from hypothesis import strategies as st

from torchplace_rules import check_source

from raw_rpc import RawServer

ODD_SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
NEWLINES = ["\n", "\r\n", "\r"]
ANSWER_TIMEOUT_S = 30.0
_BREAK = re.compile(r"\r\n|\r|\n")

HEADER = ["import torch", 'device = torch.device("cuda")']
POOL = [
    "x = torch.zeros(3)",
    "x.to(device)",
    "y = x * 2",
    'label = "é😀 ünïcode"',
    "a = torch.ones(2, device=device)",
    "b = torch.ones(2)",
    "c = a + b",
    "z = torch.zeros(4)  # ünï 😀",
    "z.to(device)",
    "def f(t):\n    return t.to(device)",
    "if True:\n    w = torch.zeros(2)\n    w.to(device)",
    "",
]
INSERTS = ["x", " ", ".", "(", ")", "é", "😀", "\t", "#", "to(device)", "\n", "\r\n", "\r"] + ODD_SEPARATORS


# -- the reference client ------------------------------------------------------------
def lsp_lines(text: str) -> list[tuple[int, int, int]]:
    """(start, end of content, end with break) offsets of each LSP line; a final break starts a line."""
    out, start = [], 0
    for match in _BREAK.finditer(text):
        out.append((start, match.start(), match.end()))
        start = match.end()
    out.append((start, len(text), len(text)))
    return out


def utf16_len(text: str) -> int:
    return sum(2 if ord(c) > 0xFFFF else 1 for c in text)


def offset_at(text: str, line: int, character: int) -> int:
    """The offset of an LSP position, clamped as the specification says."""
    lines = lsp_lines(text)
    if line >= len(lines):
        return len(text)
    start, end, _ = lines[line]
    units = 0
    for index in range(start, end):
        if units >= character:
            return index
        units += 2 if ord(text[index]) > 0xFFFF else 1
    return end


def position_at(text: str, offset: int) -> tuple[int, int]:
    for number, (start, end, stop) in enumerate(lsp_lines(text)):
        if offset <= end or (offset < stop):
            return number, utf16_len(text[start:min(offset, end)])
    last = lsp_lines(text)[-1]
    return len(lsp_lines(text)) - 1, utf16_len(text[last[0]:last[1]])


def apply_lsp_edit(text: str, rng: dict, new_text: str) -> str:
    a = offset_at(text, rng["start"]["line"], rng["start"]["character"])
    b = offset_at(text, rng["end"]["line"], rng["end"]["character"])
    a, b = min(a, b), max(a, b)
    return text[:a] + new_text + text[b:]


def apply_text_edits(text: str, edits: list[dict]) -> str:
    ordered = sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True)
    for edit in ordered:
        text = apply_lsp_edit(text, edit["range"], edit["newText"])
    return text


def span_offsets(text: str, span) -> tuple[int, int]:
    """Offsets of an engine span (0-based lines, code-point columns)."""
    lines = lsp_lines(text)

    def one(line: int, col: int) -> int:
        if line >= len(lines):
            return len(text)
        start, end, _ = lines[line]
        return min(start + col, end)

    return one(span.start_line, span.start_col), one(span.end_line, span.end_col)


def span_range(text: str, span) -> dict:
    a, b = span_offsets(text, span)
    (sl, sc), (el, ec) = position_at(text, a), position_at(text, b)
    return {"start": {"line": sl, "character": sc}, "end": {"line": el, "character": ec}}


# -- what is generated -----------------------------------------------------------------
@st.composite
def documents(draw) -> str:
    body = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=14))
    lines = HEADER + [line for entry in body for line in entry.split("\n")]
    out = []
    for line in lines:
        roll = draw(st.integers(0, 9))
        if roll < 3:  # an odd separator inside a comment (the code still parses)
            line = f"{line}  # note{draw(st.sampled_from(ODD_SEPARATORS))}more"
        elif roll == 3:  # or loose in the code (it no longer does, except for form feed at the start)
            line = draw(st.sampled_from(ODD_SEPARATORS)) + line
        out.append(line + draw(st.sampled_from(NEWLINES)))
    if draw(st.booleans()):
        out[-1] = out[-1].rstrip("\r\n")
    return "".join(out)


@st.composite
def edits(draw, max_edits: int = 12) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
    """Edits as (start, end, text), positions as (line, a choice of column) resolved by
    `real_position`.  Most sequences keep the text parseable (statements typed at a line's
    start, comments past a line's end, whole lines deleted), so fixes can be checked; the
    rest type anything anywhere."""
    messy = draw(st.integers(0, 3)) == 0
    count = draw(st.integers(1, max_edits))
    out = []
    for _ in range(count):
        kind = draw(st.integers(0, 3)) if not messy else 4
        line = draw(st.integers(2, 30))
        if kind == 0:  # a statement typed at the start of a line
            statement = draw(st.sampled_from(POOL[:9])) + draw(st.sampled_from(NEWLINES))
            out.append(((line, 0), (line, 0), statement))
        elif kind == 1:  # a comment after the end of a line (a position past its end)
            out.append(((line, 999), (line, 999), f"  # é{draw(st.sampled_from(ODD_SEPARATORS))}😀"))
        elif kind == 2:  # a whole line deleted
            out.append(((line, 0), (line + 1, 0), ""))
        elif kind == 3:  # a line break typed after a line (past its end)
            out.append(((line, 999), (line, 999), draw(st.sampled_from(NEWLINES))))
        else:
            start = (draw(st.integers(0, 40)), draw(st.integers(0, 60)))
            length = draw(st.sampled_from([0, 0, 1, 2, 5, 40]))
            end = (start[0] + draw(st.sampled_from([0, 0, 0, 1, 2])), start[1] + length)
            text = "".join(draw(st.lists(st.sampled_from(INSERTS + POOL), max_size=4)))
            out.append((start, end, text))
    return out


def real_position(text: str, line: int, pick: int) -> dict:
    """Turn a drawn (line, pick) into a position a client could send: mostly inside the
    text (never inside a two-unit character), sometimes past a line's end or the last line."""
    lines = lsp_lines(text)
    if line >= len(lines) + 2:
        line = line % (len(lines) + 2)
    if line >= len(lines):
        return {"line": line, "character": pick}  # past the last line
    start, end, _ = lines[line]
    content = text[start:end]
    if pick > len(content) + 3:
        return {"line": line, "character": utf16_len(content) + pick % 5}  # past the line's end
    column = min(pick, len(content))
    return {"line": line, "character": utf16_len(content[:column])}


# -- one sequence against the server -------------------------------------------------------
@dataclass
class Outcome:
    problems: list[str] = field(default_factory=list)
    requests: int = 0
    answered: int = 0
    changes: int = 0
    fixes_checked: int = 0
    server_errors: list[str] = field(default_factory=list)  # errors the server logged meanwhile


class FuzzSession:
    """One server for many sequences (each on its own document)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.server = RawServer("--introspect")
        caps = {"textDocument": {"diagnostic": {"dynamicRegistration": False},
                                 "publishDiagnostics": {"versionSupport": True},
                                 "codeAction": {"resolveSupport": {"properties": ["edit"]}}},
                "workspace": {"workspaceEdit": {"documentChanges": True}}}
        self.server.initialize(root_uri=None, capabilities=caps, options={"debounce": 0})
        self.count = 0
        self._errors_seen = 0

    def close(self) -> None:
        self.server.close()

    def request(self, outcome: Outcome, method: str, params: Any) -> Optional[dict]:
        outcome.requests += 1
        try:
            answer = self.server.answer(self.server.request(method, params), ANSWER_TIMEOUT_S)
        except TimeoutError as exc:
            outcome.problems.append(f"{method}: {exc}")
            return None
        outcome.answered += 1
        if "error" in answer:
            outcome.problems.append(f"{method} answered with an error: {answer['error']}")
            return None
        return answer.get("result")

    def run(self, initial: str, drawn_edits: list) -> Outcome:
        outcome = Outcome()
        self.count += 1
        uri = f"file://{self.folder}/fuzz_{self.count}.py"
        server = self.server
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                "text": initial}})
        text, version = initial, 1
        pending = []
        for index, ((sl, sc), (el, ec), new_text) in enumerate(drawn_edits):
            start, end = real_position(text, sl, sc), real_position(text, el, ec)
            rng = {"start": start, "end": end}
            if (start["line"], start["character"]) > (end["line"], end["character"]):
                rng = {"start": end, "end": start}
            text = apply_lsp_edit(text, rng, new_text)
            version += 1
            server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": [{"range": rng, "text": new_text}]})
            outcome.changes += 1
            if index % 3 == 1:  # requests in the middle of the burst, answered later
                pending.append(("textDocument/diagnostic", server.request("textDocument/diagnostic",
                                                                          {"textDocument": {"uri": uri}})))
                pending.append(("textDocument/hover", server.request("textDocument/hover", {
                    "textDocument": {"uri": uri}, "position": real_position(text, sl, sc)})))
        for method, msg_id in pending:
            outcome.requests += 1
            try:
                answer = server.answer(msg_id, ANSWER_TIMEOUT_S)
            except TimeoutError as exc:
                outcome.problems.append(f"{method} (in a burst): {exc}")
                continue
            outcome.answered += 1
            if "error" in answer:
                outcome.problems.append(f"{method} (in a burst) answered with an error: {answer['error']}")
        state = self.request(outcome, "torchplace/test/state", {"uri": uri})
        if state is not None and state["text"] != text:
            outcome.problems.append(f"server text differs from the client's:\n{state['text']!r}\n!=\n{text!r}")
        report = self.request(outcome, "textDocument/diagnostic", {"textDocument": {"uri": uri}})
        if report is not None:
            self._check_diagnostics(outcome, uri, text, version, report.get("items", []))
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        logged = [n["params"]["message"] for n in server.notifications
                  if n["method"] == "window/logMessage" and n["params"]["type"] == 1]
        outcome.server_errors = logged[self._errors_seen:]
        self._errors_seen = len(logged)
        outcome.problems.extend(f"server logged an error: {e[:500]}" for e in outcome.server_errors)
        return outcome

    def _check_diagnostics(self, outcome: Outcome, uri: str, text: str, version: int, items: list[dict]) -> None:
        lines = lsp_lines(text)
        for diag in items:
            for end in ("start", "end"):
                pos = diag["range"][end]
                if pos["line"] >= len(lines):
                    outcome.problems.append(f"diagnostic {diag['code']} {end} on line {pos['line']} of {len(lines)}")
                    continue
                start, stop, _ = lines[pos["line"]]
                if pos["character"] > utf16_len(text[start:stop]):
                    outcome.problems.append(f"diagnostic {diag['code']} {end} past its line's end: {pos}")
        path = f"{self.folder}/fuzz_{self.count}.py"
        engine = check_source(text, path)
        if any(f.code == "TP001" for f in engine):
            return  # the server shows the findings of the last parsable text (test_lsp_typing checks those)
        findings = {(f.code, _key(span_range(text, f.span))): f for f in engine}
        for diag in items:
            if not (diag.get("data") or {}).get("fixable") and diag["code"] == "TP001":
                continue
            finding = findings.get((diag["code"], _key(diag["range"])))
            if finding is None:
                outcome.problems.append(f"diagnostic {diag['code']} at {diag['range']} is not where the engine puts it")
                continue
            actions = self.request(outcome, "textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": diag["range"],
                "context": {"diagnostics": [diag], "only": ["quickfix"]}}) or []
            for action in actions:
                if action.get("edit") is None and action.get("data") is not None:
                    action = self.request(outcome, "codeAction/resolve", action) or action
                edits = _edits_for(action.get("edit"), uri, version, outcome)
                if edits is None:
                    continue
                after = apply_text_edits(text, edits)
                if action["title"].startswith("Ignore"):
                    self._check_ignore(outcome, text, after, finding, diag["code"])
                elif finding.fix is not None:
                    expected = text
                    for edit in sorted(finding.fix.edits, key=lambda e: (e.span.start_line, e.span.start_col), reverse=True):
                        a, b = span_offsets(expected, edit.span)
                        expected = expected[:a] + edit.new_text + expected[b:]
                    outcome.fixes_checked += 1
                    if after != expected:
                        outcome.problems.append(f"fix {action['title']!r} gave\n{after!r}\ninstead of\n{expected!r}")

    @staticmethod
    def _check_ignore(outcome: Outcome, before: str, after: str, finding, code: str) -> None:
        old, new = lsp_lines(before), lsp_lines(after)
        outcome.fixes_checked += 1
        if len(old) != len(new):
            outcome.problems.append(f"Ignore {code} changed the number of lines")
            return
        changed = [i for i, (a, b) in enumerate(zip(old, new)) if before[a[0]:a[2]] != after[b[0]:b[2]]]
        if changed != [finding.span.start_line] or f"torchplace: ignore[" not in after[new[changed[0]][0]:new[changed[0]][1]]:
            outcome.problems.append(f"Ignore {code} changed lines {changed}, not line {finding.span.start_line}")


def _key(rng: dict) -> tuple:
    return (rng["start"]["line"], rng["start"]["character"], rng["end"]["line"], rng["end"]["character"])


def _edits_for(edit: Optional[dict], uri: str, version: int, outcome: Outcome) -> Optional[list[dict]]:
    if not edit:
        return None
    if edit.get("documentChanges"):
        out = []
        for change in edit["documentChanges"]:
            if change["textDocument"]["uri"] != uri or change["textDocument"]["version"] != version:
                outcome.problems.append(f"an edit for {change['textDocument']} instead of {uri} v{version}")
                return None
            out.extend(change["edits"])
        return out
    return edit.get("changes", {}).get(uri)


def timed(session: FuzzSession, initial: str, drawn: list) -> tuple[Outcome, float]:
    start = time.perf_counter()
    outcome = session.run(initial, drawn)
    return outcome, time.perf_counter() - start
