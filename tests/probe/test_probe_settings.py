"""The editor's probe settings reach the probe (timeout, simulate GPU, existing kernel, script arguments)."""
from types import SimpleNamespace

from torchplace_probe.editor_bridge import _options, close_document, session_for
from torchplace_probe.session import ProbeOptions


def test_editor_settings_become_probe_options():
    settings = SimpleNamespace(probe_timeout=12.5, probe_simulate_gpu="off", probe_existing_kernel="/tmp/kernel-1.json",
                               probe_args=["--epochs", "1"])
    opts = _options(SimpleNamespace(settings=settings), SimpleNamespace(path="/tmp/train.py"))
    assert (opts.timeout, opts.simulate_gpu, opts.existing) == (12.5, "off", "/tmp/kernel-1.json")
    assert (opts.script, opts.args) == ("/tmp/train.py", ("--epochs", "1"))
    assert _options(SimpleNamespace(settings=None), SimpleNamespace(path="")) == ProbeOptions()


def test_per_run_settings_keep_the_kernel_and_kernel_settings_ask_first():
    key = "file:///tmp/settings-doc.py"
    first, change = session_for(key, ProbeOptions(timeout=5))
    assert change is None
    same, change = session_for(key, ProbeOptions(timeout=9, args=("--epochs", "1")))
    assert same is first and change is None and same.options.timeout == 9 and same.options.args == ("--epochs", "1")
    kept, change = session_for(key, ProbeOptions(timeout=9, simulate_gpu="off"))
    assert kept is first and "simulate_gpu" in change and kept.options.simulate_gpu == "auto"
    fresh, change = session_for(key, ProbeOptions(timeout=9, simulate_gpu="off"), replace=True)
    assert fresh is not first and change is None and fresh.options.simulate_gpu == "off"
    close_document(key)
