"""`flow.frozen.fast_init`: the faster constructor keeps each value class's signature, defaults,
equality and hashing (dataclasses' own `__init__` is the reference); the frozen guard stays under
`python -X dev` and in the tests (TORCHPLACE_FROZEN_VALUES=1, set by tests/conftest.py)."""
import os
import dataclasses
import inspect
import subprocess
import sys
import textwrap

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
    assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"  # the fast constructor is the one in use
    assert "__setattr__" in cls.__dict__  # (the tests keep the frozen guard: tests/conftest.py)


def test_values_compare_as_before():
    dev = devices.Dev("accel", "cuda:0", "device")
    a = values.TensorV(dev, origin=object(), rank=2)
    b = values.TensorV(dev, rank=2)
    assert a == b and hash(a) == hash(b)  # origin does not compare
    assert dataclasses.replace(a, rank=3).rank == 3 and a.rank == 2
    assert values.TensorV(dev).min_rank == 0 and values.TensorV(dev).grad is False
    assert a.__dict__ == {f.name: getattr(a, f.name) for f in dataclasses.fields(a)}
    assert repr(b) == repr(reference(values.TensorV)(dev, rank=2))


def test_development_mode_keeps_values_frozen():
    """`python -X dev`: changing a value raises, as a frozen dataclass does; the values are the same."""
    code = textwrap.dedent("""
        import dataclasses
        from torchplace_rules.flow import devices, values
        t = values.TensorV(devices.CPU, rank=2)
        assert t == values.TensorV(devices.CPU, rank=2, origin=object()) and t.rank == 2
        try:
            t.rank = 3
        except dataclasses.FrozenInstanceError:
            print("frozen")
    """)
    out = subprocess.run([sys.executable, "-X", "dev", "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "frozen"


def test_plain_runs_drop_the_guard():
    """Outside `-X dev` and the tests, the fields are plain attribute stores (the fast path)."""
    code = textwrap.dedent("""
        from torchplace_rules.flow import devices, values
        t = values.TensorV(devices.CPU, rank=2)
        assert "__setattr__" not in values.TensorV.__dict__ and t == values.TensorV(devices.CPU, rank=2)
        print("plain")
    """)
    env = {k: v for k, v in os.environ.items() if k != "TORCHPLACE_FROZEN_VALUES"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "plain"


def test_tests_keep_the_guard():
    t = values.TensorV(devices.CPU, rank=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.rank = 3


def test_unsupported_classes_keep_the_generated_init():
    @dataclasses.dataclass(frozen=True)
    class WithFactory:
        items: list = dataclasses.field(default_factory=list)

    generated = WithFactory.__init__
    assert fast_init(WithFactory).__init__ is generated


def test_plain_runs_make_one_constructor_per_class():
    """A plain run makes only the fast constructor (each `exec` of generated code costs start-up time);
    the guarded one is made when `keep_guard` asks for it, with the same signature and doc."""
    code = textwrap.dedent("""
        import builtins, inspect, sys
        made = []
        real = builtins.exec
        def counting(src, *args, **kwargs):
            if sys._getframe(1).f_code.co_filename.endswith("frozen.py"):
                made.append(src)
            return real(src, *args, **kwargs)
        builtins.exec = counting
        from torchplace_rules.flow import devices, frozen, values
        fast = [entry[0] for entry in frozen._UNGUARDED]
        assert fast and len(made) == len(fast) and not any("__dict__" in src for src in made)
        before = {cls: (inspect.signature(cls.__init__), cls.__init__.__doc__) for cls in fast}
        frozen.keep_guard()
        assert len(made) == 2 * len(fast)
        assert all((inspect.signature(cls.__init__), cls.__init__.__doc__) == before[cls] for cls in fast)
        assert all("__setattr__" in cls.__dict__ for cls in fast)
        print("ok")
    """)
    env = {k: v for k, v in os.environ.items() if k != "TORCHPLACE_FROZEN_VALUES"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == "ok", out.stderr
