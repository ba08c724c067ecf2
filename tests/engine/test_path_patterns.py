"""`GlobSet` answers exactly as `fnmatch` pattern by pattern would, without trying
every pattern (and without one giant regular expression to compile)."""
import fnmatch
import random

import pytest

from torchplace_rules.path_patterns import GlobSet, GlobTable

PATTERNS = ["vendor", "a/*.py", "**/gen_*", "*.pyi", "src/[ab]*.py", "x?y/z", "*_test.py", "*", "[q]*", "tests/*",
            "*/docs/*", "*foo*", "b[!c]d.py", "d/e/", "weird]name", "[unclosed", "*[0-9]", "?"]
PATHS = ["vendor/x.py", "a/b.py", "a/b/c.py", "q/gen_1.py", "m.pyi", "src/a1.py", "src/c.py", "xzy/z", "xzy/z/w.py",
         "t_test.py", "q/t_test.py", "qx", "tests/x.py", "r/docs/y", "zfooz", "bcd.py", "bdd.py", "d/e/f.py",
         "weird]name", "[unclosed", "other.py", "v1", "v1/x.py", "k"]


def reference(patterns, path, folders):
    for raw in patterns:
        pattern = raw.rstrip("/") if folders else raw
        if pattern and (fnmatch.fnmatchcase(path, pattern) or (folders and fnmatch.fnmatchcase(path, pattern + "/*"))):
            return True
    return False


@pytest.mark.parametrize("folders", [False, True])
def test_same_answers_as_fnmatch(folders):
    rng = random.Random(7)
    for _ in range(400):
        chosen = rng.sample(PATTERNS, rng.randint(0, len(PATTERNS)))
        globs = GlobSet(chosen, folders)
        for path in PATHS:
            assert globs.match(path) == reference(chosen, path, folders), (chosen, path)


def test_a_hundred_thousand_patterns_build_and_match():
    patterns = ([f"vendor{i}" for i in range(40_000)] + [f"gen_{i}_*.py" for i in range(40_000)]
                + [f"*_x{i}.py" for i in range(20_000)])
    globs = GlobSet(patterns, folders=True)
    assert globs.match("vendor7/a.py") and globs.match("gen_3_b.py") and globs.match("pkg/m_x19999.py")
    assert not globs.match("src/mod.py") and not globs.match("gen_3.py")


def test_per_file_table_collects_every_matching_value():
    table = GlobTable({"tests/*": frozenset({"TP104"}), "*.ipynb": frozenset({"TP401"}), "conftest.py": frozenset({"TP1"})})
    assert table.values_for("tests/conftest.py") == {"TP104", "TP1"}
    assert table.values_for("nb/a.ipynb") == {"TP401"}
    assert table.values_for("src/a.py") == frozenset()
