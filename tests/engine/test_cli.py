"""The `torchplace` command as users run it: exit codes, formats, fixes, bad input."""
import json
import subprocess
import sys
import textwrap

import pytest

BUGGY = textwrap.dedent("""\
    import torch
    device = torch.device("cuda")
    x = torch.zeros(3)
    x.to(device)
    a = torch.ones(2, device=device)
    b = torch.ones(2)
    c = a + b
""")


def run(*args, cwd=None):
    proc = subprocess.run([sys.executable, "-m", "torchplace_rules.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def buggy(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(BUGGY)
    return path


def test_text_output_and_exit_code(buggy):
    code, out, _ = run("check", str(buggy))
    assert code == 1
    assert f"{buggy}:4:1: TP201" in out
    assert f"{buggy}:7:5: TP101" in out
    assert "^^^^^" in out and "Found 2 findings (1 error, 1 warning)." in out


def test_clean_file_exits_zero(tmp_path):
    (tmp_path / "ok.py").write_text("import torch\nx = torch.ones(3)\n")
    code, out, _ = run("check", str(tmp_path))
    assert code == 0 and "All checks passed!" in out


def test_json_schema(buggy):
    code, out, _ = run("check", "--format", "json", str(buggy))
    items = json.loads(out)
    assert code == 1 and len(items) == 2
    for item in items:
        for key in ("path", "line", "column", "end_line", "end_column", "code", "name", "severity", "message", "related", "fix"):
            assert key in item
    tp201 = next(i for i in items if i["code"] == "TP201")
    assert (tp201["line"], tp201["column"], tp201["severity"]) == (4, 1, "warning")
    assert tp201["fix"]["applicability"] == "safe"
    assert tp201["fix"]["edits"][0]["new_text"] == "x = x.to(device)"
    tp101 = next(i for i in items if i["code"] == "TP101")
    assert tp101["related"] and tp101["related"][0]["line"] == 6


def test_sarif(buggy):
    code, out, _ = run("check", "--format", "sarif", str(buggy))
    doc = json.loads(out)
    assert doc["version"] == "2.1.0"
    run0 = doc["runs"][0]
    ids = {r["id"] for r in run0["tool"]["driver"]["rules"]}
    assert {"TP101", "TP201"} <= ids
    assert {r["ruleId"] for r in run0["results"]} == {"TP101", "TP201"}
    lines = {r["ruleId"]: r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in run0["results"]}
    assert lines == {"TP201": 4, "TP101": 7}  # 1-based, as the text output shows them


def test_select_ignore_and_min_severity(buggy):
    _, out, _ = run("check", "--format", "json", "--select", "TP2", str(buggy))
    assert {i["code"] for i in json.loads(out)} == {"TP201"}
    _, out, _ = run("check", "--format", "json", "--ignore", "TP201", str(buggy))
    assert {i["code"] for i in json.loads(out)} == {"TP101"}
    _, out, _ = run("check", "--format", "json", "--min-severity", "error", str(buggy))
    assert {i["code"] for i in json.loads(out)} == {"TP101"}


def test_fix_applies_safe_fixes_in_place(buggy):
    code, out, _ = run("check", "--fix", str(buggy))
    text = buggy.read_text()
    assert "x = x.to(device)" in text
    assert "b = torch.ones(2, device=device)" in text
    assert code == 0, out


def test_diff_changes_nothing(buggy):
    code, out, _ = run("check", "--diff", str(buggy))
    assert code == 1
    assert "-x.to(device)" in out and "+x = x.to(device)" in out
    assert buggy.read_text() == BUGGY


def test_unsafe_fixes_need_the_flag(tmp_path):
    path = tmp_path / "r.py"
    path.write_text("import torch\ndevice = torch.device('cuda')\na = torch.randn(2, device=device)\nb = torch.randn(2)\nc = a + b\n")
    run("check", "--fix", str(path))
    assert "torch.randn(2)\n" in path.read_text()  # random factory: unsafe
    run("check", "--fix", "--unsafe-fixes", str(path))
    assert "b = torch.randn(2, device=device)" in path.read_text()


def test_rules_and_explain():
    code, out, _ = run("rules")
    assert code == 0 and "TP101  mixed-devices" in out
    code, out, _ = run("explain", "TP201")
    assert code == 0 and "## What it does" in out and "## Fix" in out
    code, out, _ = run("explain", "mixed-devices")
    assert code == 0 and "# mixed-devices (TP101)" in out
    code, _, err = run("explain", "TP999")
    assert code == 2 and "unknown rule" in err


def test_missing_path_and_usage_errors(tmp_path):
    code, _, err = run("check", str(tmp_path / "nope.py"))
    assert code == 2 and "no such file" in err
    code, _, _ = run("check", "--format", "xml", str(tmp_path))
    assert code == 2


def test_pyproject_config_and_suppression(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nignore = ["TP101"]\n')
    (tmp_path / "a.py").write_text(BUGGY.replace("x.to(device)", "x.to(device)  # torchplace: ignore[TP201]"))
    code, out, _ = run("check", "--format", "json", str(tmp_path))
    assert code == 0 and json.loads(out) == []


def test_bad_pyproject_setting_is_a_usage_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nselect = 3\n')
    (tmp_path / "a.py").write_text("import torch\n")
    code, _, err = run("check", str(tmp_path))
    assert code == 2 and "select" in err


def test_gitignore_and_excludes_are_honoured(tmp_path):
    (tmp_path / ".gitignore").write_text("generated/\n")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "g.py").write_text(BUGGY)
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "v.py").write_text(BUGGY)
    (tmp_path / "pyproject.toml").write_text('[tool.torchplace]\nextend-exclude = ["vendor"]\n')
    code, out, _ = run("check", "--format", "json", str(tmp_path))
    assert code == 0 and json.loads(out) == []


def test_bad_files_never_crash(tmp_path):
    (tmp_path / "syntax.py").write_text("import torch\nx = (\n")
    (tmp_path / "latin1.py").write_bytes("# caf\xe9\nimport torch\nx = torch.ones(3)\n".encode("latin-1"))
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "binary.py").write_bytes(b"\x00\x01\x02torch\xff\xfe")
    (tmp_path / "deep.py").write_text("import torch\nx = " + "(" * 300 + "1" + ")" * 300 + "\n")
    (tmp_path / "nested.py").write_text("import torch\n" + "".join("    " * i + "if x:\n" for i in range(90)) + "    " * 90 + "y = torch.ones(1)\n")
    big = "import torch\ndevice = torch.device('cuda')\n" + "x = torch.ones(3, device=device) + 1\n" * 100_000
    (tmp_path / "big.py").write_text(big)
    (tmp_path / "after.py").write_text(BUGGY)
    code, out, err = run("check", "--format", "json", str(tmp_path))
    assert "Traceback" not in err, err
    items = json.loads(out)
    syntax = [i for i in items if i["code"] == "TP001"]
    assert {i["path"].rsplit("/", 1)[1] for i in syntax} >= {"syntax.py", "binary.py"}
    assert next(i for i in syntax if i["path"].endswith("syntax.py"))["line"] == 2
    assert {"TP101", "TP201"} <= {i["code"] for i in items if i["path"].endswith("after.py")}
    assert code == 1


