"""`text_lines` splits exactly where Python's tokenizer and LSP do."""
import io
import tokenize

import pytest

from torchplace_rules.text_lines import dominant_newline, line_ending, line_starts, split_lines

ODD_SEPARATORS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("sep", ODD_SEPARATORS)
def test_odd_separators_do_not_end_lines(sep):
    text = f"a = 1 # {sep} comment\nb = 2\n"
    assert split_lines(text) == [f"a = 1 # {sep} comment", "b = 2"]
    assert split_lines(text, keepends=True) == [f"a = 1 # {sep} comment\n", "b = 2\n"]
    # the tokenizer agrees: `b` is on line 2
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    assert next(t for t in tokens if t.string == "b").start[0] == 2


@pytest.mark.parametrize("text", ["", "a", "a\n", "a\r\nb", "a\rb\r", "a\n\nb\n", "x\r\n\r\ny"])
def test_matches_splitlines_on_ordinary_breaks(text):
    assert split_lines(text) == text.splitlines()
    assert split_lines(text, keepends=True) == text.splitlines(keepends=True)
    assert "".join(split_lines(text, keepends=True)) == text


def test_line_starts_are_lsp_lines():
    assert line_starts("") == [0]
    assert line_starts("a\r\nb\rc\nd") == [0, 3, 5, 7]
    assert line_starts("a\n") == [0, 2]
    assert line_starts("a\x0cb\nc") == [0, 4]


def test_line_endings():
    assert [line_ending(x) for x in split_lines("a\r\nb\rc\nd", keepends=True)] == ["\r\n", "\r", "\n", ""]
    assert dominant_newline("a\r\nb\r\nc\n") == "\r\n"
    assert dominant_newline("abc") == "\n"
