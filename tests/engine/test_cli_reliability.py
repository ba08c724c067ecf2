"""What users rely on from `torchplace check`: fixes limited to what is reported, an
account of what --fix did, files written back as they were encoded, bad input
reported without stopping the run, and a walk that nothing on disk can trap."""
import json
import os
import textwrap

import pytest

from torchplace_rules.cli import main

BUGGY = textwrap.dedent("""\
    import torch
    device = torch.device("cuda")
    x = torch.zeros(3)
    x.to(device)
    a = torch.ones(2, device=device)
    b = torch.ones(2)
    c = a + b
    w = torch.randn(2).to(device)
""")  # TP201 warning, TP101 error (fix: device= on line 6), TP301 information


def check(capsys, *args):
    code = main(["check", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def buggy(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    return path


# -- --fix and --diff apply only what would be reported ------------------------------------

def test_fix_respects_min_severity(buggy, capsys):
    code, out, _ = check(capsys, "--fix", "--min-severity", "error", str(buggy))
    text = buggy.read_text()
    assert "b = torch.ones(2, device=device)" in text  # the error's fix
    assert "\nx.to(device)\n" in text and "torch.randn(2).to(device)" in text  # warning, information untouched
    assert code == 0 and "Fixed 1 (0 remaining)" in out


def test_diff_respects_select_ignore_and_per_file_ignores(buggy, capsys):
    _, out, _ = check(capsys, "--diff", "--select", "TP2", str(buggy))
    assert "+x = x.to(device)" in out and "+b = torch.ones(2, device=device)" not in out
    _, out, _ = check(capsys, "--diff", "--ignore", "TP201", str(buggy))
    assert "+x = x.to(device)" not in out and "+b = torch.ones(2, device=device)" in out
    (buggy.parent / "pyproject.toml").write_text('[tool.torchplace]\nper-file-ignores = { "train.py" = ["TP201"] }\n')
    _, out, _ = check(capsys, "--diff", str(buggy))
    assert "+x = x.to(device)" not in out and "+b = torch.ones(2, device=device)" in out
    assert buggy.read_text() == BUGGY


def test_fix_prints_what_it_fixed_and_what_remains(tmp_path, capsys):
    path = tmp_path / "r.py"
    path.write_text("import torch\ndevice = torch.device('cuda')\nx = torch.zeros(3)\nx.to(device)\n"
                    "a = torch.randn(2, device=device)\nb = torch.randn(2)\nc = a + b\n")  # TP101's fix is unsafe
    code, out, _ = check(capsys, "--fix", str(path))
    assert "Fixed 1 (1 remaining)." in out and "TP101" in out and code == 1


# -- the file's encoding, BOM and line breaks are kept -----------------------------------------

def test_fix_keeps_a_coding_cookie_encoding(tmp_path, capsys):
    path = tmp_path / "latin.py"
    source = '# -*- coding: latin-1 -*-\nimport torch\ns = "café"\ndevice = torch.device("cuda")\nx = torch.zeros(3)\nx.to(device)\n'
    path.write_bytes(source.encode("latin-1"))
    _, out, _ = check(capsys, "--diff", str(path))
    assert '+x = x.to(device)' in out and 'café' in out
    check(capsys, "--fix", str(path))
    assert path.read_bytes() == source.replace("\nx.to(device)", "\nx = x.to(device)").encode("latin-1")


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_fix_keeps_bom_and_newlines(tmp_path, capsys, newline):
    path = tmp_path / "bom.py"
    source = BUGGY.replace("\n", newline)
    path.write_bytes(b"\xef\xbb\xbf" + source.encode())
    check(capsys, "--fix", "--select", "TP201", str(path))
    assert path.read_bytes() == b"\xef\xbb\xbf" + source.replace("x.to(device)" + newline, "x = x.to(device)" + newline, 1).encode()


DECODINGS = {
    "ascii": b"x = 1\n",
    "utf-8 text": "x = 'r\u00e9sum\u00e9'\n".encode(),
    "a BOM": b"\xef\xbb\xbfx = 1\n",
    "a cookie on line 1": b"# -*- coding: latin-1 -*-\nx = '\xe9'\n",
    "a cookie on line 2": b"#!/usr/bin/env python\n# coding: cp1252\nx = '\x80'\n",
    "a cookie on line 3 (ignored)": b"\n\n# coding: latin-1\nx = '\xc3\xa9'\n",
    "the word coding, no cookie": b"# no coding style here\nx = 1\n",
    "invalid UTF-8, no cookie": b"x = '\xe9'\n",
    "carriage returns and a cookie": b"# coding: latin-1\rx = '\xe9'\r",
    "an unknown codec": b"# coding: no-such-codec\nx = 1\n",
}


@pytest.mark.parametrize("name", sorted(DECODINGS))
def test_source_is_decoded_as_python_would(name):
    """`decode_source` skips `tokenize.detect_encoding` when there is no BOM and no cookie: it must
    give what Python's own detection (with the latin-1 fallback) gives."""
    import codecs
    import io
    import tokenize

    from torchplace_rules.source_files import decode_source

    data = DECODINGS[name]
    try:
        codec, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        codec = codecs.lookup(codec).name if codec != "utf-8-sig" else codec
        text = data.decode(codec)
        expected = (text, codec) if text.encode(codec) == data else (data.decode("latin-1"), "latin-1")
    except (SyntaxError, LookupError, UnicodeError):
        expected = (data.decode("latin-1"), "latin-1")
    got = decode_source(data)
    assert (got.text, got.codec) == expected


def test_inserted_lines_take_their_neighbours_newline(tmp_path, capsys):
    path = tmp_path / "mixed.py"
    source = ("import torch\r\nfrom torch import nn\n\ndevice = torch.device('cuda')\r\nmodel = nn.Linear(3, 3).to(device)\r\n"
              "x = torch.zeros(3)\r\nout = model(x)\r\n")
    path.write_bytes(source.encode())
    check(capsys, "--fix", "--select", "TP102", str(path))
    fixed = path.read_bytes().decode()
    assert "x = x.to(device)\r\nout = model(x)\r\n" in fixed and fixed.count("\r\n") == source.count("\r\n") + 1


# -- bad input is reported and the rest still checked ------------------------------------------

def test_a_missing_path_is_reported_and_the_others_checked(buggy, tmp_path, capsys):
    code, out, err = check(capsys, str(tmp_path / "nope.py"), str(buggy))
    assert code == 2 and "nope.py: no such file or directory" in err
    assert "TP201" in out


def test_a_bad_subfolder_config_is_reported_and_the_rest_kept(tmp_path, capsys):
    (tmp_path / "good.py").write_text(BUGGY)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "pyproject.toml").write_text('[tool.torchplace]\nselect = 3\nignore = ["TP101", "TP9"]\n')
    (sub / "bad.py").write_text(BUGGY)
    code, out, err = check(capsys, "--format", "json", str(tmp_path))
    assert code == 2
    assert "'select': must be a list of rule codes, got a number; using every rule" in err
    assert "'TP9'" in err
    codes = {(os.path.basename(i["path"]), i["code"]) for i in json.loads(out)}
    assert ("good.py", "TP101") in codes and ("bad.py", "TP201") in codes
    assert ("bad.py", "TP101") not in codes  # the valid part of that config still applies


def test_malformed_pyproject_is_reported(buggy, capsys):
    (buggy.parent / "pyproject.toml").write_text("[tool.torchplace\nselect = [")
    code, out, err = check(capsys, str(buggy))
    assert code == 2 and "invalid TOML" in err and "TP201" in out


def test_tool_that_is_not_a_table(buggy, capsys):
    (buggy.parent / "pyproject.toml").write_text("tool = 3\n")
    code, _, err = check(capsys, str(buggy))
    assert code == 2 and "'tool' must be a table" in err and "Traceback" not in err


def test_select_matching_no_rule_is_an_error(buggy, capsys):
    code, _, err = check(capsys, "--select", "TP9", str(buggy))
    assert code == 2 and "TP9" in err
    (buggy.parent / "pyproject.toml").write_text('[tool.torchplace]\nselect = ["TP9"]\n')
    code, out, err = check(capsys, str(buggy))
    assert code == 2 and "unknown rule code or prefix 'TP9'" in err and "using every rule" in err


def test_an_empty_folder_says_so(tmp_path, capsys):
    code, out, err = check(capsys, str(tmp_path))
    assert code == 0 and "No Python files found" in err and "All checks passed!" not in out


# -- a walk that cannot be trapped -------------------------------------------------------------

needs_posix = pytest.mark.skipif(os.name != "posix", reason="symlinks and FIFOs")


@needs_posix
def test_symlink_loops_fifos_and_devices_are_skipped(tmp_path, capsys, buggy):
    os.symlink("loop.py", tmp_path / "loop.py")
    os.mkfifo(tmp_path / "fifo.py")
    os.symlink("/dev/zero", tmp_path / "zero.py")
    os.symlink(tmp_path, tmp_path / "again")  # a folder loop: not followed
    code, out, err = check(capsys, str(tmp_path))
    assert code == 1 and "TP201" in out
    assert "loop.py: symbolic link loop; skipped" in err
    assert "fifo.py: not a regular file" in err and "zero.py: not a regular file" in err


def test_files_over_the_size_cap_are_skipped_with_a_message(buggy, capsys):
    code, out, err = check(capsys, "--max-file-size", "100", str(buggy))
    assert "over the size limit of 100 bytes" in err and code == 0
    (buggy.parent / "pyproject.toml").write_text("[tool.torchplace]\nmax-file-size = 50\n")
    _, _, err = check(capsys, str(buggy))
    assert "over the size limit of 50 bytes" in err


@needs_posix
def test_fix_never_writes_outside_the_roots_or_through_symlinks(tmp_path, capsys):
    outside = tmp_path / "outside.py"
    outside.write_text(BUGGY)
    tree = tmp_path / "tree"
    tree.mkdir()
    os.symlink(outside, tree / "link.py")
    (tree / "inside.py").write_text(BUGGY)
    os.symlink(tree / "inside.py", tree / "alias.py")
    _, _, err = check(capsys, "--fix", str(tree))
    assert outside.read_text() == BUGGY
    assert "link.py: not fixed" in err and "alias.py: not fixed: it is a symbolic link" in err
    (tree / "inside.py").write_text(BUGGY)
    check(capsys, "--fix", "--fix-symlinks", "--select", "TP201", str(tree / "alias.py"), str(tree / "link.py"))
    assert "x = x.to(device)" in (tree / "inside.py").read_text()  # asked, and inside the roots
    assert outside.read_text() == BUGGY  # never outside them


def test_gitignore_follows_git(tmp_path, capsys):
    (tmp_path / ".gitignore").write_text("/top_only.py\n**/gen/**\n*.py\n!keep*.py\n\\#odd.py\n")
    for rel in ("top_only.py", "sub/top_only.py", "a/gen/b/x.py", "keep_me.py", "drop.py", "#odd.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(BUGGY)
    _, out, _ = check(capsys, "--format", "json", "--select", "TP201", str(tmp_path))
    assert sorted(os.path.relpath(i["path"], tmp_path) for i in json.loads(out)) == ["keep_me.py"]


def test_many_exclude_patterns_stay_fast_and_right(tmp_path, capsys, buggy):
    patterns = [f"vendor{i}" for i in range(50_000)] + [f"gen_{i}_*.py" for i in range(50_000)] + ["skip*"]
    (buggy.parent / "pyproject.toml").write_text("[tool.torchplace]\nextend-exclude = " + json.dumps(patterns) + "\n")
    (tmp_path / "vendor7").mkdir()
    (tmp_path / "vendor7" / "v.py").write_text(BUGGY)
    (tmp_path / "gen_3_x.py").write_text(BUGGY)
    (tmp_path / "skipped.py").write_text(BUGGY)
    _, out, _ = check(capsys, "--format", "json", "--select", "TP201", str(tmp_path))
    assert [os.path.basename(i["path"]) for i in json.loads(out)] == ["train.py"]
