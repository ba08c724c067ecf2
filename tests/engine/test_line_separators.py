"""Fixes edit only their own spans, whatever odd line separators the file holds.

Python's tokenizer (and LSP) end lines only at \\n, \\r\\n and \\r; `str.splitlines`
also splits at \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028 and \\u2029, which once moved
every fix below such a character one line up.  Hypothesis builds programs with
fixable findings, puts those characters around them (in comments, strings and
form feeds at line starts) and mixes line breaks; fixing must give exactly the
fixed clean program with the same junk still in place, through `apply_fixes`
and through `torchplace check --fix`.
"""
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from torchplace_rules import Config, check_source
from torchplace_rules.cli import main
from torchplace_rules.fixes import fix_until_stable

ODD = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]

# (indent, statement) lines with fixable findings of several rules (TP201 replace, TP101 keyword,
# TP102 inserted line, TP301 rewrite); junk is only ever added where Python allows it.
PROGRAM = [
    ("", "import torch"),
    ("", "from torch import nn"),
    ("", "device = torch.device('cuda')"),
    ("", "model = nn.Linear(3, 3).to(device)"),
    ("", "def step(batch):"),
    ("    ", "inp = torch.zeros(3)"),
    ("    ", "out = model(inp)"),
    ("    ", "return out"),
    ("", "x = torch.zeros(3)"),
    ("", "x.to(device)"),
    ("", "a = torch.ones(2, device=device)"),
    ("", "b = torch.ones(2)"),
    ("", "c = a + b"),
    ("", "w = torch.randn(2).to(device)"),
]
JUNK = re.compile(r"  #<J>[^\n\r]*?</J>|[ \t]*s_ = '<J>[^\n\r]*?</J>'(\r\n|\r|\n)|\x0c(?=[^\n\r]*\S)")

junk_text = st.lists(st.sampled_from(ODD + ["a", "é", " ", "ж"]), min_size=1, max_size=6).map("".join)
line_plan = st.tuples(
    st.sampled_from(["\n", "\r\n", "\r"]),  # this line's break
    st.none() | junk_text,  # a comment after the statement
    st.none() | junk_text,  # a string line before it
    st.booleans(),  # a form feed at its start
)


def build(plans, with_junk: bool) -> str:
    out = []
    for (indent, stmt), (brk, comment, string, feed) in zip(PROGRAM, plans):
        if with_junk and string is not None and not stmt.startswith("def"):
            out.append(f"{indent}s_ = '<J>{string}</J>'{brk}")
        lead = "\x0c" if with_junk and feed else ""  # a form feed resets the indentation count
        tail = f"  #<J>{comment}</J>" if with_junk and comment is not None else ""
        out.append(f"{lead}{indent}{stmt}{tail}{brk}")
    return "".join(out)


def strip_junk(text: str) -> str:
    return JUNK.sub("", text)


def fixed(text: str) -> str:
    config = Config()
    return fix_until_stable(text, lambda t: check_source(t, "t.py", config), unsafe=True).text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line_plan, min_size=len(PROGRAM), max_size=len(PROGRAM)))
def test_apply_fixes_edits_only_the_intended_spans(plans):
    clean, junky = build(plans, False), build(plans, True)
    expected = fixed(clean)
    assert expected != clean  # the program has fixes to apply
    got = fixed(junky)
    assert strip_junk(got) == expected
    assert got.count("<J>") == junky.count("<J>")  # the junk is where it was, untouched


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(line_plan, min_size=len(PROGRAM), max_size=len(PROGRAM)))
def test_cli_fix_edits_only_the_intended_spans(tmp_path_factory, plans):
    folder = tmp_path_factory.mktemp("odd")
    clean_path, junky_path = folder / "clean.py", folder / "junky.py"
    clean_path.write_bytes(build(plans, False).encode())
    junky_path.write_bytes(build(plans, True).encode())
    assert main(["check", "--fix", "--unsafe-fixes", "--jobs", "1", "--no-cross-file", "--format=json",
                 str(clean_path), str(junky_path)]) in (0, 1)
    assert strip_junk(junky_path.read_bytes().decode()) == clean_path.read_bytes().decode()
