"""Shared kernels for the probe tests: starting one costs a couple of seconds."""
from __future__ import annotations

import pytest

from torchplace_probe import ProbeOptions, ProbeSession


@pytest.fixture(scope="module")
def simulated_session():
    session = ProbeSession(ProbeOptions(simulate_gpu="on", timeout=30), name="tests")
    yield session
    session.close()


@pytest.fixture(scope="module")
def plain_session():
    session = ProbeSession(ProbeOptions(simulate_gpu="off", timeout=30), name="tests-plain")
    yield session
    session.close()
