"""The editor's probe settings reach the probe (timeout, simulate GPU, existing kernel)."""
from types import SimpleNamespace

from torchplace_probe.editor_bridge import _options, close_document, session_for
from torchplace_probe.session import ProbeOptions


def test_editor_settings_become_probe_options():
    settings = SimpleNamespace(probe_timeout=12.5, probe_simulate_gpu="off", probe_existing_kernel="/tmp/kernel-1.json")
    opts = _options(SimpleNamespace(settings=settings))
    assert (opts.timeout, opts.simulate_gpu, opts.existing) == (12.5, "off", "/tmp/kernel-1.json")
    assert _options(SimpleNamespace(settings=None)) == ProbeOptions()


def test_changed_settings_replace_the_warm_session():
    first = session_for("file:///tmp/settings-doc.py", ProbeOptions(timeout=5))
    assert session_for("file:///tmp/settings-doc.py", ProbeOptions(timeout=5)) is first
    second = session_for("file:///tmp/settings-doc.py", ProbeOptions(timeout=9))
    assert second is not first and second.options.timeout == 9
    close_document("file:///tmp/settings-doc.py")
