"""The kernel side's reading of native_functions.yaml agrees with torchgen, PyTorch's own reader."""
from __future__ import annotations

import os

import pytest
import torch

from torchplace_probe.kernel_side import device_rules, op_registry

torchgen = pytest.importorskip("torchgen")
pytest.importorskip("yaml")


@pytest.fixture(scope="module")
def parsed():
    from torchgen.gen import parse_native_yaml

    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    return parse_native_yaml(os.path.join(base, "native_functions.yaml"), os.path.join(base, "tags.yaml"))


def test_device_checks_cuda_kernels_and_wrapper_names_match_torchgen(parsed):
    from torchgen.api.types import DispatcherSignature, NativeSignature
    from torchgen.model import DeviceCheckType, DispatchKey

    cuda = parsed.backend_indices[DispatchKey.CUDA]
    table = op_registry.registry()
    generated = {str(name) for f in parsed.native_functions for name in f.autogen}
    compared = 0
    for f in parsed.native_functions:
        ours = table.get(str(f.func.name))
        if ours is None:  # an `autogen` variant: torchgen writes it, the yaml has no entry for it
            assert str(f.func.name) in generated, f.func.name
            continue
        assert ours.exact_check == (f.device_check == DeviceCheckType.ExactSame), f.func.name
        if cuda.has_kernel(f):
            assert ours.cuda_kernel, f.func.name
            if f.structured or f.structured_delegate:
                name = NativeSignature(f.func, prefix="wrapper_CUDA_", symint=False).name()
            else:
                name = DispatcherSignature.from_schema(
                    f.func, prefix=f"wrapper_CUDA_{f.func.name.overload_name}_", symint=False).name()
            assert ours.cuda_wrapper_name(f.func.is_out_fn()) == name
            compared += 1
    assert compared > 800


def test_ops_resolve_from_the_dispatcher():
    aten = torch.ops.aten
    add = op_registry.lookup(aten.add.Tensor._schema.name, aten.add.Tensor._overloadname)
    assert add is not None and add.tensor_iterator and not add.exact_check and add.cuda_kernel
    index_select = op_registry.lookup("aten::index_select", "default")
    assert index_select.exact_check and index_select.cuda_wrapper_name(False) == "wrapper_CUDA__index_select"
    assert op_registry.lookup("aten::embedding", "default").composite == "explicit"
    assert op_registry.lookup("aten::cross_entropy_loss", "default").composite == "implicit"


def test_cpu_scalars_follow_the_iterator_builders():
    aten = torch.ops.aten
    assert device_rules.allows_cpu_scalars(aten.add.Tensor)  # BINARY_OP_CONFIG
    assert device_rules.allows_cpu_scalars(aten.gt.Tensor)  # comparison ops
    assert not device_rules.allows_cpu_scalars(aten.addcmul.default)  # build_ternary_op
