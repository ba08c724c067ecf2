"""Another file's tree whose function bodies are parsed when first read.

A module summary runs another file's module code: its classes and functions are
defined, but most function bodies are never read (only those a checked file
calls, or a class scan looks into).  Parsing them anyway was a tenth of a
cross-file check.  `parse_skeleton` parses the file with each outermost
function body replaced by one placeholder statement that ends where the real
body ends (the same line and column), so every node outside the bodies, and
every function's and enclosing block's end position, is what a full parse
gives.  The first read of such a function's `body` parses the function's own
lines and puts the real statements there (`_LazyFunctionDef.body`).

Finding the bodies needs only the strings and backslash continuations that
span lines (one regular expression over the text) and the indentation of
lines.  Anything this reading cannot vouch for (tabs or form feeds in
indentation, a lone carriage return, a quote that starts no string, a body
that ends inside a string, a skeleton that does not parse) keeps that
function, or the whole file, fully parsed: the tree is the one `ast.parse`
gives, only later.
"""
from __future__ import annotations

import ast
import re
import threading
from bisect import bisect_right
from typing import Optional

from .flow.cross_file import HOME_ATTR
from .syntax_nodes import own_nodes

assert HOME_ATTR == "_tp_home"  # (written as an attribute below: the loops are hot)

# Where a string or a continued line may start: a triple quote, or a backslash ending a line.
_CANDIDATE = re.compile(r"\'\'\'|\"\"\"|\\\n")
_CLOSE = {q: re.compile(r"(?:[^%s\\]+|\\.|%s(?!%s%s))*%s" % (q[0], q[0], q[0], q[0], q), re.S) for q in ("\'\'\'", '\"\"\"')}
# One line, piece by piece: code, a string that ends on it, a comment.
_PIECE = re.compile(r"""([^'"\#]+)|('{3}.*?'{3}|"{3}.*?"{3}|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(\#.*)""")
# (each searched from the newline before a line: a pattern that starts with a character is
# found faster than one that starts with `^`)
_DEF = re.compile(r"\n([ ]*)(?:async[ \t]+)?def[ \t]")
_CODE_LINE = re.compile(r"\n([ ]*)[^ \n#]")  # (a line that is neither blank nor a comment)
_ODD_INDENT = re.compile(r"^[ ]*[\t\f]", re.M)  # (the tokenizer's own arithmetic: not guessed)
_DEDENT: dict = {}  # indentation -> the first line indented no deeper
_LOCK = threading.Lock()


