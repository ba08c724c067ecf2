"""Items a method stores into a dict attribute under a string key (`self.params["gain"] = t`) are what
the methods it then calls read back (`self.params["gain"]` in `apply`): the receiver a call hands on
carries them, as it carries the attributes the caller bound (`self.gain = t`).  torch-audiomentations'
transforms keep each call's random parameters this way (`self.transform_parameters[...]`, corpus batch
b23).  A key the caller did not store stays what the class knows, and an item moved where the input
is meets it without error.  Each snippet runs on the fake GPU and raises exactly where a finding is
expected."""
import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\n"
AUG = """\
    class Aug:
        def __init__(self):
            self.params = {{}}

        def apply(self, samples):
            return samples * self.params[{read}]

        def __call__(self, samples):
            self.params["gain"] = {made}
            return self.apply(samples)

    out = Aug()(torch.rand(4, 8).cuda())
    """
CASES = {
    "stored-then-read-by-the-callee": (AUG.format(read='"gain"', made="torch.rand(samples.shape[0], 1)"),
                                       {(6, "TP101"), (12, "TP301")}),
    "stored-where-the-input-is": (AUG.format(read='"gain"', made="torch.rand(samples.shape[0], 1).to(samples.device)"),
                                  {(12, "TP301")}),
    "another-key-than-stored": ("""\
    class Aug:
        def __init__(self):
            self.params = {"gain": torch.ones(4, 1, device="cuda")}

        def apply(self, samples):
            return samples * self.params["gain"]

        def __call__(self, samples):
            self.params["shift"] = torch.rand(samples.shape[0], 1)
            return self.apply(samples)

    out = Aug()(torch.rand(4, 8).cuda())
    """, {(12, "TP301")}),
    "rebound-dict-of-the-call": ("""\
    class Aug:
        def __init__(self):
            self.params = {}

        def apply(self, samples):
            return samples / self.params["snr"]

        def __call__(self, samples):
            self.params = {"apply": torch.ones(samples.shape[0], dtype=torch.bool)}
            self.params["snr"] = torch.rand(samples.shape[0], 1)
            return self.apply(samples)

    out = Aug()(torch.rand(4, 8).cuda())
    """, {(6, "TP101"), (13, "TP301")}),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)


@pytest.mark.parametrize("name", sorted(CASES))
def test_pytorch_agrees(name):
    body, expected = CASES[name]
    assert_pytorch_agrees(H, body, {e for e in expected if e[1] != "TP301"})
