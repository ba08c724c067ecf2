"""Dependencies earn their place: every declared dependency is imported by the code,
every third-party import is declared (the kernel side's torch/IPython come from the
user's interpreter and the `kernel` extra), and the MIT licence ships."""
import ast
import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
IMPORT_NAMES = {"pygls": "pygls", "lsprotocol": "lsprotocol", "cattrs": "cattrs", "jedi": "jedi",
                "jupyter_client": "jupyter_client", "pathspec": "pathspec", "tomli": "tomli"}
KERNEL_SIDE = {"torch", "torchgen", "IPython"}  # imported inside the user's kernel only (torchgen ships in the torch wheel)


def _third_party_imports() -> set[str]:
    found = set()
    # The installed packages (not shared_rules/tools/, which generates tables from torch at dev time).
    for folder in ("shared_rules/torchplace_rules", "server/torchplace_server", "server/torchplace_probe"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(a.name.split(".")[0] for a in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
    stdlib = set(sys.stdlib_module_names) | {"tomllib"}  # tomllib: 3.11+, tomli before
    return {m for m in found if m not in stdlib and not m.startswith(("torchplace", "_torchplace")) and m != "__main__"}


def test_every_dependency_is_imported_and_every_import_declared():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = {re.match(r"[A-Za-z0-9_.-]+", d).group().lower().replace("-", "_") for d in project["dependencies"]}
    imported = _third_party_imports()
    assert {IMPORT_NAMES[d] for d in declared} <= imported, "a declared dependency nothing imports"
    assert imported - KERNEL_SIDE <= {IMPORT_NAMES[d] for d in declared}, "an import that is not declared"
    assert "libcst" not in declared


def test_the_licence_ships():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    assert tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["license"] == {"text": "MIT"}


def test_only_torchplace_packages_are_installed():
    find_packages = pytest.importorskip("setuptools").find_packages  # (fresh 3.12+ venvs have none)

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    found = {p for where in find["where"] for p in find_packages(str(ROOT / where), include=find.get("include", ("*",)))}
    assert found and all(p.split(".")[0] in {"torchplace_rules", "torchplace_server", "torchplace_probe"} for p in found)