def test_a_crashing_rule_is_isolated(monkeypatch):
    from torchplace_rules import check_source
    from torchplace_rules.rules import RULES_BY_CODE

    def boom(self, ev, *args):
        raise ZeroDivisionError("rule bug")

    monkeypatch.setattr(type(RULES_BY_CODE["TP101"]), "on_conflict", boom)
    errors = []
    findings = check_source(BUGGY, "train.py", errors=errors)
    assert [f.code for f in findings] == ["TP201"]  # the other rules still report
    assert len(errors) == 1 and errors[0].rule == "TP101 mixed-devices"
    assert "ZeroDivisionError: rule bug" in errors[0].describe()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_report_is_whole_when_check_exits_at_once(tmp_path, jobs):
    """`torchplace check` ends with os._exit once its report is out (no interpreter teardown): a
    report far larger than a pipe's buffer still arrives whole, with the exit code."""
    for i in range(60):
        (tmp_path / f"train_{i}.py").write_text(BUGGY)
    code, out, err = run("check", "--format", "json", "--jobs", jobs, str(tmp_path))
    assert code == 1, err
    assert len(out) > 65536
    findings = json.loads(out)
    assert len(findings) == 120 and {f["code"] for f in findings} == {"TP101", "TP201"}


def test_exit_now_is_only_for_check(tmp_path):
    """Other commands end normally (the server and the probe have threads and kernels to close)."""
    code, out, _ = run("rules")
    assert code == 0 and "TP101" in out
    script = ("import sys, atexit; from torchplace_rules import cli; atexit.register(lambda: print('teardown ran'));"
              "sys.argv = ['torchplace', 'explain', 'TP101']; cli.run()")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "teardown ran" in proc.stdout
    script = script.replace("'explain', 'TP101'", f"'check', {str(tmp_path)!r}")
    (tmp_path / "ok.py").write_text("import torch\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "All checks passed!" in proc.stdout and "teardown ran" not in proc.stdout