def parse_skeleton(text: str, filename: str, home) -> ast.Module:
    """`ast.parse(text)` with outermost function bodies parsed on first read; every node of the
    tree says `home` (`cross_file.foreign_home`), now or when its body is parsed.  Raises what
    `ast.parse` raises for a text that does not parse."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")  # (the same lines and columns)
    bodies = _bodies(text) if "def" in text else None
    tree = None
    if bodies:
        skeleton, at = [], 0
        for _start, first, last, end_line, indent, end in bodies.values():
            skeleton += (text[at:first], "\n" * text.count("\n", first, last), " " * indent, "0" * (end - indent))
            at = end_line
        skeleton.append(text[at:])
        try:
            tree = ast.parse("".join(skeleton), filename=filename)
        except SyntaxError:  # a body this reading misjudged: parse it all now
            bodies = None
    if tree is None:
        tree = ast.parse(text, filename=filename)
    lazy = []
    for node in own_nodes(tree):
        node._tp_home = home
        cls = node.__class__
        if bodies and (cls is ast.FunctionDef or cls is ast.AsyncFunctionDef) and node.lineno in bodies:
            lazy.append(node)
    for node in lazy:  # (after the walk: a lazy body is parsed when read)
        start, _first, _last, end_line = bodies[node.lineno][:4]
        node._tp_lazy = (text, start, end_line, filename, home)
        node.__class__ = _LAZY[node.__class__]
    return tree


def _bodies(text: str) -> Optional[dict]:
    """{line of a `def`: (its offset, offset of its body's first line, of its last code line, of
    that line's end, body indentation, end column in bytes)} for each outermost function whose
    body can be left out, in order; None to parse it all."""
    if "\r" in text:
        return None  # (a carriage return alone: a line break to the tokenizer)
    text = "\n" + text  # (every line follows a newline: offsets here are one on)
    spans = _spans(text)
    if spans is None:
        return None
    span_starts, span_ends = spans

    def inside(offset: int) -> bool:
        """Does the line at `offset` start inside a string, or continue the line before?"""
        i = bisect_right(span_starts, offset - 1) - 1
        return i >= 0 and span_ends[i] >= offset

    if "\t" in text or "\f" in text:
        if any(not inside(m.start()) for m in _ODD_INDENT.finditer(text)):
            return None
    out = {}
    line, counted = 0, 0
    pos = 0
    while True:
        m = _DEF.search(text, pos)
        if m is None:
            return out
        start = m.start() + 1
        if inside(start):
            pos = m.end()
            continue
        line += text.count("\n", counted, start)
        counted = start
        found, pos = _body(text, start, len(m.group(1)), inside)
        if pos is None:
            return None
        if found is not None:
            body_at, last, end_line, body_indent, end = found
            out[line] = (start - 1, body_at - 1, last - 1, end_line - 1, body_indent, end)


def _body(text: str, start: int, indent: int, inside) -> tuple:
    """((body offset, last code line offset, its end, body indent, end column) or None when the
    body stays, the newline to look on from) for the `def` at offset `start`; (None, None): give up."""
    depth = 0
    at = start
    while True:  # the header, to the line whose `:` closes it
        eol = text.find("\n", at)
        eol = len(text) if eol < 0 else eol
        if at > start and inside(at):
            return None, eol
        code = _code(text[at:eol])
        if code is None:
            return None, eol
        depth += code.count("(") + code.count("[") + code.count("{") \
            - code.count(")") - code.count("]") - code.count("}")
        if depth <= 0:
            break
        if eol == len(text):
            return None, None
        at = eol + 1
    if not code.rstrip().endswith(":"):
        return None, eol  # (`def f(): return x`)
    body_at = eol + 1
    m = _CODE_LINE.search(text, eol)
    if m is None or len(m.group(1)) <= indent or inside(m.start() + 1):
        return None, None
    body_indent = len(m.group(1))
    dedent = _DEDENT.get(indent)
    if dedent is None:
        dedent = _DEDENT[indent] = re.compile(r"\n[ ]{0,%d}[^ \n#]" % indent)
    stop = m.start()
    while True:  # the first statement indented no deeper than the `def`
        m = dedent.search(text, stop)
        if m is None or not inside(m.start() + 1):
            stop = len(text) if m is None else m.start() + 1
            break
        stop = m.end()
    end_line = stop - 1 if stop < len(text) or text.endswith("\n") else stop
    while True:  # the last line of the body with code on it
        last = text.rfind("\n", 0, end_line) + 1
        stripped = text[last:end_line].lstrip(" ")
        if stripped and (stripped[0] != "#" or inside(last)):
            break
        end_line = last - 1
    if inside(last):
        return None, stop - 1  # (ends in a string, or on a continued line: kept)
    code = _code(text[last:end_line], strings=False)
    if code is None:
        return None, stop - 1
    code = code.rstrip()
    end = len(code) if code.isascii() else len(code.encode("utf-8"))  # (columns count bytes)
    if end - body_indent < 1 or code.endswith(("\\", ";")):
        return None, stop - 1
    return (body_at, last, end_line, body_indent, end), stop - 1


def _spans(text: str) -> Optional[tuple]:
    """(starts, ends) of the strings that span lines and of the backslashes that continue a line
    (offsets, in order); None when a line does not read as this reading knows lines."""
    starts, ends = [], []
    pos = 0
    while True:
        m = _CANDIDATE.search(text, pos)
        if m is None:
            return starts, ends
        at = m.start()
        line = text.rfind("\n", 0, at) + 1
        if ends and ends[-1] > line:
            line = ends[-1]  # (the line goes on after a string that ended on it)
        before = _code(text[line:at], strings=False)
        if before is None:  # inside a string of one line
            if m.group() == "\\\n":
                return None  # (a string continued with a backslash)
            pos = at + 1
            continue
        if len(before) < at - line:  # in a comment
            pos = m.end()
            continue
        if m.group() == "\\\n":
            starts.append(at)
            ends.append(m.end())
            pos = m.end()
            continue
        close = _CLOSE[m.group()].match(text, at + 3)
        if close is None:
            return None
        if text.find("\n", at, close.end()) >= 0:
            starts.append(at)
            ends.append(close.end())
        pos = close.end()


def _code(line: str, strings: bool = True) -> Optional[str]:
    """The line without its comment, and with its strings emptied (`strings`: for counting
    brackets) or kept; None when it ends inside a string."""
    if "#" not in line and "'" not in line and '"' not in line:
        return line
    out, at = [], 0
    while at < len(line):
        m = _PIECE.match(line, at)
        if m is None:
            return None
        if m.lastindex == 3:
            break
        out.append('""' if strings and m.lastindex == 2 else m.group())
        at = m.end()
    return "".join(out)


def _materialise(node) -> list:
    """Parse the function's own lines and give `node` its real body (tagged as its tree is)."""
    with _LOCK:
        if node.__class__ not in _EAGER:
            return node.__dict__["body"]
        text, start, end, filename, home = node.__dict__.pop("_tp_lazy")
        indented = text[start] == " "
        snippet = ("if 1:\n" if indented else "") + text[start:end]
        shift = node.lineno - 1 - indented
        try:
            tree = ast.parse(snippet, filename=filename)
            body = (tree.body[0].body[0] if indented else tree.body[0]).body
        except (SyntaxError, ValueError, IndexError, AttributeError, RecursionError, MemoryError):
            # (the file does not parse: what the function returns is unknown, as a name nobody binds)
            at_def = {"lineno": node.lineno - shift, "col_offset": node.col_offset,
                      "end_lineno": node.lineno - shift, "end_col_offset": node.col_offset}
            body = [ast.Return(value=ast.Name(id="__body_does_not_parse__", ctx=ast.Load(), **at_def), **at_def)]
        for stmt in body:
            for sub in own_nodes(stmt):
                if shift and hasattr(sub, "lineno"):
                    sub.lineno += shift
                    sub.end_lineno += shift
                sub._tp_home = home
        node.__dict__["body"] = body
        node.__class__ = _EAGER[node.__class__]
        return body


class _LazyFunctionDef(ast.FunctionDef):
    @property
    def body(self):
        return _materialise(self)


class _LazyAsyncFunctionDef(ast.AsyncFunctionDef):
    @property
    def body(self):
        return _materialise(self)


# (the names the statement handlers dispatch on)
_LazyFunctionDef.__name__ = "FunctionDef"
_LazyAsyncFunctionDef.__name__ = "AsyncFunctionDef"
_LAZY = {ast.FunctionDef: _LazyFunctionDef, ast.AsyncFunctionDef: _LazyAsyncFunctionDef}
_EAGER = {lazy: eager for eager, lazy in _LAZY.items()}
