"""The checked-in torch semantics table matches the installed torch and covers its public API.

A torch upgrade (or a generator change) that alters any fact shows up here as a failure:
regenerate with `python shared_rules/tools/generate_torch_semantics.py` and review the diff.
"""
from __future__ import annotations

import json
import os
import sys

import pytest

from torchplace_rules import torch_semantics as ts

TOOLS = os.path.join(os.path.dirname(__file__), "..", "..", "shared_rules", "tools")
sys.path.insert(0, os.path.abspath(TOOLS))

from generate_torch_semantics import render  # noqa: E402
from torch_semantics import table  # noqa: E402

KINDS = {"tensor", "tensor?", "tensors", "tensors?", "index", "scalar", "int", "ints", "float", "floats", "bool",
         "bools", "str", "dtype", "device", "layout", "memory_format", "generator", "other", "dimnames", "scalars",
         "storage", "stream"}
ROLES = {"s", "s1", "z", "i", "c", "f", "n", "?"}
RESULTS = {"inputs", "factory", "like", "data", "cpu", "transfer", "receiver", "generator", "none", "numpy", "unknown"}


@pytest.fixture(scope="module")
def checked_in() -> dict:
    with open(ts.TABLE_PATH, encoding="utf-8") as f:
        return json.load(f)


@pytest.mark.slow
def test_table_matches_installed_torch():
    with open(ts.TABLE_PATH, encoding="utf-8") as f:
        on_disk = f.read()
    fresh = render(table.build())
    if fresh != on_disk:
        old, new = json.loads(on_disk), json.loads(fresh)
        changed = [f"{section}:{name}" for section in ("functions", "methods", "modules", "excluded")
                   for name in set(old[section]) | set(new[section])
                   if old[section].get(name) != new[section].get(name)]
        pytest.fail(f"torch_semantics.json differs from torch {new['torch']} in {len(changed)} entries "
                    f"(regenerate and review): {sorted(changed)[:20]}")


def test_every_public_callable_is_covered(checked_in):
    functions, methods = table.public_callables()
    missing = [q for q in functions if q not in checked_in["functions"] and q not in checked_in["excluded"]]
    missing += [f"Tensor.{m}" for m in methods
                if m not in checked_in["methods"] and f"Tensor.{m}" not in checked_in["excluded"]]
    assert missing == [], missing
    assert all(isinstance(reason, str) and reason for reason in checked_in["excluded"].values())


def test_the_named_namespaces_are_mostly_described(checked_in):
    """Exclusions are the exception: classes and helpers, not operators."""
    for ns in ("torch.nn.functional.", "torch.linalg.", "torch.special.", "torch.fft."):
        names = [q for q in checked_in["functions"] if q.startswith(ns)]
        left_out = [q for q, why in checked_in["excluded"].items() if q.startswith(ns) and "class" not in why
                    and "helper" not in why]
        assert len(names) > 10 and left_out == [], (ns, left_out)
    assert len(checked_in["methods"]) > 500


def test_records_use_the_documented_vocabulary(checked_in):
    for section in ("functions", "methods"):
        for name, overloads in checked_in[section].items():
            for o in overloads:
                assert o["result"] in RESULTS, (name, o["result"])
                assert set(o.get("follows", [])) <= {p[0] for p in o["params"]}, name
                for pname, kind, flags, role in o["params"]:
                    assert kind in KINDS, (name, pname, kind)
                    assert set(flags) <= {"k", "o"}, (name, flags)
                    if kind in ts.TENSOR_KINDS:
                        assert role in ROLES, (name, pname, role)
                    elif kind == "generator":
                        assert role == "g"
                    else:
                        assert role == "", (name, pname, role)
    for name, module in checked_in["modules"].items():
        assert module["state"] in {"params", "buffers", "none", "children", "unknown"}, name


def test_table_loads_with_json_alone_and_records_its_torch(checked_in):
    assert checked_in["format"] == 1
    assert checked_in["torch"] == ts.torch_version()
    import torch
    assert checked_in["torch"] == torch.__version__.split("+")[0]
