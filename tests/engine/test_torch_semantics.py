"""The engine's query module over the torch semantics table (pure Python, no torch)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from torchplace_rules import torch_semantics as ts


def test_query_module_imports_no_torch():
    code = ("import sys, torchplace_rules.torch_semantics as t; t.lookup_function('torch.arange'); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_lookup_unknown_names():
    assert ts.lookup_function("torch.no_such_op") is None
    assert ts.lookup_method("no_such_method") is None
    assert ts.lookup_module_class("torch.nn.NoSuchLayer") is None
    assert ts.exclusion_reason("torch.Tensor").startswith("a class")


@pytest.mark.parametrize("name,args,kwargs,source", [
    ("torch.arange", ["tensor0"], {}, "aten::arange "),
    ("torch.add", ["tensor", "tensor0"], {}, "aten::add.Tensor "),
    ("torch.add", ["tensor", "number"], {}, "aten::add.Scalar "),
    ("torch.normal", ["number", "tensor"], {}, "aten::normal.float_Tensor "),
    ("torch.normal", ["number", "number", "other"], {}, "aten::normal.float_float "),
    ("torch.cat", ["tensors"], {"dim": "number"}, "aten::cat "),
    ("torch.where", ["tensor", "tensor", "number"], {}, "aten::where.ScalarOther "),
])
def test_bind_picks_the_overload_pytorch_picks(name, args, kwargs, source):
    binding = ts.lookup_function(name).bind(args, kwargs)
    assert binding is not None and binding.overload.source.startswith(source), binding


def test_bind_rejects_arguments_no_overload_takes():
    assert ts.lookup_function("torch.normal").bind(["number", "tensor"], {"device": "other"}) is None
    assert ts.lookup_function("torch.add").bind([], {"nonsense": "tensor"}) is None


def test_methods_bind_without_their_receiver():
    binding = ts.lookup_method("index_select").bind(["number", "tensor"], {})
    assert [(p.name, p.role) for p in binding.overload.checked] == [("self", "s"), ("index", "s")]
    assert binding.param_of_position(1, method=True).name == "index"


def test_star_parameters_collect_their_tensors():
    binding = ts.lookup_function("torch.einsum").bind(["other", "tensor", "tensor"], {})
    assert binding.kinds == {"*args": "tensors"}
    assert binding.overload.param("*args").role == "s"


def test_results():
    assert ts.lookup_function("torch.zeros").overloads[0].result == "factory"
    zl = ts.lookup_function("torch.zeros_like").bind(["tensor"], {}).overload
    assert (zl.result, zl.follows, zl.takes_device) == ("like", ("input",), True)
    assert ts.lookup_function("torch.tensor").overloads[0].result == "data"
    assert ts.lookup_function("torch.from_numpy").overloads[0].result == "cpu"
    assert {o.result for o in ts.lookup_method("to").overloads} == {"transfer"}
    assert ts.lookup_method("item").overloads[0].result == "none"
    assert ts.lookup_method("add_").overloads[0].result == "receiver"


def test_fixes_may_add_device_only_where_a_schema_takes_it():
    assert ts.lookup_function("torch.randn").takes_device
    normal = ts.lookup_function("torch.normal")
    assert normal.takes_device  # normal(mean, std, size, device=...) exists ...
    assert not normal.bind(["number", "tensor"], {}).overload.takes_device  # ... but not normal(0, std)


def test_zero_dim_columns():
    idx = ts.lookup_method("index_select").overloads[0]
    assert idx.param("index").accepts_zero_dim_cpu() is False
    mul = ts.lookup_function("torch.mul").bind(["tensor", "tensor0"], {}).overload
    assert mul.param("other").accepts_zero_dim_cpu() is True
    full = ts.lookup_function("torch.full").bind(["other", "tensor0"], {}).overload
    assert full.param("fill_value").reads_number


def test_module_classes():
    ce = ts.lookup_module_class("torch.nn.CrossEntropyLoss")
    assert ce.runs_anywhere and not ce.factory_kwargs
    assert ce.holds_state({}) is False
    assert ce.holds_state({"weight": object()}) is True
    assert ce.holds_state({}, (object(),)) is True  # CrossEntropyLoss(class_weights)
    assert ts.lookup_module_class("torch.nn.Linear").holds_state({}) is True
    assert ts.lookup_module_class("torch.nn.Linear").factory_kwargs
    assert ts.lookup_module_class("torch.nn.LayerNorm").holds_state({"elementwise_affine": False}) is False
    assert ts.lookup_module_class("torch.nn.Sequential").holds_state({}) is None
    for paramless in ("ReLU", "MaxPool2d", "Dropout", "MSELoss", "Flatten", "Softmax"):
        assert ts.lookup_module_class(f"torch.nn.{paramless}").runs_anywhere, paramless
    for stateful in ("BatchNorm2d", "Embedding", "LSTM", "Conv2d", "MultiheadAttention"):
        assert ts.lookup_module_class(f"torch.nn.{stateful}").holds_state({}) is True, stateful


def test_the_lazy_reader_sees_what_json_sees():
    """Entries are parsed one line at a time on first use; the file stays plain JSON."""
    import json
    table = ts._table()
    with open(ts.TABLE_PATH, encoding="utf-8") as f:
        whole = json.load(f)
    for section in ("functions", "methods", "modules", "excluded"):
        assert set(table[section]) == set(whole[section])
        assert all(table[section].get(name) == entry for name, entry in whole[section].items())
    assert (table["format"], table["torch"]) == (whole["format"], whole["torch"])
