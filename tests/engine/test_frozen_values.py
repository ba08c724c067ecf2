"""`flow.frozen.fast_init`: the faster constructor keeps each value class's signature, defaults
and frozen-ness (dataclasses' own `__init__` is the reference)."""
import dataclasses
import inspect

import pytest

from torchplace_rules.flow import devices, values
from torchplace_rules.flow.frozen import fast_init

def reference(cls):
    """The same class as dataclasses would make it."""
    plain = dataclasses.dataclass(frozen=True)(type(cls.__name__, (), {"__annotations__": {
        f.name: f.type for f in dataclasses.fields(cls)}, **{f.name: f for f in dataclasses.fields(cls)}}))
    return plain


@pytest.mark.parametrize("cls", [values.TensorV, values.ModuleV, values.SeqV, values.DictV, values.DeviceV,
                                 values.FuncV, values.ObjectV, values.SelfV, devices.Dev])
def test_signature_and_defaults_match_dataclasses(cls):
    ours = inspect.signature(cls.__init__)
    theirs = inspect.signature(reference(cls).__init__)
    assert [(p.name, p.default, p.kind) for p in ours.parameters.values()] == \
        [(p.name, p.default, p.kind) for p in theirs.parameters.values()]
    assert "update" in cls.__init__.__code__.co_names  # the fast constructor is the one in use


def test_values_stay_frozen_and_compare_as_before():
    dev = devices.Dev("accel", "cuda:0", "device")
    a = values.TensorV(dev, origin=object(), rank=2)
    b = values.TensorV(dev, rank=2)
    assert a == b and hash(a) == hash(b)  # origin does not compare
    assert dataclasses.replace(a, rank=3).rank == 3 and a.rank == 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.rank = 5
    assert values.TensorV(dev).min_rank == 0 and values.TensorV(dev).grad is False


def test_unsupported_classes_keep_the_generated_init():
    @dataclasses.dataclass(frozen=True)
    class WithFactory:
        items: list = dataclasses.field(default_factory=list)

    generated = WithFactory.__init__
    assert fast_init(WithFactory).__init__ is generated
