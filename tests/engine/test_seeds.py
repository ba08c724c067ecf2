"""The seed examples get the findings their text describes — not their false claims —
and `--fix --unsafe-fixes` leaves code that parses and re-checks clean of fixable findings."""
from pathlib import Path

import pytest

from torchplace_rules import Config, Severity, check_source
from torchplace_rules.cli import _fix_text
from torchplace_rules.fixes import parses

from .fake_gpu import run_on_fake_gpu

SEEDS = Path(__file__).resolve().parents[2] / "examples" / "seeds"

# file -> {(line, code)} at information severity and above
EXPECTED = {
    "seed000_example1.py": {(14, "TP301")},
    "seed000_example2.py": {(6, "TP301"), (10, "TP101")},
    "seed000_example3.py": {(14, "TP302")},
    "seed001_example1.py": {(11, "TP302")},
    "seed001_example2.py": set(),
    "seed001_example3.py": set(),  # `mat1 += mat2` is fine: the post's warning is folklore
    "seed002_example1.py": {(35, "TP101")},
    "seed003_example1.py": {(15, "TP102")},
    "seed003_example2.py": {(21, "TP102")},
    "seed003_example3.py": {(30, "TP103")},
    "seed004_example1.py": {(25, "TP102")},  # `model.to(device)` alone is correct: not reported
    "seed004_example2.py": set(),
    "seed004_example3.py": set(),
    "seed004_example4.py": set(),
}


def found(path: Path) -> set:
    findings = check_source(path.read_text(), str(path))
    return {(f.span.start_line + 1, f.code) for f in findings if f.severity <= Severity.INFORMATION}


def test_every_seed_file_is_listed():
    assert sorted(p.name for p in SEEDS.glob("*.py")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seed_findings(name):
    assert found(SEEDS / name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seed_fix_round_trip(name):
    path = SEEDS / name
    text = path.read_text()
    fixed = _fix_text(text, str(path), Config(), unsafe=True)
    assert parses(fixed)
    leftover = [f for f in check_source(fixed, str(path)) if f.fix is not None]
    assert leftover == [], [f"{f.code}:{f.span.start_line + 1}" for f in leftover]

@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if any(c.startswith("TP1") for _, c in e)))
def test_seed_errors_are_real_and_fixed(name):
    """Errors the engine reports raise on a (fake) GPU; the fixed code runs clean."""
    if name in FAKE_GPU_CANNOT_RUN:
        pytest.skip(FAKE_GPU_CANNOT_RUN[name])
    path = SEEDS / name
    text = path.read_text()
    # The posts wrap the failing call in try/except RuntimeError: let it surface.
    unguarded = text.replace("except RuntimeError", "except ZeroDivisionError")
    error = run_on_fake_gpu(unguarded)
    assert error is not None and "same device" in str(error)
    fixed = _fix_text(text, str(path), Config(), unsafe=True)
    assert run_on_fake_gpu(fixed.replace("except RuntimeError", "except ZeroDivisionError")) is None


FAKE_GPU_CANNOT_RUN = {
    "seed003_example3.py": "its DataLoader samples with real values, which FakeTensorMode does not carry "
                           "(the probe's simulated GPU runs it: tests/probe)",
}
